"""Array creation of ``mindspore.numpy``: constants, ranges, grids, triangles, windows and
random arrays. Shapes and counts are static Python values; array-valued bounds (linspace,
logspace, geomspace, tril/triu, vander...) are computed with ops, so everything works
eagerly and inside graphs alike."""
from __future__ import annotations

import builtins

import numpy as onp

import graphkiln.ops as ops

from ..common import dtype as mstype
from ..common.tensor import Tensor
from ._base import as_float, cast_to, default_type, dtype_of, int_const, norm_axis, to_tensor
from .rearrange import diag


def array(obj, dtype=None, copy=True, ndmin=0) -> Tensor:
    """A Tensor from ``obj`` (Python ints give Int32, floats Float32)."""
    out = to_tensor(obj, dtype)
    if copy and out is obj:
        out = ops.tensor_move(out)
    while out.ndim < ndmin:
        out = ops.expand_dims(out, 0)
    return out


def asarray(a, dtype=None) -> Tensor:
    """``a`` as a Tensor (a Tensor of the right type is returned as it is)."""
    return to_tensor(a, dtype)


def asfarray(a, dtype=mstype.float32) -> Tensor:
    """``a`` as a float Tensor (a non-float ``dtype`` gives Float32)."""
    want = dtype_of(dtype)
    if want is None or want.np_dtype.kind != "f":
        want = mstype.float32
    return to_tensor(a, want)


def copy_(a) -> Tensor:
    """A new Tensor holding ``a``'s values."""
    return ops.tensor_move(to_tensor(a))


def _shape(shape) -> tuple:
    if isinstance(shape, (builtins.int, onp.integer)):
        return (builtins.int(shape),)
    if isinstance(shape, (list, tuple)) and all(isinstance(s, (builtins.int, onp.integer))
                                                for s in shape):
        return tuple(builtins.int(s) for s in shape)
    raise TypeError(f"shape should be an int or a tuple of ints, but got {shape}.")


def _filled(shape, value, dtype) -> Tensor:
    return ops.fill(dtype_of(dtype) or mstype.float32, _shape(shape), value)


def zeros(shape, dtype=mstype.float32) -> Tensor:
    return _filled(shape, 0, dtype)


def ones(shape, dtype=mstype.float32) -> Tensor:
    return _filled(shape, 1, dtype)


def empty(shape, dtype=mstype.float32) -> Tensor:
    """An array of ``shape`` (filled with zeros, as MindSpore's)."""
    return _filled(shape, 0, dtype)


def full(shape, fill_value, dtype=None) -> Tensor:
    """``shape`` filled with ``fill_value`` (a number, or an array broadcast to ``shape``)."""
    if isinstance(fill_value, (Tensor, list, tuple, onp.ndarray)):
        value = to_tensor(fill_value, dtype)
        return ops.broadcast_to(value, _shape(shape))
    if dtype is None:
        dtype = mstype.bool_ if isinstance(fill_value, builtins.bool) else \
            mstype.int32 if isinstance(fill_value, builtins.int) else mstype.float32
    return _filled(shape, fill_value, dtype)


def _like_shape(a, shape):
    if isinstance(a, Tensor):
        return (tuple(a.shape) if shape is None else _shape(shape)), a.dtype
    try:
        proto = onp.asarray(a)
    except ValueError as err:
        raise ValueError(f"For 'like' functions, the input is not a regular array: {err}") from err
    if proto.dtype == object:
        raise ValueError("For 'like' functions, the input lists must have one shape.")
    return (proto.shape if shape is None else _shape(shape)), default_type(proto)


def zeros_like(a, dtype=None, shape=None) -> Tensor:
    shp, t = _like_shape(a, shape)
    return _filled(shp, 0, dtype or t)


def ones_like(a, dtype=None, shape=None) -> Tensor:
    shp, t = _like_shape(a, shape)
    return _filled(shp, 1, dtype or t)


def empty_like(prototype, dtype=None, shape=None) -> Tensor:
    shp, t = _like_shape(prototype, shape)
    return _filled(shp, 0, dtype or t)


def full_like(a, fill_value, dtype=None, shape=None) -> Tensor:
    shp, t = _like_shape(a, shape)
    return full(shp, fill_value, dtype or t)


def arange(start, stop=None, step=None, dtype=None) -> Tensor:
    """``[start, stop)`` by ``step``; Int32 for ints, Float32 when any bound is a float."""
    if stop is None:
        start, stop = 0, start
    step = 1 if step is None else step
    for v in (start, stop, step):
        if not isinstance(v, (builtins.int, builtins.float, onp.number)):
            raise TypeError(f"For 'arange', the bounds must be numbers, but got {type(v)}.")
    is_float = any(isinstance(v, (builtins.float, onp.floating)) for v in (start, stop, step))
    t = dtype_of(dtype) or (mstype.float32 if is_float else mstype.int32)
    return Tensor(onp.arange(start, stop, step).astype(t.np_dtype), t)


