"""MindSpore 2.10's Tensor methods beyond the core operators: math (``x.log2()``,
``x.isnan()``...), layout (``x.tril()``, ``x.narrow()``, ``x.chunk()``...), products
(``x.mm(y)``...) and dtype/memory queries (``x.is_floating_point()``, ``x.stride()``...).

Each method takes MindSpore's argument names, including the spellings its overloads accept
(``dim``/``axis``, ``keepdim``/``keepdims``/``keep_dims``), and calls the functional op.
"""
from __future__ import annotations

import numpy as np

import graphkiln.ops.functional as F

from ..common import dtype as mstype
from ..common.tensor import Tensor
from ..ir import tracing_state
from . import array_ops as A
from . import dot as DOT
from . import elementwise as E
from . import products as P
from .defs.masked_scatter import MaskedScatter

_MISSING = object()


def _pick(name: str, **spellings):
    """The one given value among an argument's spellings (``dim=`` or ``axis=``), or
    ``_MISSING``; two given at once is a TypeError."""
    given = [(k, v) for k, v in spellings.items() if v is not _MISSING]
    if len(given) > 1:
        raise TypeError(f"For 'Tensor.{name}', got both '{given[0][0]}' and '{given[1][0]}' "
                        f"for the same argument.")
    return given[0][1] if given else _MISSING


def _or(value, default):
    return default if value is _MISSING else value


def _unary_methods() -> dict:
    names = ("log2", "log10", "isnan", "isinf", "isfinite", "isneginf", "isposinf", "trunc",
             "fix", "frac", "sgn", "signbit", "erfc", "sinc", "deg2rad", "rad2deg",
             "positive", "asinh", "acosh", "atanh", "arcsinh", "arccosh", "arctanh", "isreal")
    methods = {n: getattr(E, n) for n in names}
    for name in ("acos", "arccos", "asin", "arcsin", "atan", "arctan", "cosh", "sinh", "tan",
                 "absolute", "angle"):
        methods[name] = getattr(F, name)
    methods.update(argwhere=A.argwhere, msort=A.msort, fliplr=A.fliplr, flipud=A.flipud,
                   t=A.t, diagflat=A.diagflat)
    return methods


def _binary_methods() -> dict:
    methods = {n: getattr(E, n) for n in (
        "copysign", "hypot", "logaddexp", "logaddexp2", "xlogy", "float_power",
        "true_divide", "fmod", "fmax", "fmin", "ldexp")}
    methods.update(atan2=F.atan2, arctan2=F.arctan2, bitwise_and=F.bitwise_and,
                   bitwise_or=F.bitwise_or, bitwise_xor=F.bitwise_xor, mm=P.mm, outer=P.outer,
                   ger=P.ger, inner=P.inner, dot=DOT.dot, mv=P.mv)
    return methods


def heaviside(self, values):
    return E.heaviside(self, values)


def lerp(self, end, weight):
    return E.lerp(self, end, weight)


def isclose(self, other, rtol=1e-05, atol=1e-08, equal_nan=False):
    return E.isclose(self, other, rtol, atol, equal_nan)


def hardshrink(self, lambd=0.5):
    return E.hardshrink(self, lambd)


def nan_to_num(self, nan=None, posinf=None, neginf=None):
    return E.nan_to_num(self, nan, posinf, neginf)


def logsumexp(self, dim=_MISSING, keepdim=False, *, axis=_MISSING, keepdims=_MISSING):
    dim = _pick("logsumexp", dim=dim, axis=axis)
    return E.logsumexp(self, _or(dim, None), bool(_or(keepdims, keepdim)))


def nansum(self, dim=_MISSING, keepdim=_MISSING, *, axis=_MISSING, keepdims=_MISSING,
           dtype=None):
    dim = _pick("nansum", dim=dim, axis=axis)
    keep = _pick("nansum", keepdim=keepdim, keepdims=keepdims)
    return E.nansum(self, _or(dim, None), bool(_or(keep, False)), dtype=dtype)


def nanmean(self, axis=None, keepdims=False, *, dtype=None):
    return E.nanmean(self, axis, keepdims, dtype=dtype)


def count_nonzero(self, axis=_MISSING, keep_dims=False, dtype=None, *, dim=_MISSING):
    """``x.count_nonzero(axis=(), keep_dims=False, dtype=int32)``, or the newer
    ``x.count_nonzero(dim=None)`` (int64)."""
    if dim is not _MISSING:
        return E.count_nonzero(self, _axes(dim))
    counted = F.reduce_sum(F.cast(F.not_equal(self, 0), mstype.int64),
                           _axes(_or(axis, ())), keep_dims)
    return F.cast(counted, mstype.to_type(dtype) if dtype is not None else mstype.int32)


def _axes(dim):
    return tuple(dim) if isinstance(dim, list) else dim


