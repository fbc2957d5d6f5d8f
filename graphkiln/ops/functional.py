"""Functional ops (``ops.add(x, y)``, ``F.assign``...): thin wrappers over the primitives
that apply MindSpore's conventions for Python scalars and default arguments.

Signatures follow MindSpore 2.10's ``mindspore.ops`` functions. A Python number next to a
Tensor is passed to the primitive as it is: the primitive promotes it MindSpore's way
(``int32_tensor + 2.5 -> float32``, ``float16_tensor + 2 -> float16``; see
``defs/_infer.py``).
"""
from __future__ import annotations

import builtins as _builtins
import functools as _functools
import numbers as _numbers
import sys as _sys
import types as _types

import numpy as np

from ..common import dtype as mstype
from ..common.capture_flags import bytecode_capture
from ..common.seed import graph_seed
from ..common.sparse_tensor import COOTensor, CSRTensor
from ..common.symbolic_scalar import SymbolicScalar
from ..common.symbolic_sequence import SymbolicSequence
from ..common.tensor import Tensor
from ..errors import names_bad_arguments as _names_bad_arguments
from ..ir import structural_prims as S
from ..ir import tracing_state as state
from ..ir.abstract import AbstractTensor
from .defs import activations as ACT
from .defs import arith as AR
from .defs import array as A
from .defs import complex as CX
from .defs import conv as CV
from .defs import data_dependent as DD
from .defs import introspect as IN
from .defs import linalg as LA
from .defs import math as M
from .defs import nn as N
from .defs import renorm as RN
from .defs import scalar as SS
from .defs import scatter as SC
from .defs import sequence as SEQ
from .defs import side_effects as E
from .defs import special as SP
from .defs._infer import norm_axis
from .distance import pdist  # noqa: F401  (ops.pdist)
from .dynamic_shape import shape_of
from .matrix_band import matrix_band_part  # noqa: F401  (ops.matrix_band_part)
from .moments import std, std_mean, var, var_mean  # noqa: F401  (ops.std...)
from .random_functions import (  # noqa: F401  (ops.randn...)
    choice_with_mask,
    log_uniform_candidate_sampler,
    normal,
    rand,
    randn,
    random_gamma,
    random_poisson,
    shuffle,
    standard_laplace,
    standard_normal,
    uniform,
    uniform_candidate_sampler,
)

_NUMBER = (bool, int, float, np.bool_, np.integer, np.floating)


def _is_number(x) -> bool:
    return isinstance(x, _NUMBER)


def _promote(x, y, name: str = "div"):
    """Make the operands of a binary op acceptable to its primitive: lists and tuples become
    Tensors; numbers stay numbers (the primitive promotes them)."""
    return _sequence_operand(name, "input", x), _sequence_operand(name, "other", y)


def _sequence_operand(name: str, arg: str, v):
    """``v``, or the Tensor a list/tuple of numbers makes (else an error naming ``arg``);
    a list/tuple of Tensors is their stack (a step gradients go through)."""
    if not isinstance(v, (list, tuple)):
        return v
    if v and all(isinstance(e, Tensor) for e in v):
        return A.Stack(tuple(v), axis=0)
    try:
        return Tensor(v)
    except (TypeError, ValueError):
        raise TypeError(f"For '{name}', the input '{arg}' must be a Tensor, a number or a "
                        f"sequence of numbers, but got {type(v).__name__} {v!r}.") from None


def _binary(opdef, name: str):
    def fn(input, other):
        input, other = _promote(input, other, name)
        return opdef(input, other)
    fn.__name__ = fn.__qualname__ = name
    fn.__doc__ = f"Elementwise ``{opdef.name}`` with broadcasting and scalar promotion."
    return fn


add = _binary(M.Add, "add")
sub = _binary(M.Sub, "sub")
mul = _binary(M.Mul, "mul")
floor_divide = _binary(M.FloorDiv, "floor_divide")
mod = remainder = _binary(M.FloorMod, "remainder")
_power = _binary(M.Pow, "pow")


def floor_div(x, y) -> Tensor:
    """``floor(x / y)`` (MindSpore's argument names)."""
    return floor_divide(x, y)


def floor_mod(x, y) -> Tensor:
    """``x - floor(x / y) * y`` (MindSpore's argument names)."""
    return remainder(x, y)


def pow(input, exponent) -> Tensor:  # noqa: A001 - MindSpore's name
    """``input ** exponent``, with broadcasting and scalar promotion."""
    return _power(input, exponent)
maximum = _binary(M.Maximum, "maximum")
minimum = _binary(M.Minimum, "minimum")
less = _binary(M.Less, "less")
less_equal = _binary(M.LessEqual, "less_equal")
greater = _binary(M.Greater, "greater")
greater_equal = _binary(M.GreaterEqual, "greater_equal")
equal = _binary(M.Equal, "equal")
not_equal = _binary(M.NotEqual, "not_equal")
logical_and = _binary(M.LogicalAnd, "logical_and")
logical_or = _binary(M.LogicalOr, "logical_or")
logical_xor = _binary(M.LogicalXor, "logical_xor")
bitwise_and = _binary(M.BitwiseAnd, "bitwise_and")
bitwise_or = _binary(M.BitwiseOr, "bitwise_or")
bitwise_xor = _binary(M.BitwiseXor, "bitwise_xor")
lt, le, gt, ge, eq, ne = less, less_equal, greater, greater_equal, equal, not_equal
multiply = mul


def subtract(input, other, *, alpha=1) -> Tensor:  # noqa: A002 - MindSpore's name
    """``input - alpha * other``."""
    scaled = isinstance(alpha, Tensor) or not (isinstance(alpha, (int, float)) and alpha == 1)
    return sub(input, mul(other, alpha) if scaled else other)


def div(input, other, *, rounding_mode=None):
    """``input / other`` (integers give float32); ``rounding_mode`` ``"floor"`` or
    ``"trunc"`` rounds the quotient and keeps the promoted type."""
    input, other = _promote(input, other)
    if rounding_mode is None:
        return M.Div(input, other)
    if rounding_mode == "floor":
        return M.FloorDiv(input, other)
    if rounding_mode == "trunc":
        negative = M.LogicalXor(M.Less(input, 0), M.Less(other, 0))
        return A.Select(negative, M.Neg(M.FloorDiv(M.Neg(input), other)),
                        M.FloorDiv(input, other))
    raise ValueError(f"For 'div', 'rounding_mode' must be None, 'floor' or 'trunc', but got "
                     f"{rounding_mode!r}.")


divide = div


def _unary(opdef, name: str):
    def fn(input):
        if _is_number(input):
            input = Tensor(input)
        return opdef(input)
    fn.__name__ = fn.__qualname__ = name
    fn.__doc__ = f"Elementwise ``{opdef.name}``."
    return fn


neg = negative = _unary(M.Neg, "neg")
abs = absolute = _unary(M.Abs, "abs")  # noqa: A001
square = _unary(M.Square, "square")
real = _unary(CX.Real, "real")
imag = _unary(CX.Imag, "imag")
conj = _unary(CX.Conj, "conj")
angle = _unary(CX.Angle, "angle")


def complex(real: Tensor, imag: Tensor) -> Tensor:  # noqa: A001
    """The complex tensor ``real + imag * 1j`` (float32 parts give complex64)."""
    return CX.Complex(real, imag)
exp = _unary(M.Exp, "exp")
log = _unary(M.Log, "log")
_square_root = _unary(M.Sqrt, "sqrt")