def _ramp(start, stop, num: int, endpoint: bool, axis: int):
    """``num`` evenly spaced values from ``start`` to ``stop`` (arrays broadcast against
    each other; the new axis at ``axis``) and the step, all Float32."""
    if not isinstance(num, (builtins.int, onp.integer)) or num < 0:
        raise ValueError(f"Number of samples, {num}, must be a non-negative integer.")
    start = as_float(to_tensor(start))
    stop = as_float(to_tensor(stop))
    start, stop = ops.broadcast_to(start, _bshape(start, stop)), \
        ops.broadcast_to(stop, _bshape(start, stop))
    div = (num - 1) if endpoint else num
    step = (stop - start) / builtins.max(div, 1)
    frac = Tensor(onp.arange(num, dtype=onp.float32), mstype.float32)
    shape = (num,) + (1,) * start.ndim
    out = ops.expand_dims(start, 0) + ops.reshape(frac, shape) * ops.expand_dims(step, 0)
    if endpoint and num > 1:
        last = ops.expand_dims(stop, 0)
        mask = Tensor((onp.arange(num) == num - 1).reshape(shape))
        out = ops.select(ops.broadcast_to(mask, tuple(out.shape)),
                         ops.broadcast_to(last, tuple(out.shape)), out)
    axis = norm_axis(axis, out.ndim)
    if axis:
        out = ops.moveaxis(out, 0, axis)
    return out, step


def _bshape(a: Tensor, b: Tensor) -> tuple:
    return tuple(onp.broadcast_shapes(tuple(a.shape), tuple(b.shape)))


def linspace(start, stop, num=50, endpoint=True, retstep=False, dtype=None, axis=0):
    """``num`` evenly spaced samples over ``[start, stop]`` (or ``[start, stop)``)."""
    out, step = _ramp(start, stop, num, endpoint, axis)
    out = cast_to(out, dtype)
    if retstep:
        return out, (step if step.ndim else step)
    return out


def logspace(start, stop, num=50, endpoint=True, base=10.0, dtype=None, axis=0) -> Tensor:
    """``base ** linspace(start, stop)``."""
    out, _ = _ramp(start, stop, num, endpoint, axis)
    return cast_to(ops.pow(Tensor(onp.float32(base)), out), dtype)


def geomspace(start, stop, num=50, endpoint=True, dtype=None, axis=0) -> Tensor:
    """``num`` samples evenly spaced on a log scale from ``start`` to ``stop``."""
    start = as_float(to_tensor(start))
    stop = as_float(to_tensor(stop))
    out, _ = _ramp(ops.log(start), ops.log(stop), num, endpoint, axis)
    return cast_to(ops.exp(out), dtype)


def eye(N, M=None, k=0, dtype=mstype.float32) -> Tensor:
    t = dtype_of(dtype) or mstype.float32
    return Tensor(onp.eye(N, M, k).astype(t.np_dtype), t)


def identity(n, dtype=mstype.float32) -> Tensor:
    return eye(n, dtype=dtype)


def tri(N, M=None, k=0, dtype=mstype.float32) -> Tensor:
    """Ones at and below the ``k``-th diagonal."""
    t = dtype_of(dtype) or mstype.float32
    return Tensor(onp.tri(N, M, k).astype(t.np_dtype), t)


def _triangle(m, k: int, lower: bool) -> Tensor:
    m = to_tensor(m)
    if m.ndim == 1:
        m = ops.broadcast_to(ops.expand_dims(m, 0), (m.shape[0], m.shape[0]))
    if m.ndim < 2:
        raise ValueError("For 'tril'/'triu', input m must be at least 1-D.")
    rows, cols = m.shape[-2:]
    mask = onp.tri(rows, cols, k if lower else k - 1, dtype=bool)
    keep = Tensor(mask if lower else ~mask)
    return ops.select(ops.broadcast_to(keep, tuple(m.shape)), m, ops.zeros_like(m))


def tril(m, k=0) -> Tensor:
    """``m`` with the elements above the ``k``-th diagonal zeroed."""
    return _triangle(m, k, True)


def triu(m, k=0) -> Tensor:
    """``m`` with the elements below the ``k``-th diagonal zeroed."""
    return _triangle(m, k, False)


def diagonal(a, offset=0, axis1=0, axis2=1) -> Tensor:
    """The ``offset`` diagonal of the ``axis1``/``axis2`` planes, as the last axis."""
    a = to_tensor(a)
    return ops.diagonal(a, offset, axis1, axis2)