def median(self, axis=_MISSING, keepdims=_MISSING, *, dim=_MISSING, keepdim=_MISSING):
    """The (lower) medians along ``axis`` (the last by default) and their indices."""
    axis = _pick("median", axis=axis, dim=dim)
    keep = _pick("median", keepdims=keepdims, keepdim=keepdim)
    return A.median(self, _or(axis, -1), bool(_or(keep, False)))


def tril(self, diagonal=0):
    return A.tril(self, diagonal)


def triu(self, diagonal=0):
    return A.triu(self, diagonal)


def flip(self, dims):
    return A.flip(self, dims)


def narrow(self, dim=_MISSING, start=0, length=0, *, axis=_MISSING):
    return A.narrow(self, _pick("narrow", dim=dim, axis=axis), start, length)


def chunk(self, chunks, dim=_MISSING, *, axis=_MISSING):
    return A.chunk(self, chunks, _or(_pick("chunk", dim=dim, axis=axis), 0))


def split(self, split_size_or_sections=_MISSING, dim=_MISSING, *, axis=_MISSING,
          split_size=_MISSING):
    sizes = _pick("split", split_size_or_sections=split_size_or_sections,
                  split_size=split_size)
    return F.split(self, sizes, _or(_pick("split", dim=dim, axis=axis), 0))


def tensor_split(self, indices_or_sections, axis=0):
    return A.tensor_split(self, indices_or_sections, axis)


def hsplit(self, indices_or_sections):
    return A.hsplit(self, indices_or_sections)


def vsplit(self, indices_or_sections):
    return A.vsplit(self, indices_or_sections)


def dsplit(self, indices_or_sections):
    return A.dsplit(self, indices_or_sections)


def unbind(self, dim=0):
    return A.unbind(self, dim)


def movedim(self, source, destination):
    return A.movedim(self, source, destination)


def swapdims(self, dim0, dim1):
    return A.swapdims(self, dim0, dim1)


def diagonal(self, offset=0, axis1=_MISSING, axis2=_MISSING, *, dim1=_MISSING,
             dim2=_MISSING):
    first = _or(_pick("diagonal", axis1=axis1, dim1=dim1), 0)
    second = _or(_pick("diagonal", axis2=axis2, dim2=dim2), 1)
    return A.diagonal(self, offset, first, second)


def trace(self, offset=0, axis1=0, axis2=1, dtype=None):
    return A.trace(self, offset, axis1, axis2, dtype)


def index_select(self, axis=_MISSING, index=None, *, dim=_MISSING):
    return A.index_select(self, _pick("index_select", axis=axis, dim=dim), index)


def take(self, indices, axis=None, mode="clip"):
    return A.take(self, indices, axis, mode)


def _index_mode(indices, n: int, mode: str):
    if mode == "wrap":
        return F.floor_mod(indices, F.fill(indices.dtype, (), n))
    if mode in ("clip", "raise"):
        return F.clip_by_value(indices, 0, max(n - 1, 0))
    raise ValueError(f"mode should be 'clip', 'wrap' or 'raise', but got {mode!r}.")


def choose(self, choices, mode="clip"):
    """Elements picked from ``choices[self]`` (indices and choices broadcast together;
    out-of-range indices clipped or wrapped). As MindSpore's, the choices pass through
    Int32 (fractions are dropped) and the result has their type."""
    picks = F.cast(self, mstype.int32)
    if isinstance(choices, Tensor):
        choices = F.unstack(choices, 0)
    choices = [c if isinstance(c, Tensor) else Tensor(np.asarray(c)) for c in choices]
    dtype = mstype.from_numpy(np.result_type(*[c.dtype.np_dtype for c in choices]))
    shape = tuple(np.broadcast_shapes(tuple(picks.shape), *[tuple(c.shape) for c in choices]))
    picks = _index_mode(F.broadcast_to(picks, shape), len(choices), mode)
    stacked = F.stack(tuple(F.broadcast_to(F.cast(c, mstype.int32), shape) for c in choices), 0)
    return F.cast(F.squeeze(F.gather_elements(stacked, 0, F.expand_dims(picks, 0)), 0), dtype)


def resize(self, *new_shape):
    """A Tensor of ``new_shape`` holding the flattened elements, cut short or followed by
    zeros (NumPy's ``ndarray.resize``; the Tensor itself is unchanged)."""
    if len(new_shape) == 1 and isinstance(new_shape[0], (tuple, list)):
        new_shape = tuple(new_shape[0])
    size = int(np.prod(new_shape))
    flat = F.reshape(self, (-1,))
    if size > flat.shape[0]:
        flat = F.concat((flat, F.zeros((size - flat.shape[0],), self.dtype)))
    elif size < flat.shape[0]:
        flat = flat[:size]
    return F.reshape(flat, tuple(new_shape))