def sqrt(x) -> Tensor:
    """Elementwise square root (MindSpore's argument name)."""
    return _square_root(x)


rsqrt = _unary(M.Rsqrt, "rsqrt")
sin = _unary(M.Sin, "sin")
cos = _unary(M.Cos, "cos")
tanh = _unary(M.Tanh, "tanh")
sigmoid = _unary(M.Sigmoid, "sigmoid")
relu = _unary(M.ReLU, "relu")
hardswish = hswish = _unary(M.HSwish, "hardswish")
erf = _unary(M.Erf, "erf")
logical_not = _unary(M.LogicalNot, "logical_not")


def gelu(input, approximate="none"):
    """GELU; ``approximate='none'`` (the default) is the exact erf form, ``'tanh'`` the
    tanh approximation (what the ``ops.GeLU`` primitive computes)."""
    return M.GeLU(input, approximate=approximate)


def softplus(input, beta=1, threshold=20):
    """``log(1 + exp(beta * x)) / beta``, and ``x`` itself where ``beta * x > threshold``."""
    if beta == 1 and threshold == 20:
        return M.Softplus(input)
    scaled = M.Mul(input, beta) if beta != 1 else input
    soft = M.Softplus(scaled)
    if beta != 1:
        soft = M.Div(soft, beta)
    return A.Select(M.Greater(scaled, threshold), input, soft)


# ------------------------------------------------------------------ dtype and creation

def cast(input, dtype) -> Tensor:
    if _is_number(input):
        input = Tensor(input)
    if not isinstance(dtype, mstype.Type):
        try:
            if isinstance(dtype, str):
                raise TypeError(dtype)
            dtype = mstype.to_type(dtype)
        except TypeError:
            raise TypeError(f"For 'Cast', the input 'dtype' should be mindspore dtype, but "
                            f"got {dtype!r}.") from None
    return A.Cast(input, mstype.check_storable(dtype))


def _size(shape) -> tuple:
    if isinstance(shape, Tensor):
        shape = shape.asnumpy().tolist()
    if isinstance(shape, (int, np.integer)) or (type(shape) is SymbolicScalar
                                                 and shape.kind is int):
        return (shape,)  # (a run-time int: one dimension of the size the graph runs with)
    return tuple(shape)


def _created_size(size):
    """The shape input of a creation op: an integer Tensor computed by the graph stays a
    Tensor (its values become the run-time sizes), anything else a tuple of ints."""
    if isinstance(size, Tensor) and size.is_symbolic:
        return size
    return _size(size)


def fill(type, shape, value) -> Tensor:
    return A.Fill(mstype.to_type(type), _size(shape), value)


def zeros(size, dtype=None) -> Tensor:
    return A.Zeros(_created_size(size), mstype.to_type(dtype or mstype.float32))


def ones(shape, dtype=None) -> Tensor:
    return A.Ones(_created_size(shape), mstype.to_type(dtype or mstype.float32))


def _new_filled(op: str, input, size, dtype, make) -> Tensor:
    """``make(size, dtype)`` for MindSpore's ``NewOnes``/``NewZeros``: a Tensor of ``size``
    in ``input``'s dtype unless ``dtype`` is given, after MindSpore's argument checks."""
    def is_int(v) -> bool:
        return isinstance(v, (int, np.integer)) and not isinstance(v, bool)
    sized = is_int(size) or isinstance(size, (tuple, list)) and all(map(is_int, size))
    if not isinstance(input, Tensor) or not sized:
        args = f"input={type(input).__name__}, size={type(size).__name__}, dtype=mindspore.dtype"
        raise TypeError(f'Failed calling {op} with "{op}()({args})".\nThe valid calling '
                        f'should be: \n"{op}()(input=<Tensor>, size=<list of int, int, tuple '
                        f'of int>, dtype=<mindspore.dtype>)".')
    if dtype is not None and not isinstance(dtype, mstype.Type):
        raise TypeError(f"For '{op}', the input 'dtype' should be mindspore dtype, but got "
                        f"{dtype!r}.")
    return make(_size(size), input.dtype if dtype is None else dtype)


def new_ones(input, size, dtype=None) -> Tensor:
    """A Tensor of ``size`` filled with ones, of ``input``'s dtype unless ``dtype`` is given
    (MindSpore's ``array_func.new_ones``)."""
    return _new_filled("NewOnes", input, size, dtype, A.Ones)


def new_zeros(input, size, dtype=None) -> Tensor:
    """A Tensor of ``size`` filled with zeros, of ``input``'s dtype unless ``dtype`` is given
    (MindSpore's ``array_func.new_zeros``)."""
    return _new_filled("NewZeros", input, size, dtype, A.Zeros)


def zeros_like(input, *, dtype=None) -> Tensor:
    out = A.ZerosLike(input)
    return out if dtype is None else cast(out, dtype)


def ones_like(input, *, dtype=None) -> Tensor:
    out = A.OnesLike(input)
    return out if dtype is None else cast(out, dtype)


# ------------------------------------------------------------------ shapes

def reshape(input, shape) -> Tensor:
    return A.Reshape(input, _size(shape))


def transpose(input, dims) -> Tensor:
    return A.Transpose(input, tuple(dims))


def expand_dims(input_x, axis: int) -> Tensor:
    return A.ExpandDims(input_x, axis)


def unsqueeze(input, dim: int) -> Tensor:
    """``input`` with a dimension of size 1 inserted at ``dim``."""
    return A.ExpandDims(input, dim)


def squeeze(input, axis=None) -> Tensor:
    if axis is None:
        axis = ()
    elif isinstance(axis, list):
        axis = tuple(axis)
    return A.Squeeze(input, axis=axis)


def broadcast_to(input, shape) -> Tensor:
    shape = _size(shape)
    run_time = [type(d) is SymbolicScalar for d in shape]
    if _builtins.any(run_time) and _builtins.all(r or d != -1 for r, d in zip(run_time, shape)):
        # a size known at run time (``x.shape`` of a dynamic shape): BroadcastTo takes a
        # constant, so select ``input`` everywhere in a bool tensor of that shape
        return A.Select(A.Ones(shape, mstype.bool_), input, input)
    return A.BroadcastTo(input, shape=shape)


def tile(input, dims) -> Tensor:
    if isinstance(dims, list):
        dims = tuple(dims)
    if not isinstance(dims, tuple):
        raise TypeError(f"For 'Tile', the 'dims' must be a tuple of ints, but got "
                        f"{type(dims).__name__}.")
    return A.Tile(input, dims)


def select(cond, input, other) -> Tensor:
    """``cond ? input : other`` elementwise, with broadcasting; a Python number takes the
    other branch's dtype (or promotes it, ``2.5`` with an int Tensor giving float32)."""
    return A.Select(cond, input, other)


def concat(tensors, axis: int = 0) -> Tensor:
    if isinstance(tensors, Tensor):
        raise TypeError(f"For 'Concat', the 'tensors' must be a tuple or list of Tensors, but "
                        f"got {type(tensors).__name__}.")
    return A.Concat(tuple(tensors), axis=axis)


cat = concat


def stack(tensors, axis: int = 0) -> Tensor:
    return A.Stack(tuple(tensors), axis=axis)