def trace(a, offset=0, axis1=0, axis2=1, dtype=None) -> Tensor:
    """Sum along the ``offset`` diagonal."""
    d = diagonal(a, offset, axis1, axis2)
    if d.shape[-1] == 0:
        return cast_to(ops.zeros(tuple(d.shape[:-1]), d.dtype), dtype)
    return cast_to(ops.reduce_sum(d, -1), dtype)


def meshgrid(*xi, sparse=False, indexing="xy") -> tuple:
    """Coordinate arrays from 1-D coordinate vectors (``xy`` or ``ij`` indexing)."""
    if indexing not in ("xy", "ij"):
        raise ValueError(f"Valid values for `indexing` are 'xy' and 'ij', got {indexing}.")
    xs = [ops.reshape(to_tensor(x), (-1,)) for x in xi]
    n = len(xs)
    shape = [x.shape[0] for x in xs]
    if indexing == "xy" and n > 1:
        shape[0], shape[1] = shape[1], shape[0]
    out = []
    for i, x in enumerate(xs):
        pos = i
        if indexing == "xy" and n > 1 and i < 2:
            pos = 1 - i
        view = [1] * n
        view[pos] = x.shape[0]
        v = ops.reshape(x, tuple(view))
        out.append(v if sparse else ops.broadcast_to(v, tuple(shape)))
    return tuple(out)


class _IndexGrid:
    """``mgrid[...]``/``ogrid[...]``: NumPy's index grids from slices (``start:stop:step``,
    a complex ``step`` giving a number of points), Int32 or Float32 constants."""

    def __init__(self, sparse: bool):
        self.sparse = sparse

    def __getitem__(self, keys):
        grids = (onp.ogrid if self.sparse else onp.mgrid)[keys]
        if isinstance(grids, onp.ndarray):  # a dense grid, or a single axis
            return Tensor(grids.astype(default_type(grids).np_dtype), default_type(grids))
        return [Tensor(g.astype(default_type(g).np_dtype), default_type(g)) for g in grids]


mgrid = _IndexGrid(sparse=False)
ogrid = _IndexGrid(sparse=True)


def diagflat(v, k=0) -> Tensor:
    """The flattened ``v`` on the ``k``-th diagonal of a square matrix."""
    return diag(ops.reshape(to_tensor(v), (-1,)), k)


def diag_indices(n, ndim=2) -> tuple:
    """``ndim`` copies of ``arange(n)``: the indices of the main diagonal."""
    if not isinstance(n, builtins.int) or not isinstance(ndim, builtins.int):
        raise TypeError("For 'diag_indices', n and ndim must be ints.")
    return tuple(int_const(onp.arange(n)) for _ in range(ndim))


def ix_(*args) -> tuple:
    """Open-mesh index arrays from 1-D sequences (one broadcastable view each)."""
    n = len(args)
    out = []
    for i, a in enumerate(args):
        a = to_tensor(a)
        if a.ndim != 1:
            raise ValueError("Cross index must be 1 dimensional")
        view = [1] * n
        view[i] = a.shape[0]
        out.append(ops.reshape(a, tuple(view)))
    return tuple(out)


def indices(dimensions, dtype=mstype.int32, sparse=False):
    """The index grids of an array of shape ``dimensions``, one Tensor per axis (as
    MindSpore's, a tuple also when not ``sparse``)."""
    t = dtype_of(dtype)
    if not isinstance(dimensions, (tuple, list)):
        raise TypeError(f"For 'indices', dimensions must be a tuple, but got {dimensions}.")
    grids = onp.indices(tuple(dimensions), sparse=sparse)
    return tuple(Tensor(g.astype(t.np_dtype), t) for g in grids)


def vander(x, N=None, increasing=False) -> Tensor:
    """Columns ``x ** (N-1) ... x ** 0`` (reversed when ``increasing``)."""
    x = to_tensor(x)
    if x.ndim != 1:
        raise ValueError(f"For 'vander', x must be 1-D, but got {x.ndim}-D.")
    n = x.shape[0] if N is None else N
    powers = onp.arange(n) if increasing else onp.arange(n)[::-1]
    cols = [ops.ones_like(x) if p == 0 else x ** builtins.int(p) for p in powers]
    if not cols:
        return ops.zeros((x.shape[0], 0), x.dtype)
    return ops.stack(tuple(cols), -1)


def _window(values: onp.ndarray) -> Tensor:
    return Tensor(values.astype(onp.float32), mstype.float32)


def _window_length(M) -> builtins.int:
    if not isinstance(M, (builtins.int, onp.integer)):
        raise TypeError(f"the window length must be an int, but got {type(M)}.")
    return builtins.int(M)


def bartlett(M) -> Tensor:
    return _window(onp.bartlett(_window_length(M)))


