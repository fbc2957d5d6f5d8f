"""``mindspore.mint``: MindSpore 2.10's PyTorch-style functional API (``mint.sum(input,
dim, keepdim)``, ``mint.max(input, dim)`` giving ``(values, indices)``, ``mint.cat(tensors,
dim)``...), mapped onto graphkiln's ops. Sub-packages: ``mint.nn`` (layers),
``mint.nn.functional``, ``mint.special``, ``mint.linalg``, ``mint.optim``.
"""
from __future__ import annotations

import builtins

import numpy as np

import graphkiln.ops as ops

from ..common import dtype as mstype
from ..common.tensor import Tensor

# element-wise and array functions whose ``mindspore.ops`` signature is already mint's
from ..ops import (  # noqa: F401
    abs,
    acos,
    acosh,
    addbmm,
    addmm,
    addmv,
    arccos,
    arccosh,
    arcsin,
    arcsinh,
    arctan,
    arctan2,
    arctanh,
    asin,
    asinh,
    atan,
    atan2,
    atanh,
    baddbmm,
    bitwise_and,
    bitwise_or,
    bitwise_xor,
    bmm,
    broadcast_to,
    ceil,
    chunk,
    cos,
    cosh,
    cross,
    diff,
    einsum,
    eq,
    equal,
    erf,
    erfc,
    erfinv,
    exp,
    exp2,
    expm1,
    flip,
    float_power,
    floor,
    fmod,
    frac,
    gather_elements,
    gcd,
    ge,
    greater,
    greater_equal,
    gt,
    imag,
    index_select,
    inner,
    inverse,
    isclose,
    isfinite,
    isinf,
    isnan,
    isneginf,
    le,
    lerp,
    less,
    less_equal,
    log,
    log1p,
    log2,
    log10,
    logaddexp,
    logaddexp2,
    logical_and,
    logical_not,
    logical_or,
    logical_xor,
    logsumexp,
    lt,
    masked_select,
    matmul,
    maximum,
    minimum,
    mm,
    mul,
    mv,
    narrow,
    ne,
    neg,
    negative,
    nonzero,
    not_equal,
    ones_like,
    outer,
    polar,
    real,
    reciprocal,
    remainder,
    repeat_interleave,
    roll,
    rsqrt,
    sigmoid,
    sign,
    sin,
    sinc,
    sinh,
    square,
    swapaxes,
    t,
    tan,
    tanh,
    tile,
    tril,
    triu,
    trunc,
    unbind,
    unsqueeze,
    xlogy,
    zeros_like,
)
from ..ops.overload import tags as _tags
from . import linalg, nn, optim, special  # noqa: F401
from .functions import *  # noqa: F401,F403
from .nn import functional  # noqa: F401
from .random import (  # noqa: F401
    bernoulli,
    multinomial,
    normal,
    rand,
    rand_like,
    randint,
    randint_like,
    randn,
    randn_like,
)

fix = trunc


def sqrt(input: Tensor) -> Tensor:  # noqa: A002 - mint's argument name (ops.sqrt's is x)
    """Elementwise square root."""
    return ops.sqrt(input)


def _keep(dim):
    return () if dim is None else dim


def add(input, other, *, alpha=1) -> Tensor:
    """``input + alpha * other``."""
    return ops.add(input, other if alpha == 1 else ops.mul(other, alpha))


def sub(input, other, *, alpha=1) -> Tensor:
    """``input - alpha * other``."""
    return ops.sub(input, other if alpha == 1 else ops.mul(other, alpha))


def div(input, other, *, rounding_mode=None) -> Tensor:
    """``input / other``; ``rounding_mode`` ``'floor'`` or ``'trunc'`` rounds the quotient."""
    return ops.div(input, other, rounding_mode=rounding_mode)


divide = div


def pow(input, exponent) -> Tensor:  # noqa: A001 - MindSpore's name
    return ops.pow(input, exponent)


clamp = clip = ops.clamp


def where(condition, input=None, other=None):
    """``input`` where ``condition`` holds, else ``other``; with one argument the indices of
    the True elements (as ``nonzero(as_tuple=True)``)."""
    if input is None and other is None:
        return ops.nonzero(condition, as_tuple=True)
    return ops.select(condition, input, other)


def round(input, *, decimals=0) -> Tensor:  # noqa: A001
    return ops.round(input, decimals=decimals)


def nan_to_num(input, nan=None, posinf=None, neginf=None) -> Tensor:
    return ops.nan_to_num(input, 0.0 if nan is None else nan, posinf, neginf)


def allclose(input, other, rtol=1e-05, atol=1e-08, equal_nan=False) -> bool:
    """Whether every element of ``input`` is close to ``other``."""
    return bool(ops.reduce_all(ops.isclose(input, other, rtol, atol, equal_nan)).asnumpy())


# ---------------------------------------------------------------- reductions

def _cast_for(input, dtype):
    return input if dtype is None else ops.cast(input, mstype.to_type(dtype))