def masked_fill(self, mask, value):
    return F.masked_fill(self, mask, value)


def masked_scatter(self, mask, source):
    """``self`` with the positions where ``mask`` holds taken, in order, from ``source``."""
    for arg, v in (("mask", mask), ("source", source)):
        if not isinstance(v, Tensor):
            raise TypeError(f"masked_scatter(): argument '{arg}' must be Tensor, not "
                            f"{type(v).__name__}.")
    return MaskedScatter(self, mask, source)


def where(self, condition, y):
    return A.where(condition, self, y)


def repeat_interleave(self, repeats, dim=None, output_size=None):
    return A.repeat_interleave(self, repeats, dim, output_size=output_size)


def diff(self, n=1, axis=-1, prepend=None, append=None):
    return A.diff(self, n, axis, prepend, append)


def select(self, *args, **kwargs):
    """``x.select(dim, index)``: the slice at ``index`` along ``dim``; the older
    ``x.select(condition, y)``: ``x`` where the bool ``condition`` holds, else ``y``."""
    if "condition" in kwargs or (args and isinstance(args[0], Tensor)):
        return _select_where(self, *args, **kwargs)
    return A.select_dim(self, *args, **kwargs)


def _select_where(self, condition, y):
    if isinstance(y, (int, float)) and not isinstance(y, bool):
        want, kind = (mstype.int32, "int") if isinstance(y, int) else (mstype.float32, "float")
        if self.dtype != want:
            raise TypeError(f"For 'Tensor.select', if the argument 'y' is {kind}, then the "
                            f"tensor type should be {str(want).lower()} but got "
                            f"{str(self.dtype).lower()}")
    return F.select(condition, self, y)


def select_scatter(self, src, axis, index):
    return A.select_scatter(self, src, axis, index)


def slice_scatter(self, src, axis=0, start=None, end=None, step=1):
    return A.slice_scatter(self, src, axis, start, end, step)


def scatter(self, dim=_MISSING, index=None, src=_MISSING, *, axis=_MISSING, value=_MISSING):
    source = _pick("scatter", src=src, value=value)
    return A.scatter(self, _pick("scatter", dim=dim, axis=axis), index, source)


def scatter_add(self, dim, index=None, src=None):
    """``x.scatter_add(dim, index, src)`` along ``dim``; the older
    ``x.scatter_add(indices, updates)`` adds ``updates`` at the full ``indices``."""
    if isinstance(dim, Tensor):
        return F.tensor_scatter_add(self, dim, index)
    return A.scatter_elements_add(self, dim, index, src)


def _tensor_scatter_method(kind: str):
    """MindSpore's deprecated ``Tensor.scatter_<kind>(indices, updates)``:
    ``ops.tensor_scatter_<kind>``."""
    fn = getattr(F, f"tensor_scatter_{kind}")

    def method(self, indices, updates):
        return fn(self, indices, updates)
    method.__name__ = method.__qualname__ = f"scatter_{kind}"
    method.__doc__ = f"``ops.tensor_scatter_{kind}(self, indices, updates)``."
    return method


def _size(name: str, size) -> tuple:
    if isinstance(size, (tuple, list)):
        return tuple(size)
    if isinstance(size, int) and not isinstance(size, bool):
        return (size,)
    raise TypeError(f"For 'Tensor.{name}', the 'size' must be a tuple or list of ints, but "
                    f"got {type(size).__name__}.")


def new_zeros(self, size, dtype=None):
    return A.new_full(self, _size("new_zeros", size), 0, dtype)


def new_ones(self, size, dtype=None):
    return A.new_full(self, _size("new_ones", size), 1, dtype)


def new_full(self, size, fill_value, *, dtype=None):
    return A.new_full(self, _size("new_full", size), fill_value, dtype)


def sum_to_size(self, *size):
    return A.sum_to_size(self, *size)


def roll(self, shifts, dims=None):
    return A.roll(self, shifts, dims)


def _products() -> dict:
    def fused(fn):
        def method(self, a, b, *, beta=1, alpha=1):
            return fn(self, a, b, beta=beta, alpha=alpha)
        method.__name__ = fn.__name__
        return method
    return {fn.__name__: fused(fn) for fn in (P.addmm, P.addbmm, P.baddbmm, P.addmv)}


def _matrix_transpose(self):
    if self.ndim < 2:
        raise ValueError(f"For 'Tensor.mT', the input must be at least 2-D, but got "
                         f"{self.ndim}-D.")
    return F.swapaxes(self, -1, -2)


def _adjoint(self):
    out = _matrix_transpose(self)
    return F.conj(out) if self.dtype.is_complex else out


def _conj_transpose(self):
    out = A.t(self)
    return F.conj(out) if self.dtype.is_complex else out