def blackman(M) -> Tensor:
    return _window(onp.blackman(_window_length(M)))


def hamming(M) -> Tensor:
    return _window(onp.hamming(_window_length(M)))


def hanning(M) -> Tensor:
    return _window(onp.hanning(_window_length(M)))


def triu_indices(n, k=0, m=None) -> tuple:
    return tuple(int_const(i) for i in onp.triu_indices(n, k, m))


def tril_indices(n, k=0, m=None) -> tuple:
    return tuple(int_const(i) for i in onp.tril_indices(n, k, m))


def triu_indices_from(arr, k=0) -> tuple:
    arr = to_tensor(arr)
    if arr.ndim != 2:
        raise ValueError("input array must be 2-d")
    return triu_indices(arr.shape[0], k, arr.shape[1])


def tril_indices_from(arr, k=0) -> tuple:
    arr = to_tensor(arr)
    if arr.ndim != 2:
        raise ValueError("input array must be 2-d")
    return tril_indices(arr.shape[0], k, arr.shape[1])


def histogram_bin_edges(a, bins=10, range=None, weights=None) -> Tensor:  # noqa: A002
    """The edges of ``bins`` equal bins over ``range`` (the data's extent when None), or
    ``bins`` itself when it is a sequence."""
    a = as_float(to_tensor(a))
    if not isinstance(bins, (builtins.int, onp.integer)):
        return as_float(to_tensor(bins))
    if range is None:
        lo, hi = ops.amin(a), ops.amax(a)
    else:
        lo, hi = (Tensor(onp.float32(v)) for v in range)
    width = ops.select(hi > lo, hi - lo, ops.ones_like(hi))
    lo = ops.select(hi > lo, lo, lo - 0.5)
    frac = Tensor(onp.linspace(0, 1, builtins.int(bins) + 1).astype(onp.float32))
    return lo + frac * ops.select(hi > lo, width, width)


def _random_shape(shape: tuple) -> tuple:
    """The sample shape of ``randn(*shape)``: ints, or one tuple or list of ints (no
    argument: one sample)."""
    if not shape:
        return (1,)
    several = len(shape) > 1
    if not several and isinstance(shape[0], (tuple, list)):
        shape = tuple(shape[0])
    elif not several and not isinstance(shape[0], (builtins.int, onp.integer)):
        raise TypeError(f"If the length of the argument 'shape' is 1, the type of the "
                        f"argument 'shape' must be one of ['int', 'list', 'tuple'], but got "
                        f"{type(shape[0])}")
    for s in shape:
        if not isinstance(s, (builtins.int, onp.integer)) or isinstance(s, builtins.bool):
            raise TypeError("If the length of the argument 'shape' is > 1, the type of the "
                            f"argument 'shape' must all be int, but got {type(s)}" if several
                            else f"the shape must be ints, but got {s!r}.")
    return tuple(builtins.int(s) for s in shape)


def _float_type(dtype, name: str) -> mstype.Type:
    t = dtype_of(dtype)
    if t.np_dtype.kind != "f":
        raise ValueError(f"For '{name}', only float types are supported, but got {dtype}.")
    return t


def randn(*shape, dtype=mstype.float32) -> Tensor:
    """Samples of the standard normal distribution (``ms.set_seed`` makes them repeat)."""
    t = _float_type(dtype, "randn")
    return ops.cast(ops.standard_normal(_random_shape(shape)), t)


def rand(*shape, dtype=mstype.float32) -> Tensor:
    """Samples of the uniform distribution over ``[0, 1)``."""
    t = _float_type(dtype, "rand")
    shp = _random_shape(shape)
    return ops.cast(ops.uniform(shp, Tensor(0.0), Tensor(1.0)), t)


def randint(minval, maxval=None, shape=None, dtype=mstype.int32) -> Tensor:
    """Integers drawn uniformly from ``[minval, maxval)`` (``[0, minval)`` alone)."""
    if maxval is None:
        minval, maxval = 0, minval
    for v in (minval, maxval):
        if not isinstance(v, (builtins.int, onp.integer)):
            raise TypeError(f"For 'randint', the bounds must be ints, but got {v!r}.")
    if maxval <= minval:
        raise ValueError(f"For 'randint', minval must be less than maxval, but got "
                         f"{minval} and {maxval}.")
    t = dtype_of(dtype)
    if t.np_dtype.kind not in "iu":
        raise ValueError(f"For 'randint', only integer types are supported, got {dtype}.")
    shp = () if shape is None else _shape(shape)
    out = ops.uniform(shp or (1,), Tensor(minval, mstype.int32), Tensor(maxval, mstype.int32),
                      dtype=mstype.int32)
    return ops.cast(out, t)