def sum(input, dim=None, keepdim=False, *, dtype=None) -> Tensor:  # noqa: A001
    """The sum over ``dim`` (all when None); integers and bools sum in int64."""
    return ops.sum(input, dim, keepdim, dtype=dtype)


def mean(input, dim=None, keepdim=False, *, dtype=None) -> Tensor:
    return ops.reduce_mean(_cast_for(input, dtype), _keep(dim), keepdim)


def prod(input, dim=None, keepdim=False, *, dtype=None) -> Tensor:
    return ops.prod(input, dim, keepdim, dtype=dtype)


def nansum(input, dim=None, keepdim=False, *, dtype=None) -> Tensor:
    return ops.nansum(input, dim, keepdim, dtype=dtype)


def _extremum(reduce, with_index, pairwise, name):
    def fn(input, dim=None, keepdim=False, other=None):
        if other is None and dim is not None and "int" not in _tags(dim):
            other = dim  # a Tensor or a float binds to the overload max(input, other)
        if other is not None:
            return pairwise(input, other)
        if dim is None:
            if keepdim:
                raise TypeError(f"For 'mint.{name}', 'keepdim' needs 'dim'.")
            return reduce(input, (), False)
        return with_index(input, dim, keepdim)
    fn.__name__ = name
    fn.__doc__ = (f"``mint.{name}(input)``: the {name}imum of all elements; "
                  f"``mint.{name}(input, dim, keepdim=False)``: ``(values, indices)``; "
                  f"``mint.{name}(input, other)``: the element-wise {name}imum.")
    return fn


max = _extremum(ops.reduce_max, ops.max, ops.maximum, "max")  # noqa: A001
min = _extremum(ops.reduce_min, ops.min, ops.minimum, "min")  # noqa: A001


def amax(input, dim=(), keepdim=False) -> Tensor:
    return ops.reduce_max(input, dim, keepdim)


def amin(input, dim=(), keepdim=False) -> Tensor:
    return ops.reduce_min(input, dim, keepdim)


def argmax(input, dim=None, keepdim=False) -> Tensor:
    return ops.argmax(input, dim, keepdim)


def argmin(input, dim=None, keepdim=False) -> Tensor:
    return ops.cast(ops.argmin(input, dim, keepdim), mstype.int64)


def all(input, dim=None, keepdim=False) -> Tensor:  # noqa: A001
    return ops.reduce_all(input, dim, keepdim)


def any(input, dim=None, keepdim=False) -> Tensor:  # noqa: A001
    return ops.reduce_any(input, dim, keepdim)


def count_nonzero(input, dim=None) -> Tensor:
    return ops.count_nonzero(input, dim)