def split(tensor, split_size_or_sections, axis: int = 0) -> tuple:
    """Split into chunks of ``split_size_or_sections`` (an int: the last may be smaller) or of
    the given sizes (a tuple/list that sums to the dimension)."""
    ax = norm_axis("split", axis, tensor.ndim)
    dim = tensor.shape[ax]
    s = split_size_or_sections
    if isinstance(s, (int, np.integer)) and not isinstance(s, bool):
        if s <= 0:
            raise ValueError(f"For 'split', the 'split_size_or_sections' must be positive, "
                             f"but got {s}.")
        if dim % s == 0 and dim:
            return A.Split(tensor, axis=ax, output_num=dim // s)
        sizes = (s,) * (dim // s) + ((dim % s,) if dim % s else ())
    elif isinstance(s, (tuple, list)) and all(
            isinstance(v, (int, np.integer)) and not isinstance(v, bool) for v in s):
        if any(v < 0 for v in s):
            raise TypeError(f"For 'split', each element of 'split_size_or_sections' must be "
                            f"non-negative, but got {tuple(s)}.")
        if _builtins.sum(s) != dim:
            raise ValueError(f"For 'split', the sum of 'split_size_or_sections' {tuple(s)} "
                             f"must equal the size {dim} of axis {ax} (input shape "
                             f"{list(tensor.shape)}).")
        sizes = tuple(int(v) for v in s)
    else:
        raise TypeError(f"For 'split', the 'split_size_or_sections' must be an int or a "
                        f"tuple/list of ints, but got {type(s).__name__}.")
    if not sizes:
        return (tensor,)
    return A.SplitV(tensor, size_splits=sizes, split_dim=ax, num_split=len(sizes))


def split_ext(tensor, split_size, dim: int = 0) -> tuple:
    """MindSpore's ``array_func.split_ext``: :func:`split` with the axis called ``dim``."""
    return split(tensor, split_size, dim)


def gather(input_params, input_indices, axis, batch_dims=0) -> Tensor:
    return A.Gather(input_params, input_indices, axis, batch_dims=batch_dims)


def addn(x) -> Tensor:
    if type(x) is SymbolicSequence:  # a dynamic length sequence
        return SEQ.SequenceAddN(x)
    return A.AddN(tuple(x))


def _index_item(item):
    """A list (or a tuple inside the index tuple, which MindSpore reads as one) as a
    Tensor; a slice with run-time bounds (ints, or one-element Tensors computed by the
    graph) as a ``MakeSlice`` of them."""
    if isinstance(item, (list, tuple)):
        return Tensor(list(item))
    if isinstance(item, _builtins.slice):
        bounds = [SS.TensorToScalar(b) if isinstance(b, Tensor) and b.is_symbolic else b
                  for b in (item.start, item.stop, item.step)]
        if any(type(b) is SymbolicScalar for b in bounds):
            return SS.MakeSlice(*(_known_bound(b) for b in bounds))
    return item


def _known_bound(b):
    """A constant one-element int Tensor slice bound as its int (MindSpore's slices take
    them); anything else as it is."""
    if isinstance(b, Tensor) and not b.is_symbolic and b.dtype.is_int and b.size == 1:
        return int(b.asnumpy().reshape(-1)[0])
    return b


def _index(index):
    """An index with its lists as Tensors and its run-time slices built in the graph."""
    if isinstance(index, tuple):
        return tuple(_index_item(i) for i in index)
    return _index_item(index)


def _list_as_tuple(index):
    """A list index holding a Tensor, a slice, None, ``...`` or a sequence reads as the tuple
    of its items, as MindSpore's (``x[[mask, 0]]`` is ``x[mask, 0]``); a list of numbers
    stays one integer or bool index."""
    if isinstance(index, list) and any(
            isinstance(i, (Tensor, _builtins.slice, list, tuple)) or i is None or i is Ellipsis
            for i in index):
        return tuple(index)
    return index


def _check_read_index(index) -> None:
    """MindSpore's checks of a read (not a write): a list index may not be empty (nor all
    False), a bare bool must be True."""
    for item in index if isinstance(index, tuple) else (index,):
        if isinstance(item, (list, tuple)) and (not item or all(v is False for v in item)):
            raise IndexError("When tensor is indexed by list, the list can't be empty.")
        if item is False:
            raise IndexError("When tensor is indexed by a bool object, the value only "
                             "support 'True'.")


def getitem(x, index) -> Tensor:
    """``x[index]``: ints, slices, None, ``...``, and integer or bool Tensors (or lists)."""
    index = _list_as_tuple(index)
    _check_read_index(index)
    return A.Getitem(x, _index(index))


def _check_mask_fits(x, mask) -> None:
    """A bool Tensor index of a write must match ``x``'s leading dimensions (MindSpore
    broadcasts it over them: each of its dimensions is the Tensor's, or 1)."""
    ms, xs = tuple(mask.shape), tuple(x.shape)
    if len(ms) > len(xs) or any(m not in (d, 1) for m, d in zip(ms, xs) if m >= 0 and d >= 0):
        raise ValueError(f"For 'Setitem', the bool index of shape {list(ms)} does not match "
                         f"the leading dimensions of the Tensor of shape {list(xs)}.")


def setitem(x, index, value) -> Tensor:
    """``x`` with ``x[index] = value`` applied, as a new Tensor (``x`` is unchanged)."""
    index = _list_as_tuple(index)
    if isinstance(value, (list, tuple)):
        value = Tensor(value, x.dtype)
    if isinstance(index, Tensor) and index.dtype == mstype.bool_:
        _check_mask_fits(x, index)
    if index is Ellipsis and isinstance(value, Tensor) and value.ndim > x.ndim:
        # ``x[...] = value`` of a higher rank: MindSpore reshapes the value to x's shape
        if size(value) != size(x):
            raise ValueError(f"For 'Setitem', the value of shape {list(value.shape)} cannot "
                             f"be reshaped to the Tensor's shape {list(x.shape)} (index "
                             f"Ellipsis).")
        value = reshape(value, x.shape)
    return A.Setitem(x, _index(index), value)


# ------------------------------------------------------------------ reductions

def _axis(axis):
    if axis is None:
        return ()
    return tuple(axis) if isinstance(axis, list) else axis


def _reduction(opdef):
    def fn(x, axis=(), keep_dims=False):
        return opdef(x, _axis(axis), keep_dims=bool(keep_dims))
    fn.__name__ = opdef.name.lower()
    fn.__doc__ = f"``{opdef.name}`` over ``axis`` (``()``: every axis)."
    return fn


reduce_sum = _reduction(A.ReduceSum)
reduce_mean = _reduction(A.ReduceMean)
reduce_max = _reduction(A.ReduceMax)
reduce_min = _reduction(A.ReduceMin)
reduce_prod = _reduction(A.ReduceProd)


def _widen_int(input, dtype):
    """MindSpore's ``ops.sum``/``ops.prod``: integers and bool accumulate in int64."""
    if dtype is not None:
        return cast(input, dtype)
    if not input.dtype.is_float:
        return cast(input, mstype.int64)
    return input


def sum(input, dim=None, keepdim=False, *, dtype=None) -> Tensor:  # noqa: A001
    return A.ReduceSum(_widen_int(input, dtype), _axis(dim), keep_dims=bool(keepdim))


def prod(input, dim=None, keepdim=False, dtype=None) -> Tensor:
    return A.ReduceProd(_widen_int(input, dtype), _axis(dim), keep_dims=bool(keepdim))


def _nonzero_reduction(reduce, input, axis, keep_dims) -> Tensor:
    nonzero = cast(not_equal(input, 0), mstype.int32)
    return cast(reduce(nonzero, _axis(axis), keep_dims=bool(keep_dims)), mstype.bool_)


def reduce_all(input, axis=None, keep_dims=False) -> Tensor:
    """``ops.all``: whether every element along ``axis`` (default: all) is nonzero."""
    return _nonzero_reduction(A.ReduceMin, input, axis, keep_dims)


def reduce_any(input, axis=None, keep_dims=False) -> Tensor:
    """``ops.any``: whether some element along ``axis`` (default: all) is nonzero."""
    return _nonzero_reduction(A.ReduceMax, input, axis, keep_dims)


def mean(x, axis=None, keep_dims=False) -> Tensor:
    return A.ReduceMean(x, _axis(axis), keep_dims=bool(keep_dims))


def amax(input, axis=None, keepdims=False) -> Tensor:
    return A.ReduceMax(input, _axis(axis), keep_dims=bool(keepdims))


def amin(input, axis=None, keepdims=False) -> Tensor:
    return A.ReduceMin(input, _axis(axis), keep_dims=bool(keepdims))


def _max_min(opdef, bound, name, input, axis, keepdims, initial, where):
    """MindSpore 2.10's ``ops.max``/``ops.min``: a 0-d input or ``axis=None`` gives the
    extremum with index 0; else ``initial`` bounds every element (``bound``: Maximum or
    Minimum), ``where`` keeps an element or puts ``initial`` in its place, and the result is
    ``(values, indices)`` along ``axis``."""
    zero = Tensor(0, mstype.int64)
    if not input.shape:
        return input, zero
    if axis is None:
        reduce = A.ReduceMax if name == "max" else A.ReduceMin
        return reduce(input, (), keep_dims=False), zero
    if initial is not None and not isinstance(initial, _numbers.Number):
        raise TypeError(f"For '{name}', 'initial' must be a scalar, but got {type(initial)}")
    if not isinstance(axis, int):
        raise TypeError(f"For '{name}', 'axis' must be int, but got {type(axis)}")
    shape = tuple(input.shape)
    if initial is not None:
        initial = A.BroadcastTo(Tensor(initial, input.dtype), shape=shape)
        input = bound(input, initial)
    if where is not None and not isinstance(where, Tensor):
        where = Tensor(where, mstype.bool_)
    if where is not None and (where.shape or not where):
        if initial is None:
            raise ValueError("initial value must be provided for where masks")
        input = A.Select(A.BroadcastTo(where, shape=shape), input, initial)
    index, value = opdef(input, axis=axis, keep_dims=bool(keepdims))
    return value, index


def max(input, axis=None, keepdims=False, *, initial=None, where=None):  # noqa: A001
    """``(values, indices)`` of the maximum along ``axis`` (of all elements, index 0, if
    None)."""
    return _max_min(A.ArgMaxWithValue, M.Maximum, "max", input, axis, keepdims, initial, where)


def min(input, axis=None, keepdims=False, *, initial=None, where=None):  # noqa: A001
    """``(values, indices)`` of the minimum along ``axis`` (of all elements, index 0, if
    None)."""
    return _max_min(A.ArgMinWithValue, M.Minimum, "min", input, axis, keepdims, initial, where)


def _extremum_ext(opdef, reduce, name, input, dim, keepdim):
    """MindSpore 2.10's ``max_ext``/``min_ext`` (``mint.max`` without ``other``): the
    extremum of all elements, or ``(values, indices)`` along ``dim``."""
    if dim is None:
        if keepdim is not False:
            raise ValueError(f"For '{name}', the `keepdim` must be False when the `dim` is "
                             f"None, but got {keepdim}")
        return reduce(input, (), keep_dims=False)
    index, value = opdef(input, axis=dim, keep_dims=keepdim)
    return value, index


def max_ext(input, dim=None, keepdim=False):  # noqa: A002
    """The maximum of all elements, or ``(values, indices)`` of the maximum along ``dim``."""
    return _extremum_ext(A.ArgMaxWithValue, A.ReduceMax, "max", input, dim, keepdim)


def min_ext(input, dim=None, keepdim=False):  # noqa: A002
    """The minimum of all elements, or ``(values, indices)`` of the minimum along ``dim``."""
    return _extremum_ext(A.ArgMinWithValue, A.ReduceMin, "min", input, dim, keepdim)


def _arg(opdef, input, axis, keep, out_type):
    if axis is None:  # a 0-d index: MindSpore 2.10 ignores ``keepdim`` here
        return opdef(A.Reshape(input, (-1,)), axis=0, output_type=out_type)
    out = opdef(input, axis=axis, output_type=out_type)
    return A.ExpandDims(out, axis) if keep else out


def argmax(input, dim=None, keepdim=False) -> Tensor:
    """Index of the maximum along ``dim`` (of the flattened input if None), as int64."""
    return _arg(A.Argmax, input, dim, keepdim, mstype.int64)


def argmin(input, axis=None, keepdims=False) -> Tensor:
    """Index of the minimum along ``axis`` (of the flattened input if None), as int32 (what
    MindSpore 2.10's ``ops.argmin`` returns, unlike ``ops.argmax``)."""
    return _arg(A.Argmin, input, axis, keepdims, mstype.int32)


# ------------------------------------------------------------------ matrix products

def matmul(input, other) -> Tensor:
    """NumPy-style ``matmul``: 1-D operands are promoted to matrices and the added
    dimension removed again; batch dimensions broadcast. Mismatched inner dimensions are a
    RuntimeError, as MindSpore's ``ops.matmul`` raises (``P.MatMul`` raises ValueError)."""
    if input.ndim and other.ndim:
        k_in = input.shape[-1]
        k_other = other.shape[-2] if other.ndim > 1 else other.shape[0]
        known = all(isinstance(k, int) and k >= 0 for k in (k_in, k_other))  # -1: dynamic
        if known and k_in != k_other:
            raise RuntimeError(f"For 'matmul', shape1[-1] must be equal to shape2[-2], but got "
                               f"{k_in} and {k_other} (shapes {list(input.shape)} and "
                               f"{list(other.shape)}).")
    if input.ndim == 2 and other.ndim == 2:
        return M.MatMul(input, other)
    if input.ndim == 0 or other.ndim == 0:
        raise ValueError(f"For 'MatMul', the inputs must not be 0-D, but got shapes "
                         f"{list(input.shape)} and {list(other.shape)}.")
    # (a 1-D operand gains, then loses, an axis of size 1: no reshape, so dimensions known
    # only at run time may be any number)
    x = expand_dims(input, 0) if input.ndim == 1 else input
    y = expand_dims(other, -1) if other.ndim == 1 else other
    out = M.BatchMatMul(x, y)
    if other.ndim == 1:
        out = squeeze(out, -1)
    if input.ndim == 1:
        out = squeeze(out, -2 if other.ndim > 1 else -1)
    return out


def bmm(input, mat2) -> Tensor:
    return M.BatchMatMul(input, mat2)


# ------------------------------------------------------------------ nn

def softmax(input, axis=-1, *, dtype=None) -> Tensor:
    if dtype is not None:
        input = cast(input, dtype)
    return N.Softmax(input, axis=axis)


def log_softmax(logits, axis=-1) -> Tensor:
    return N.LogSoftmax(logits, axis=axis)


def layer_norm(input, normalized_shape, weight=None, bias=None, eps=1e-5):
    """Normalise over the trailing ``normalized_shape`` dimensions; returns ``y`` only."""
    ns = _size(normalized_shape)
    if tuple(input.shape[input.ndim - len(ns):]) != ns or len(ns) > input.ndim:
        raise ValueError(f"For 'layer_norm', the 'normalized_shape' {list(ns)} must match the "
                         f"trailing dimensions of the input shape {list(input.shape)}.")
    begin = input.ndim - len(ns)
    if weight is None:
        weight = A.Ones(ns, input.dtype)
    if bias is None:
        bias = A.Zeros(ns, input.dtype)
    y, _, _ = N.LayerNorm(input, weight, bias, begin_norm_axis=begin, begin_params_axis=begin,
                          epsilon=eps)
    return y


def _conv_per_axis(name: str, arg: str, value, rank: int):
    """An int, or one value per spatial axis (MindSpore rejects other lengths)."""
    if isinstance(value, (tuple, list)):
        if len(value) != rank:
            raise ValueError(f"For '{name}', the {arg} must be a int or a tuple/list with "
                             f"length {rank}, but got {value}.")
        return tuple(value)
    return value


def _conv(rank: int, input, weight, bias, stride, pad_mode, padding, dilation, groups):
    """``conv{rank}d`` on the Conv2D/Conv3D primitive; 1-D runs as 2-D over a unit height.
    ``padding`` is an int or one value per spatial axis, applied to both sides."""
    name = f"conv{rank}d"
    if rank == 1 and (input.ndim != 3 or weight.ndim != 3):
        bad, nd = ("input", input.ndim) if input.ndim != 3 else ("weight", weight.ndim)
        raise ValueError(f"For 'conv1d', the {bad} must be a 3D Tensor, but got {bad} of "
                         f"{nd}D.")
    stride = _conv_per_axis(name, "stride", stride, rank)
    dilation = _conv_per_axis(name, "dilation", dilation, rank)
    if isinstance(padding, (tuple, list)):
        if len(padding) != rank:
            raise ValueError(f"For '{name}', 'padding' must be a tuple or list of {rank} "
                             f"integers, but got {padding}.")
        padding = tuple(p for p in padding for _ in (0, 1))
    elif isinstance(padding, bool) or not isinstance(padding, (int, np.integer)):
        raise TypeError(f"For '{name}', 'padding' must be a tuple, list or int, but got "
                        f"{type(padding)}.")
    out_channel, in_channel = weight.shape[0], input.shape[1]
    if isinstance(groups, int) and groups > 0 and (in_channel % groups or
                                                   out_channel % groups):
        raise ValueError(f"The argument 'groups' should be divisible by 'in_channel' and "
                         f"'out_channel', but got group:{groups}, in_channel:{in_channel}, "
                         f"out_channel:{out_channel}.")
    if rank == 1:  # (N, C, L) as (N, C, 1, L)
        input, weight = A.ExpandDims(input, 2), A.ExpandDims(weight, 2)
        stride, dilation = (1, *_size(stride)), (1, *_size(dilation))
        padding = (0, 0, *(padding if isinstance(padding, tuple) else (padding,) * 2))
    prim = CV.Conv3D if rank == 3 else CV.Conv2D
    out = prim(input, weight, out_channel=out_channel, kernel_size=tuple(weight.shape[2:]),
               pad_mode=pad_mode, pad=padding, stride=stride, dilation=dilation, group=groups,
               data_format="NCDHW" if rank == 3 else "NCHW")
    if rank == 1:
        out = A.Squeeze(out, axis=(2,))
    if bias is None:
        return out
    if not isinstance(bias, Tensor):
        raise TypeError(f"For '{name}', the 'bias' must be a Tensor, but got {type(bias)}.")
    if bias.shape[0] != out_channel:
        raise ValueError(f"For '{name}', given weight of size {list(weight.shape)}, expected "
                         f"bias to be 1-dimensional with {out_channel} elements, but got "
                         f"bias of size {bias.shape[0]} instead.")
    return N.BiasAdd(out, bias, data_format="NCDHW" if rank == 3 else "NCHW")


def conv1d(input, weight, bias=None, stride=1, pad_mode="valid", padding=0, dilation=1,
           groups=1) -> Tensor:
    """1-D convolution of ``(N, C, L)`` by ``(O, C/groups, K)``, plus ``bias`` if given."""
    return _conv(1, input, weight, bias, stride, pad_mode, padding, dilation, groups)


def conv2d(input, weight, bias=None, stride=1, pad_mode="valid", padding=0, dilation=1,
           groups=1) -> Tensor:
    """2-D convolution of ``(N, C, H, W)`` by ``(O, C/groups, KH, KW)``, plus ``bias``."""
    return _conv(2, input, weight, bias, stride, pad_mode, padding, dilation, groups)


def conv3d(input, weight, bias=None, stride=1, pad_mode="valid", padding=0, dilation=1,
           groups=1) -> Tensor:
    """3-D convolution of ``(N, C, D, H, W)`` by ``(O, C/groups, KD, KH, KW)``, plus ``bias``."""
    return _conv(3, input, weight, bias, stride, pad_mode, padding, dilation, groups)


def _on_off(v, other):
    if isinstance(v, Tensor):
        return v
    if isinstance(other, Tensor):
        return Tensor(v, other.dtype)
    return Tensor(v, mstype.float32 if isinstance(other, float) else None)


def one_hot(indices, depth, on_value=1, off_value=0, axis=-1) -> Tensor:
    """Python numbers for ``on_value``/``off_value`` become Tensors (int64 for ints, float32
    for floats, or the other value's dtype when it is a Tensor)."""
    on = _on_off(on_value, off_value)
    off = _on_off(off_value, on)
    return N.OneHot(indices, depth, on, off, axis=axis)


def _tracing() -> bool:
    return state.current() is not None


def dropout(input, p=0.5, training=True, seed=None) -> Tensor:
    """Zero each element with probability ``p`` and scale the rest by ``1/(1-p)``: a new
    ``Dropout`` primitive seeded as MindSpore's (``graph_seed(seed, "dropout")``, so the
    calls after one ``graphkiln.set_seed`` draw MindSpore's masks; in a graph the seeds are
    fixed when it is built and each run draws the node's next mask)."""
    if isinstance(p, bool) or not isinstance(p, (int, float)) or not 0.0 <= p < 1.0:
        raise RuntimeError(f"For 'dropout', the 'p' must be in [0.0, 1.0), but got {p!r}.")
    if not training:
        return input
    seed0, seed1 = graph_seed(seed, "dropout")
    out, _ = N.Dropout(input, keep_prob=1.0 - p, Seed0=seed0, Seed1=seed1)
    return out


# ------------------------------------------------------------------ effects

def depend(value, expr):
    """Return ``value``, but only after ``expr`` has been computed."""
    return S.Depend(value, expr)


def assign(variable, value):
    """Write ``value`` into the weight ``variable`` (a memory side effect)."""
    if _is_number(value) and isinstance(variable, Tensor):
        value = Tensor(value, variable.dtype)
    return E.Assign(variable, value)


def assign_add(variable, value):
    if _is_number(value) and isinstance(variable, Tensor):
        value = Tensor(value, variable.dtype)
    return E.AssignAdd(variable, value)


def assign_sub(variable, value):
    if _is_number(value) and isinstance(variable, Tensor):
        value = Tensor(value, variable.dtype)
    return E.AssignSub(variable, value)


def tensor_move(x) -> Tensor:
    return E.TensorMove(x)


def contiguous(input) -> Tensor:
    """A Tensor with ``input``'s data in its own row-major buffer (a copy, so writing
    into it never changes ``input`` or what ``input`` is a view of)."""
    return E.TensorMove(input)


def arg_max_with_value_(input):
    """MindSpore's ``ArgMaxWithValue()`` instance in ``array_func``: (index, value) of the
    maximum along axis 0."""
    return A.ArgMaxWithValue(input)


def arg_min_with_value_(input):
    """MindSpore's ``ArgMinWithValue()`` instance in ``array_func``: (index, value) of the
    minimum along axis 0."""
    return A.ArgMinWithValue(input)


def print_(*values):
    """Print values when the graph runs (an IO side effect)."""
    return E.Print(*values)


def tensordump(file_name: str, tensor, mode: str = "out") -> None:
    """Save ``tensor`` as ``<file_name>_<dtype>_<n>.npy`` when it runs (``ops.TensorDump``)."""
    E.TensorDump.check_attrs({"input_output": mode})
    E.TensorDump(file_name, tensor, input_output=mode)


make_tuple = S.MakeTuple
tuple_getitem = S.TupleGetItem


# ------------------------------------------------------------------ MindSpore's F helpers

def partial(func, *args, **kwargs):
    """``F.partial``/``ops.partial``: ``func`` with its first arguments bound."""
    if not callable(func):
        raise TypeError(f"For 'partial', the first input must be a function, but got "
                        f"{type(func).__name__}.")
    return _functools.partial(func, *args, **kwargs)


def shape(input_x) -> tuple:
    """The shape of a Tensor, as a tuple of ints (run-time ints for unknown dimensions)."""
    if not isinstance(input_x, Tensor):
        raise TypeError(f"For 'shape', the input must be a Tensor, but got "
                        f"{type(input_x).__name__}.")
    return tuple(shape_of(input_x))


def nonzero(input, *, as_tuple: bool = False):
    """The indices of the non-zero elements of ``input``: an int64 Tensor with one row per
    element (its number known when the graph runs), or with ``as_tuple`` one 1-D Tensor
    per dimension."""
    if not isinstance(input, Tensor):
        raise TypeError(f"For 'nonzero', the input must be a Tensor, but got "
                        f"{type(input).__name__}.")
    rows = DD.NonZero(input)
    if not as_tuple:
        return rows
    return tuple(A.Getitem(rows, (_builtins.slice(None), i)) for i in _builtins.range(input.ndim))


def masked_select(input, mask) -> Tensor:
    """The elements of ``input`` where the bool ``mask`` (broadcast with it) is True, as a
    1-D Tensor whose length is known when the graph runs."""
    return DD.MaskedSelect(input, mask)


def unique(input) -> tuple:
    """``(output, idx)``: the distinct elements of ``input`` in the order they first appear,
    and for every element the position of its value in ``output``."""
    return DD.Unique(input)


def dyn_shape(input_x) -> Tensor:
    """The shape of a Tensor as an int64 Tensor, computed when the graph runs."""
    if not isinstance(input_x, Tensor):
        raise TypeError(f"For 'dyn_shape', the input must be a Tensor, but got "
                        f"{type(input_x).__name__}.")
    return IN.TensorShape(input_x)


def dtype(x) -> mstype.Type:
    """The MindSpore dtype of a Tensor (of a sparse tensor's values)."""
    if not isinstance(x, (Tensor, COOTensor, CSRTensor)):
        raise TypeError(f"For 'dtype', the input must be a Tensor, but got "
                        f"{type(x).__name__}.")
    return x.dtype


def rank(input_x) -> int:
    """The number of dimensions of a Tensor."""
    return len(shape(input_x))


def size(input_x) -> int:
    """The number of elements of a Tensor."""
    return int(np.prod(shape(input_x), dtype=np.int64))


def tuple_to_array(input_x) -> Tensor:
    """A tuple of Python numbers as a Tensor (ints give Int32, floats Float32)."""
    if not isinstance(input_x, (tuple, list)) or not all(_is_number(v) for v in input_x):
        raise TypeError(f"For 'tuple_to_array', the input must be a tuple of numbers, but "
                        f"got {input_x!r}.")
    is_float = any(isinstance(v, (float, np.floating)) for v in input_x)
    return Tensor(tuple(input_x), mstype.float32 if is_float else mstype.int32)


def scalar_to_tensor(input_x, dtype=mstype.float32) -> Tensor:
    """A Python number as a 0-d Tensor of ``dtype``."""
    if type(input_x) is SymbolicScalar:  # a run-time scalar
        return SS.ScalarToTensor(input_x, dtype=dtype)
    if not _is_number(input_x):
        raise TypeError(f"For 'scalar_to_tensor', the input must be a number, but got "
                        f"{type(input_x).__name__}.")
    return Tensor(input_x, dtype)


def _scalar_op(name: str, op, *args):
    """``op`` on Python numbers or run-time scalars (``F.scalar_log``...), else TypeError."""
    if not all(type(a) is SymbolicScalar or _is_number(a) for a in args):
        raise TypeError(f"For '{name}', the inputs must be numbers, but got "
                        f"{', '.join(type(a).__name__ for a in args)}.")
    return op(*args)


def scalar_uadd(x):
    """``+x`` of a number."""
    return _scalar_op("ScalarUadd", SS.ScalarUadd, x)


def scalar_usub(x):
    """``-x`` of a number."""
    return _scalar_op("ScalarUsub", SS.ScalarUsub, x)


def scalar_log(x) -> float:
    """The natural logarithm of a number."""
    return _scalar_op("ScalarLog", SS.ScalarLog, x)


def scalar_pow(x, y):
    """``x ** y`` of numbers."""
    return _scalar_op("ScalarPow", SS.ScalarPow, x, y)


def tuple_len(x) -> int:
    return len(x)


def make_range(*args) -> tuple:
    """``F.make_range(start, stop, step)`` as a tuple of ints."""
    return tuple(_builtins.range(*args))


print = print_  # noqa: A001 - MindSpore's F.print


# ------------------------------------------------------------------ more elementwise ops

reciprocal = _unary(M.Reciprocal, "reciprocal")
sign = _unary(M.Sign, "sign")
floor = _unary(M.Floor, "floor")
ceil = _unary(M.Ceil, "ceil")
log1p = _unary(M.Log1p, "log1p")
expm1 = _unary(M.Expm1, "expm1")
tan = _unary(M.Tan, "tan")
atan = arctan = _unary(M.Atan, "atan")
sinh = _unary(M.Sinh, "sinh")
cosh = _unary(M.Cosh, "cosh")
asin = arcsin = _unary(M.Asin, "asin")
acos = arccos = _unary(M.Acos, "acos")
atan2 = arctan2 = _binary(M.Atan2, "atan2")
square_difference = squared_difference = _binary(M.SquaredDifference, "squared_difference")


def round(input, *, decimals=0) -> Tensor:  # noqa: A001 - MindSpore's name
    """Round half to even (``decimals`` places)."""
    if decimals == 0:
        return M.Round(input)
    scale = 10.0 ** decimals
    return div(M.Round(mul(input, scale)), scale)


def slice(input_x, begin, size) -> Tensor:  # noqa: A001 - MindSpore's name
    """``size[d]`` elements from ``begin[d]`` along each axis (``-1``: to the end)."""
    return A.Slice(input_x, tuple(begin), tuple(size))


def flatten(input, order="C", *, start_dim=1, end_dim=-1) -> Tensor:
    """Merge the axes ``start_dim..end_dim`` into one (by default all but the first)."""
    if order not in ("C", "F"):
        raise ValueError(f"For 'flatten', 'order' must be 'C' or 'F', but got {order!r}.")
    nd = len(input.shape)
    if nd == 0:
        return reshape(input, (1,))
    lo, hi = start_dim % nd, end_dim % nd
    if lo > hi:
        raise ValueError(f"For 'flatten', 'start_dim' {start_dim} must not be after 'end_dim' "
                         f"{end_dim}.")
    x = transpose(input, tuple(_builtins.range(nd - 1, -1, -1))) if order == "F" else input
    s = tuple(x.shape)
    return reshape(x, s[:lo] + (-1,) + s[hi + 1:])


def topk(input, k, dim=None, largest=True, sorted=True) -> tuple:
    """The ``k`` largest (or smallest) values along ``dim`` (default: the last axis) and
    their indices."""
    nd = len(input.shape)
    axis = nd - 1 if dim is None else dim % _builtins.max(nd, 1)
    x = input if largest else neg(input)
    moved = axis != nd - 1 and nd > 0
    if moved:
        perm = tuple(i for i in _builtins.range(nd) if i != axis) + (axis,)
        x = transpose(x, perm)
    values, indices = A.TopK(x, k, sorted=sorted)
    if not largest:
        values = neg(values)
    if moved:
        back = tuple(int(np.argsort(perm)[i]) for i in _builtins.range(nd))
        values, indices = transpose(values, back), transpose(indices, back)
    return values, indices


def gather_nd(input_x, indices) -> Tensor:
    return SC.GatherNd(input_x, indices)


def scatter_nd(indices, updates, shape) -> Tensor:
    return SC.ScatterNd(indices, updates, tuple(shape))


def _scatter_fn(name: str, fname: str):
    op = SC.IN_PLACE.get(name) or SC.FUNCTIONAL[name]

    def fn(input_x, indices, updates):
        return op(input_x, indices, updates)
    fn.__name__ = fn.__qualname__ = fname
    fn.__doc__ = f"``{name}``: see :mod:`graphkiln.ops.defs.scatter`."
    return fn


scatter_add = _scatter_fn("ScatterAdd", "scatter_add")
scatter_sub = _scatter_fn("ScatterSub", "scatter_sub")
scatter_mul = _scatter_fn("ScatterMul", "scatter_mul")
scatter_div = _scatter_fn("ScatterDiv", "scatter_div")
scatter_max = _scatter_fn("ScatterMax", "scatter_max")
scatter_min = _scatter_fn("ScatterMin", "scatter_min")
scatter_update = _scatter_fn("ScatterUpdate", "scatter_update")
scatter_nd_add = _scatter_fn("ScatterNdAdd", "scatter_nd_add")
scatter_nd_sub = _scatter_fn("ScatterNdSub", "scatter_nd_sub")
scatter_nd_mul = _scatter_fn("ScatterNdMul", "scatter_nd_mul")
scatter_nd_div = _scatter_fn("ScatterNdDiv", "scatter_nd_div")
scatter_nd_max = _scatter_fn("ScatterNdMax", "scatter_nd_max")
scatter_nd_min = _scatter_fn("ScatterNdMin", "scatter_nd_min")
scatter_nd_update = _scatter_fn("ScatterNdUpdate", "scatter_nd_update")


def inplace_index_add(var, indices, updates, axis: int):  # noqa: F811 - MindSpore's name
    """``var[..., indices[i], ...] += updates[..., i, ...]`` along ``axis``, written into
    ``var`` (a Parameter or Tensor), which is returned."""
    return SC.InplaceIndexAdd(var, indices, updates, axis=axis)


tensor_scatter_add = _scatter_fn("TensorScatterAdd", "tensor_scatter_add")
tensor_scatter_sub = _scatter_fn("TensorScatterSub", "tensor_scatter_sub")
tensor_scatter_mul = _scatter_fn("TensorScatterMul", "tensor_scatter_mul")
tensor_scatter_div = _scatter_fn("TensorScatterDiv", "tensor_scatter_div")
tensor_scatter_max = _scatter_fn("TensorScatterMax", "tensor_scatter_max")
tensor_scatter_min = _scatter_fn("TensorScatterMin", "tensor_scatter_min")
tensor_scatter_update = _scatter_fn("TensorScatterUpdate", "tensor_scatter_update")

lgamma = _unary(SP.Lgamma, "lgamma")
digamma = _unary(SP.Digamma, "digamma")


def polygamma(n: Tensor, input: Tensor) -> Tensor:
    """The ``n``-th derivative of the digamma function at ``input`` (``n`` a 0-dim int
    Tensor)."""
    return SP.Polygamma(n, input)


def igamma(input: Tensor, other: Tensor) -> Tensor:
    """The regularized lower incomplete gamma function P(input, other)."""
    return SP.Igamma(input, other)


def igammac(input: Tensor, other: Tensor) -> Tensor:
    """The regularized upper incomplete gamma function Q(input, other) = 1 - P."""
    return SP.Igammac(input, other)


def identity(x):
    """``x`` itself, of any type: MindSpore's ``ops.identity`` is its deprecated
    pass-through ``identity`` primitive (model zoos reduce gradient tuples with it);
    ``ops.Identity()`` and ``ops.deepcopy`` are the ones that copy a Tensor."""
    return x


def deepcopy(input_x: Tensor) -> Tensor:
    """A new Tensor of ``input_x``'s values (MindSpore's ``Identity``)."""
    return A.Identity(input_x)


def sort(input_x: Tensor, axis: int = -1, descending: bool = False) -> tuple:
    """``(values, indices)`` of ``input_x`` sorted along ``axis`` (stable; indices int32)."""
    return A.Sort(input_x, axis=axis, descending=descending)


def argsort(input: Tensor, axis: int = -1, descending: bool = False) -> Tensor:
    """The int32 indices that sort ``input`` along ``axis``."""
    return A.Sort(input, axis=axis, descending=descending)[1]


def unstack(input_x: Tensor, axis: int = 0) -> tuple:
    """The slices of ``input_x`` along ``axis``, as a tuple (the inverse of ``stack``)."""
    return A.Unstack(input_x, axis=axis)


def swapaxes(input: Tensor, axis0: int, axis1: int) -> Tensor:
    """``input`` with the axes ``axis0`` and ``axis1`` exchanged."""
    nd = len(input.shape)
    a0, a1 = norm_axis("swapaxes", axis0, nd), norm_axis("swapaxes", axis1, nd)
    perm = list(_builtins.range(nd))
    perm[a0], perm[a1] = perm[a1], perm[a0]
    return A.Transpose(input, tuple(perm))


def eye(n: int, m: int | None = None, dtype=None) -> Tensor:
    """An ``n`` x ``m`` matrix (``m`` defaults to ``n``) with ones on the diagonal."""
    return A.Eye(n, n if m is None else m, mstype.float32 if dtype is None else dtype)


def gather_elements(input: Tensor, dim: int, index: Tensor) -> Tensor:
    """``out[i][j] = input[index[i][j]][j]`` along ``dim`` (MindSpore's ``GatherD``)."""
    return A.GatherD(input, dim, index)


gather_d = gather_elements


from .crops import *  # noqa: E402,F401,F403  (ops.crop_and_resize)
from .cumulative import *  # noqa: E402,F401,F403  (ops.cumsum, ops.cummin, ops.cummax)
from .dot import *  # noqa: E402,F401,F403  (ops.dot)
from .elementwise_ops import *  # noqa: E402,F401,F403  (ops.erfc, ops.isnan, ops.elu...)
from .ranges import *  # noqa: E402,F401,F403  (ops.linspace)
from .row_updates import *  # noqa: E402,F401,F403  (ops.inplace_add...)
from .segments import *  # noqa: E402,F401,F403  (ops.unsorted_segment_sum...)
from .space_rearrange import *  # noqa: E402,F401,F403  (ops.batch_to_space_nd)


def trunc(input: Tensor) -> Tensor:
    """Elementwise rounding toward zero."""
    return AR.Trunc(input)


def truncate_div(x, y) -> Tensor:
    """Elementwise ``x / y`` rounded toward zero."""
    return AR.TruncateDiv(*_promote(x, y, "truncate_div"))


def truncate_mod(x, y) -> Tensor:
    """Elementwise remainder of ``truncate_div`` (the sign of ``x``)."""
    return AR.TruncateMod(*_promote(x, y, "truncate_mod"))


def xdivy(x, y) -> Tensor:
    """Elementwise ``x / y``, 0 where ``x`` is 0."""
    return AR.Xdivy(*_promote(x, y, "xdivy"))


def mish(x: Tensor) -> Tensor:
    """Elementwise ``x * tanh(softplus(x))``."""
    return ACT.Mish(x)


def selu(input_x: Tensor) -> Tensor:
    """Elementwise scaled exponential linear unit."""
    return ACT.SeLU(input_x)


def softshrink(x: Tensor, lambd: float = 0.5) -> Tensor:
    """``x - lambd`` above ``lambd``, ``x + lambd`` below ``-lambd``, else 0."""
    return ACT.SoftShrink(x, lambd=lambd)


soft_shrink = softshrink


def masked_fill(input_x: Tensor, mask: Tensor, value) -> Tensor:
    """``value`` (a number or a 0-D Tensor of ``input_x``'s dtype) where ``mask`` is True."""
    return A.MaskedFill(input_x, mask, value)


def prelu(input: Tensor, weight: Tensor) -> Tensor:
    """``input`` where positive, else ``weight * input`` (one slope per channel, axis 1)."""
    return ACT.PReLU(input, weight)


def renorm(input: Tensor, p: int, axis: int, maxnorm: float) -> Tensor:
    """The slices of ``input`` along ``axis`` scaled down to ``p``-norm at most ``maxnorm``."""
    return RN.Renorm(input, p=p, dim=axis, maxnorm=float(maxnorm))


def range(start, end, step, maxlen: int = 1000000) -> Tensor:  # noqa: A001
    """``[start, start + step, ...)`` below ``end``: int64 for integer bounds, else float32."""
    return A.Range(start, end, step, maxlen=maxlen)


def reverse_sequence(x: Tensor, seq_lengths: Tensor, seq_dim: int, batch_dim: int = 0) -> Tensor:
    """Reverse the first ``seq_lengths[i]`` elements along ``seq_dim`` of batch entry ``i``."""
    return A.ReverseSequence(x, seq_lengths, seq_dim=seq_dim, batch_dim=batch_dim)


def matrix_solve(matrix: Tensor, rhs: Tensor, adjoint: bool = False) -> Tensor:
    """``X`` solving ``matrix @ X = rhs`` (``matrix^H @ X = rhs`` with ``adjoint``) for a
    batch of square matrices."""
    return LA.MatrixSolve(matrix, rhs, adjoint=adjoint)


def meshgrid(*inputs: Tensor, indexing: str = "xy") -> tuple:
    """Coordinate grids of 1-D Tensors: output ``i`` repeats ``inputs[i]`` along every other
    axis (``xy``: the first two axes swapped, as NumPy's)."""
    return A.Meshgrid(inputs, indexing=indexing)


def strided_slice(input_x: Tensor, begin, end, strides, begin_mask: int = 0, end_mask: int = 0,
                  ellipsis_mask: int = 0, new_axis_mask: int = 0,
                  shrink_axis_mask: int = 0) -> Tensor:
    """``input_x[begin:end:strides]`` per axis (constant tuples or Tensors), with
    MindSpore's ``StridedSlice`` masks."""
    return A.StridedSlice(input_x, begin, end, strides, begin_mask=begin_mask,
                          end_mask=end_mask, ellipsis_mask=ellipsis_mask,
                          new_axis_mask=new_axis_mask, shrink_axis_mask=shrink_axis_mask)


def padding(x: Tensor, pad_dim_size: int = 8) -> Tensor:
    """``x`` (last axis of length 1) extended with zeros to ``pad_dim_size`` on that axis."""
    return A.Padding(x, pad_dim_size=pad_dim_size)


def is_tensor(obj) -> bool:
    """Whether ``obj`` is a Tensor (a Parameter is one too)."""
    return isinstance(obj, Tensor)


def is_sequence_shape_unknown(x) -> bool:
    """Whether ``x`` is a sequence whose length is known only when a graph runs (never in
    PyNative, nor under a bytecode capture, which answers as PyNative, as MindSpore's)."""
    return type(x) is SymbolicSequence and not _answers_as_pynative()


def is_sequence_value_unknown(x) -> bool:
    """Whether the sequence ``x`` holds values known only at run time. In a graph: its
    length, or an element that is a graph Tensor or weight, a run-time or mutable number,
    a negative dimension, or any item of a ``mutable`` sequence. In PyNative (and under a
    bytecode capture, as MindSpore's): whether some element is a Tensor."""
    if _answers_as_pynative():
        if type(x) is SymbolicSequence:
            return isinstance(x.element, AbstractTensor)
        return any(isinstance(v, Tensor) for v in x)
    return type(x) is SymbolicSequence or getattr(x, "__ms_mutable__", False) or any(
        type(v) is SymbolicScalar or getattr(v, "__ms_mutable__", False)
        or isinstance(v, Tensor) and (v.is_symbolic or v._is_param)
        or (isinstance(v, int) and v < 0) for v in x)


def _answers_as_pynative() -> bool:
    return state.current() is None or bytecode_capture()

# Names defined by modules above this one (autodiff and vmap front ends in ``ops.composite``,
# gradient clipping in ``ops.clip_ops``); MindSpore users import them from here, so they
# resolve on access (``graphkiln.ops`` imports those modules before any user code runs).
_UPPER_NAMES = {
    **{name: "composite" for name in ("grad", "value_and_grad", "get_grad", "vmap", "jvp",
                                      "vjp", "GradOperation", "HyperMap", "Map",
                                      "MultitypeFuncGraph", "jacfwd", "jacrev", "jet",
                                      "derivative", "linearize")},
    **{name: "clip_ops" for name in ("stop_gradient", "clip_by_value",
                                     "clip_by_global_norm")},
    "interpolate_ext": "interpolation",
}


def __getattr__(name: str):
    module = _sys.modules.get(f"{__package__}.{_UPPER_NAMES.get(name, '')}")
    if name in _UPPER_NAMES and module is not None:
        return getattr(module, name)
    # the rest of MindSpore's ops.functional (``F.mse_loss``...): graphkiln.ops's names
    package = _sys.modules.get(__package__)
    if not name.startswith("__") and name in getattr(package, "__all__", ()):
        return getattr(package, name)
    raise AttributeError(f"module 'mindspore.ops.functional' has no attribute '{name}'")


# None, a str or an object where a Tensor belongs: a TypeError naming the function and the
# argument, not an AttributeError from inside the wrapper
for _n, _f in list(globals().items()):
    if not _n.startswith("_") and isinstance(_f, _types.FunctionType) and \
            _f.__module__ == __name__:
        globals()[_n] = _names_bad_arguments(_f)
del _n, _f