def type_(self, dtype=None):
    """``x.type()``: the dtype's name (``'Float32'``); ``x.type(dtype)``: ``x`` cast."""
    if dtype is None:
        return str(self.dtype)
    return F.cast(self, mstype.to_type(dtype))


def type_as(self, other):
    """``self`` cast to ``other``'s dtype (a plain Python method in MindSpore: Python's own
    errors for wrong arguments)."""
    return F.cast(self, other.dtype)


type_as.__qualname__ = "Tensor.type_as"


def _strided(self) -> bool:
    """A PyNative view (``ir.primitive.VIEW_OPS``) whose layout is its array's own."""
    return getattr(self, "_view", False) and self._node is None


def is_contiguous(self) -> bool:
    """False for a view whose elements are not laid out row-major (``x.T``, ``x[:, 1]``)."""
    return not _strided(self) or self._data.flags.c_contiguous


def storage_offset(self) -> int:
    """Elements between the start of the memory a view shares and its first element."""
    if not _strided(self):
        return 0
    root = self._data
    while isinstance(root.base, np.ndarray):
        root = root.base
    return (self._data.ctypes.data - root.ctypes.data) // self._data.itemsize


def stride(self, dim=None):
    """The element strides (a list) of the Tensor (a view's own), or that of ``dim``."""
    if _strided(self):
        strides = [s // self._data.itemsize for s in self._data.strides]
    else:
        strides = [int(s) for s in np.cumprod((1,) + tuple(self.shape[:0:-1]))[::-1]]
    if dim is None:
        return strides
    return strides[dim]


def _cumsum(self, axis=None, dtype=None, *, dim=None) -> Tensor:
    """Running sums along ``axis`` (also spelled ``dim``; of the flattened Tensor when
    None)."""
    axis = dim if axis is None else axis
    x = self if axis is not None else F.reshape(self, (-1,))
    return F.cumsum(x, 0 if axis is None else axis, dtype)


_DEVICES = ("cpu", "CPU", "meta", "Ascend", "npu")


def _to(self, *args, **kwargs) -> Tensor:
    """``x.to(dtype)``, ``x.to(device, dtype)`` or ``x.to(other)`` (``other``'s dtype); a
    known device, ``non_blocking`` and ``copy`` change nothing here."""
    first = args[0] if args else None
    other = kwargs.get("other", first if isinstance(first, Tensor) else None)
    if other is not None:
        return F.cast(self, other.dtype)
    on_device = first is None or isinstance(first, str)
    device = kwargs.get("device", first if on_device else None)
    if device is not None and device not in _DEVICES:
        op = "to" if tracing_state.current() is None else "ToDevice"
        raise ValueError(f"Failed to convert the value \"{device}\" of input 'device' of "
                         f"'{op}' to enum.")
    dtype = (args[1] if len(args) > 1 else None) if on_device else first
    dtype = kwargs.get("dtype", dtype)
    return self if dtype is None else F.cast(self, dtype)


def install() -> None:
    """Attach the methods to :class:`Tensor`."""
    for name, fn in {**_unary_methods(), **_binary_methods(), **_products()}.items():
        setattr(Tensor, name, fn)
    for fn in (heaviside, lerp, isclose, hardshrink, nan_to_num, logsumexp, nansum, nanmean,
               count_nonzero, median, tril, triu, flip, narrow, chunk, split, tensor_split,
               hsplit, vsplit, dsplit, unbind, movedim, swapdims, diagonal, trace,
               index_select, take, masked_fill, masked_scatter, where, repeat_interleave, diff,
               select, select_scatter, slice_scatter, scatter, scatter_add, new_zeros, new_ones,
               new_full, sum_to_size, roll, type_as, stride, storage_offset,
               is_contiguous, choose, resize):
        setattr(Tensor, fn.__name__, fn)
    for kind in ("sub", "mul", "div", "max", "min"):
        setattr(Tensor, f"scatter_{kind}", _tensor_scatter_method(kind))
    Tensor.moveaxis = movedim
    Tensor.type = type_
    Tensor.mT = property(_matrix_transpose)
    Tensor.mH = property(_adjoint)
    Tensor.H = property(_conj_transpose)
    Tensor.adjoint = _adjoint
    Tensor.ndimension = lambda self: self.ndim
    Tensor.cumsum = _cumsum
    Tensor.to = _to
    if not hasattr(Tensor, "data"):  # Parameter defines its own
        Tensor.data = property(lambda self: self)
    Tensor.is_floating_point = lambda self: self.dtype.is_float
    Tensor.is_complex = lambda self: self.dtype.is_complex
    Tensor.is_signed = lambda self: self.dtype.kind in "ifc"
    Tensor.contiguous = lambda self: self if is_contiguous(self) else F.contiguous(self)
    Tensor.byte = lambda self: F.cast(self, mstype.uint8)
    Tensor.short = lambda self: F.cast(self, mstype.int16)


install()