def median(input, dim=None, keepdim=False):
    """The lower median of all elements, or ``(values, indices)`` along ``dim``."""
    if dim is None:
        flat = ops.reshape(input, (-1,))
        values = ops.sort(flat, 0)[0]
        return values[(flat.shape[0] - 1) // 2]
    return ops.median(input, dim, keepdim)


def var(input, dim=None, *, correction=1, keepdim=False) -> Tensor:
    """The variance over ``dim``, ``correction`` subtracted from the count."""
    return input.var(dim=dim, correction=correction, keepdim=keepdim)


def std(input, dim=None, *, correction=1, keepdim=False) -> Tensor:
    return ops.sqrt(var(input, dim, correction=correction, keepdim=keepdim))


def var_mean(input, dim=None, *, correction=1, keepdim=False) -> tuple:
    return var(input, dim, correction=correction, keepdim=keepdim), mean(input, dim, keepdim)


def std_mean(input, dim=None, *, correction=1, keepdim=False) -> tuple:
    return std(input, dim, correction=correction, keepdim=keepdim), mean(input, dim, keepdim)


def sort(input, *, dim=-1, descending=False, stable=False) -> tuple:
    values, indices = ops.sort(input, dim, descending)
    return values, ops.cast(indices, mstype.int64)


def argsort(input, dim=-1, descending=False, stable=False) -> Tensor:
    return sort(input, dim=dim, descending=descending)[1]


def topk(input, k, dim=-1, largest=True, sorted=True) -> tuple:  # noqa: A002
    values, indices = ops.topk(input, k, dim, largest, sorted)
    return values, ops.cast(indices, mstype.int64)


# ---------------------------------------------------------------- shapes

def reshape(input, shape) -> Tensor:
    return ops.reshape(input, tuple(shape))


def transpose(input, dim0, dim1) -> Tensor:
    return ops.swapaxes(input, dim0, dim1)


def permute(input, dims) -> Tensor:
    return ops.transpose(input, tuple(dims))


def squeeze(input, dim=None) -> Tensor:
    return ops.squeeze(input, dim)


def flatten(input, start_dim=0, end_dim=-1) -> Tensor:
    return ops.flatten(input, start_dim=start_dim, end_dim=end_dim)


def ravel(input) -> Tensor:
    return ops.reshape(input, (-1,))


def cat(tensors, dim=0) -> Tensor:
    return ops.concat(tuple(tensors), dim)


concat = cat


def stack(tensors, dim=0) -> Tensor:
    return ops.stack(tuple(tensors), dim)


def hstack(tensors) -> Tensor:
    tensors = tuple(tensors)
    return ops.concat(tensors, 0 if tensors[0].ndim == 1 else 1)


def dstack(tensors) -> Tensor:
    parts = []
    for x in tensors:
        while x.ndim < 3:
            x = ops.expand_dims(x, 0 if x.ndim == 0 else x.ndim)
        parts.append(x)
    return ops.concat(tuple(parts), 2)


def split(tensor, split_size_or_sections, dim=0) -> tuple:
    return ops.split(tensor, split_size_or_sections, dim)


def gather(input, dim, index) -> Tensor:
    return ops.gather_elements(input, dim, index)


def select(input, dim, index) -> Tensor:
    return input.select(dim, index)


def scatter(input, dim, index, src=None, *, value=None) -> Tensor:
    return ops.scatter(input, dim, index, value if src is None else src)


def scatter_add(input, dim, index, src) -> Tensor:
    return input.scatter_add(dim, index, src)


def take(input, index) -> Tensor:
    return ops.take(input, index)


def trace(input) -> Tensor:
    return ops.trace(input)


def diag(input, diagonal=0) -> Tensor:
    """The ``diagonal`` of a matrix, or the matrix with a vector on it."""
    return ops.diagonal(input, diagonal) if input.ndim == 2 else ops.diagflat(input, diagonal)


def _vectors(name: str, input, other) -> None:
    if not (isinstance(input, Tensor) and isinstance(other, Tensor)) or \
            input.ndim != 1 or other.ndim != 1:
        raise ValueError(f"For '{name}', the inputs must be 1-D Tensors.")


def dot(input, other) -> Tensor:
    """The inner product of two 1-D Tensors."""
    _vectors("dot", input, other)
    return ops.reduce_sum(ops.mul(input, other))


def vdot(input, other) -> Tensor:
    """The inner product of two 1-D Tensors, the first conjugated when complex."""
    _vectors("vdot", input, other)
    return dot(ops.conj(input) if input.dtype.is_complex else input, other)


def cdist(x1, x2, p=2.0, compute_mode="use_mm_for_euclid_dist_if_necessary") -> Tensor:
    """The ``p``-norm distance between each row of ``x1`` and each row of ``x2`` (batched
    over leading dimensions); ``compute_mode`` is accepted and does not change the result."""
    return ops.cdist(x1, x2, p)


# ---------------------------------------------------------------- creation

def _shape(size) -> tuple:
    if isinstance(size, int) and not isinstance(size, bool):
        return (size,)
    return tuple(size)


def _dtype(dtype, default=mstype.float32):
    return default if dtype is None else mstype.to_type(dtype)


def zeros(size, *, dtype=None) -> Tensor:
    return ops.zeros(_shape(size), _dtype(dtype))


def ones(size, *, dtype=None) -> Tensor:
    return ops.ones(_shape(size), _dtype(dtype))


def full(size, fill_value, *, dtype=None) -> Tensor:
    if dtype is None and isinstance(fill_value, Tensor):
        dtype = fill_value.dtype
    elif dtype is None:
        dtype = mstype.scalar_type(fill_value) if not isinstance(fill_value, float) \
            else mstype.float32
    return ops.fill(_dtype(dtype), _shape(size), fill_value)


def full_like(input, fill_value, *, dtype=None) -> Tensor:
    return ops.fill(_dtype(dtype, input.dtype), tuple(input.shape), fill_value)


def empty(*size, dtype=None) -> Tensor:
    """A Tensor of ``size`` (its elements zero: graphkiln has no uninitialised memory)."""
    shape = _shape(size[0]) if len(size) == 1 and not isinstance(size[0], int) else size
    return ops.zeros(tuple(shape), _dtype(dtype))


def empty_like(input, *, dtype=None) -> Tensor:
    return ops.zeros(tuple(input.shape), _dtype(dtype, input.dtype))


def eye(n, m=None, dtype=None) -> Tensor:
    return ops.eye(n, m, _dtype(dtype))


def arange(start=0, end=None, step=1, *, dtype=None) -> Tensor:
    """``[start, end)`` in steps of ``step`` (int64 for int bounds, else float32)."""
    if end is None:
        start, end = 0, start
    bounds = [v.asnumpy().item() if isinstance(v, Tensor) else v for v in (start, end, step)]
    if bounds[2] == 0:
        raise ValueError("For 'arange', the 'step' must not be 0.")
    ints = builtins.all(isinstance(v, int) for v in bounds)
    out_type = _dtype(dtype, mstype.int64 if ints else mstype.float32)
    return Tensor(np.arange(*bounds).astype(out_type.np_dtype), out_type)


def clone(input) -> Tensor:
    return ops.tensor_move(input)


from .overloads import checked as _checked  # noqa: E402

globals().update(_checked(globals()))

__all__ = [n for n in dir() if not n.startswith("_") and n not in (
    "annotations", "builtins", "np", "ops", "mstype", "Tensor", "functions", "overloads")]
