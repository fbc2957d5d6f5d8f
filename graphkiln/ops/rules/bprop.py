"""Backward rules: one per differentiable primitive, each ``(*inputs, out, dout, **attrs)
-> cotangent per input`` (``None`` where an input has none), written with ops so they run
eagerly and trace into graphs alike.

Conventions: a cotangent has its input's dtype (``sum_to``/``_as`` cast it back, so float16
inputs get float16 cotangents and integer inputs integer ones); broadcasting binary ops
reduce with ``sum_to``; float16 transcendental derivatives are computed in float32 (as the
kernels compute their forward). Multi-output ops (``Split``, ``LayerNorm``, ``Dropout``,
``ArgMaxWithValue``) get ``dout`` as a tuple with zeros for unused outputs; their ``out``
may be a tuple or the opaque tuple node, so rules needing a second output recompute it (the
same pure node, which CSE merges with the forward one). Every rule is checked against
finite differences by tests/ops/test_bprop.py, which walks the registry.
"""
from __future__ import annotations

import math

import numpy as np

import graphkiln.ops.functional as F

from ...common import dtype as mstype
from ...common.symbolic_scalar import SymbolicScalar
from ...common.tensor import Tensor
from ...ir.primitive import REGISTRY
from ..defs._infer import is_dynamic
from ..defs.activations import SELU_ALPHA, SELU_SCALE
from ..defs.array import meshgrid_axes, strided_index
from ..defs.reduced_dims import KeepReducedDims
from ..defs.renorm import RENORM_EPS
from ..dynamic_shape import shape_of


def bprop(name: str):
    def register(fn):
        return REGISTRY[name].def_bprop(fn)
    return register


def sum_to(g: Tensor, x) -> Tensor:
    """Reduce a broadcast cotangent ``g`` back to ``x``'s shape (and dtype)."""
    if not isinstance(x, Tensor):
        return None
    shape = x.shape
    lead = len(g.shape) - len(shape)
    if any(d < 0 and g.shape[i + lead] != 1 for i, d in enumerate(shape)):
        # an unknown size may be 1 and broadcast when the graph runs
        g = REGISTRY["SumToLike"](g, x)
    elif g.shape != shape:
        axes = tuple(range(lead)) + tuple(
            i + lead for i, d in enumerate(shape) if d == 1 and g.shape[i + lead] != 1)
        if axes:
            g = F.reduce_sum(g, axes, True)
        if lead or g.shape != shape:
            g = F.reshape(g, shape_of(x))
    if g.dtype.is_complex and not x.dtype.is_complex:
        g = F.real(g)  # a real input's gradient: the real part (MindSpore's convention)
    if g.dtype is not x.dtype:
        g = F.cast(g, x.dtype)
    return g


# ------------------------------------------------------------------ helpers

def _as(g, x):
    """``g`` in ``x``'s dtype; None when ``x`` is not a Tensor (a constant)."""
    if not isinstance(x, Tensor) or g is None:
        return None
    return g if g.dtype is x.dtype else F.cast(g, x.dtype)


def _wide(x: Tensor) -> Tensor:
    """float16 computed in float32 (the result is cast back by ``_as``)."""
    return F.cast(x, mstype.float32) if x.dtype is mstype.float16 else x


def _items(xs) -> list:
    """The elements of a tuple input: Tensors, or the abstracts of an opaque tuple node."""
    return list(xs) if isinstance(xs, (tuple, list)) else list(xs.abstract.elements)


def _output(out, i: int, recompute):
    """Output ``i`` of a multi-output op: from ``out`` when it is a tuple, else recomputed
    (``out`` can be the opaque tuple node)."""
    return out[i] if isinstance(out, (tuple, list)) else recompute()[i]


def _is_zero(t) -> bool:
    """A constant all-zero cotangent (what the engine passes for an unused output)."""
    return isinstance(t, Tensor) and not t.is_symbolic and not t.asnumpy().any()


def _axis_list(axis) -> list:
    if isinstance(axis, Tensor):
        axis = axis.tolist()
    if isinstance(axis, (tuple, list)):
        return list(axis)
    return [axis]


def _reduced_axes(x: Tensor, axis, skip_mode: bool = False):
    """The normalised axes a reduction removes (None: it is the identity, ``skip_mode``);
    an ``axis`` Tensor computed at run time stays as it is (the kernels read it)."""
    if isinstance(axis, Tensor) and axis.is_symbolic:
        return axis
    items = axis if isinstance(axis, (tuple, list)) else (axis,)
    if any(type(a) is SymbolicScalar for a in items):  # mutable ints: a run-time Tensor
        return F.stack([F.scalar_to_tensor(a, mstype.int64) for a in items])
    axes = [] if axis is None else _axis_list(axis)
    if not axes:
        return None if skip_mode else tuple(range(x.ndim))
    return tuple(sorted({a % x.ndim for a in axes})) if x.ndim else ()


def _kept_shape(x: Tensor, axes: tuple) -> tuple:
    return tuple(1 if i in axes else d for i, d in enumerate(shape_of(x)))


def _kept(g: Tensor, x: Tensor, axes) -> Tensor:
    """A reduction's result ``g`` with the reduced ``axes`` of ``x`` back as size 1."""
    if isinstance(axes, Tensor):  # computed at run time
        return KeepReducedDims(g, x, axes)
    return F.reshape(g, _kept_shape(x, axes))


def _spread(dout: Tensor, x: Tensor, axes) -> Tensor:
    """A reduction's cotangent broadcast back over the reduced axes of ``x``."""
    g = _kept(dout, x, axes)
    run_time = isinstance(axes, Tensor)  # (which axes are 1 is known when it runs)
    if g.shape == x.shape and not run_time:
        return g
    if is_dynamic(x.shape) or run_time:  # BroadcastTo takes a constant shape
        return F.mul(g, F.ones_like(x))
    return F.broadcast_to(g, x.shape)


def count(x: Tensor, axes) -> int:
    """The number of elements of ``x`` over ``axes`` (a run-time int when one of those
    dimensions is known only at run time; a Tensor of ``x``'s dtype, kept dimensions,
    when the axes are)."""
    if isinstance(axes, Tensor):
        return F.reduce_sum(F.ones_like(x), axes, True)
    dims = shape_of(x)
    return math.prod(dims[a] for a in axes)


def _sum(x: Tensor, axes: tuple, keep: bool = True) -> Tensor:
    """Sum over ``axes`` (no axes: ``x`` itself, never "every axis")."""
    if not isinstance(axes, Tensor) and not axes:
        return x
    return F.reduce_sum(x, axes, keep)


# ------------------------------------------------------------------ elementwise binary

@bprop("Add")
def _add(x, y, out, dout):
    return sum_to(dout, x), sum_to(dout, y)


@bprop("AddV2")
def _add_v2(x, y, out, dout):
    return F.cast(dout, x.dtype), F.cast(dout, y.dtype)


@bprop("Sub")
def _sub(x, y, out, dout):
    return sum_to(dout, x), sum_to(F.neg(dout), y)


def conjugated(x):
    """``conj(x)`` for a complex tensor, else ``x``: a product's cotangent is ``dout``
    times the conjugate of the other factor (MindSpore's convention, see Real/Imag)."""
    return F.conj(x) if isinstance(x, Tensor) and x.dtype.is_complex else x


@bprop("Mul")
def _mul(x, y, out, dout):
    x, y = conjugated(x), conjugated(y)
    return sum_to(F.mul(dout, y), x), sum_to(F.mul(dout, x), y)


@bprop("Div")
def _div(x, y, out, dout):
    y, out = conjugated(y), conjugated(out)
    dx = F.div(dout, y)
    dy = sum_to(F.neg(F.mul(dx, out)), y) if isinstance(y, Tensor) else None
    return sum_to(dx, x), dy


@bprop("FloorDiv")
def _floor_div(x, y, out, dout):
    return None, None  # piecewise constant: zero almost everywhere


@bprop("Mod")
@bprop("FloorMod")
def _floor_mod(x, y, out, dout):
    # x mod y = x - floor(x / y) * y. MindSpore gives the truncated Mod the same rule
    # (floor, not trunc, in dy: they differ where x / y < 0); matched, see tests/ops/test_mod.py
    dy = sum_to(F.neg(F.mul(dout, F.floor_div(x, y))), y) if isinstance(y, Tensor) else None
    return sum_to(dout, x), dy


@bprop("Pow")
def _pow(x, y, out, dout):
    if out.dtype.is_complex:
        raise TypeError("For 'Pow', gradient not support for complex type currently.")
    dx = dy = None
    if isinstance(x, Tensor):
        e = F.sub(y, 1.0) if isinstance(y, Tensor) else y - 1.0
        dx = sum_to(F.mul(dout, F.mul(y, F.pow(x, e))), x)
    if isinstance(y, Tensor):
        # d/dy x**y = x**y * log(x), with log(x) taken as 0 where x <= 0 (as MindSpore)
        t = out.dtype if out.dtype.is_float else mstype.float32
        if isinstance(x, Tensor):
            log_x = F.log(F.cast(F.select(F.greater(x, 0), x, 1), t))
        else:
            log_x = math.log(x) if x > 0 else 0.0
        dy = sum_to(F.mul(dout, F.mul(F.cast(out, t), log_x)), y)
    return dx, dy


def _nan_mask(v, dout):
    """Where ``v`` (a Tensor or a Python number) is NaN, broadcast as ``dout``."""
    if isinstance(v, Tensor):
        return F.isnan(v)
    return F.ones_like(dout, dtype=mstype.bool_) if math.isnan(v) else \
        F.zeros_like(dout, dtype=mstype.bool_)


def extremum_cotangents(x, y, dout, wins, nan_takes_all: bool) -> tuple:
    """``(dx, dy)`` of ``Maximum`` (``wins=F.greater``) or ``Minimum`` (``F.less``): the
    winner takes ``dout``, a tie gives each half (an integer's half rounded toward zero, so
    the halves may not add up to it). Where an input is NaN neither wins: both take all of
    ``dout`` when ``nan_takes_all`` (the ops' gradients), else half (MindSpore 2.10's
    ``MaximumGrad``/``MinimumGrad`` kernels, which count it a tie)."""
    if dout.dtype.is_float:
        half = F.mul(dout, 0.5)
    else:
        half = F.cast(F.mul(F.cast(dout, mstype.float64), 0.5), dout.dtype)
    x_takes, y_takes = wins(x, y), wins(y, x)
    tie = F.logical_not(F.logical_or(x_takes, y_takes))
    if nan_takes_all and dout.dtype.is_float:
        nan = F.logical_or(_nan_mask(x, dout), _nan_mask(y, dout))
        x_takes, y_takes = F.logical_or(x_takes, nan), F.logical_or(y_takes, nan)
        tie = F.logical_and(tie, F.logical_not(nan))
    shared = F.select(tie, half, F.zeros_like(dout))
    return (sum_to(F.select(x_takes, dout, shared), x),
            sum_to(F.select(y_takes, dout, shared), y))


def _pick(name: str, wins):
    @bprop(name)
    def rule(x, y, out, dout):
        return extremum_cotangents(x, y, dout, wins, nan_takes_all=True)
    return rule


_pick("Maximum", F.greater)
_pick("Minimum", F.less)


# ------------------------------------------------------------------ elementwise unary

def _unary(name: str, wide: bool = False):
    """Register ``dx = dout * deriv(x, out, **attrs)`` for an elementwise op (``dout`` times
    its conjugate for a complex one: MindSpore's convention); ``wide`` computes float16 in
    float32."""
    def register(deriv):
        @bprop(name)
        def rule(x, out, dout, **attrs):
            xw, ow, dw = (_wide(x), _wide(out), _wide(dout)) if wide else (x, out, dout)
            return (_as(F.mul(dw, conjugated(deriv(xw, ow, **attrs))), x),)
        rule.__name__ = f"bprop_{name}"
        return deriv
    return register


@bprop("Neg")
def _neg(x, out, dout):
    return (F.neg(dout),)


@bprop("Abs")
def _abs(x, out, dout):
    if x.dtype.is_complex:  # dout * x / |x| (0 where x is 0)
        modulus = F.real(out)
        unit = F.div(x, F.cast(F.select(F.equal(modulus, 0), F.ones_like(modulus), modulus),
                               x.dtype))
        return (F.mul(dout, unit),)
    return (_as(F.select(F.greater(x, 0), dout, F.select(F.less(x, 0), F.neg(dout), 0)), x),)


# ------------------------------------------------------------------ complex numbers
# MindSpore's convention: the cotangent of a complex value z = a + bi is da + db i; a real
# input's gradient is the real part of its complex cotangent (see sum_to).

def _as_complex(real, imag):
    return F.complex(real, imag)


@bprop("Real")
def _real(x, out, dout):
    if not dout.dtype.is_float:
        return (dout,)
    # complex even for a real input, as MindSpore gives
    return (_as_complex(dout, F.zeros_like(dout)),)


@bprop("Imag")
def _imag(x, out, dout):
    if not x.dtype.is_complex:
        return (F.zeros_like(x),)
    return (_as_complex(F.zeros_like(dout), dout),)


@bprop("Conj")
def _conj(x, out, dout):
    return (F.conj(dout),)


@bprop("Complex")
def _complex(real, imag, out, dout):
    return sum_to(F.real(dout), real), sum_to(F.imag(dout), imag)


@bprop("Angle")
def _angle(x, out, dout):
    if not x.dtype.is_complex:
        return (F.zeros_like(x),)
    re, im = F.real(x), F.imag(x)
    norm2 = F.add(F.mul(re, re), F.mul(im, im))
    norm2 = F.select(F.equal(norm2, 0), F.ones_like(norm2), norm2)
    return (F.mul(_as_complex(F.div(F.neg(im), norm2), F.div(re, norm2)),
                  F.cast(dout, x.dtype)),)


@_unary("Square")
def _square(x, out):
    return F.mul(x, 2)


@_unary("Exp")
def _exp(x, out):
    return out


@bprop("Log")
def _log(x, out, dout):
    return (_as(F.div(dout, conjugated(x)), x),)


@bprop("Sqrt")
def _sqrt(x, out, dout):
    return (_as(F.div(dout, F.mul(conjugated(out), 2)), x),)


@_unary("Rsqrt")
def _rsqrt(x, out):
    return F.mul(F.mul(F.mul(out, out), out), -0.5)


@_unary("Sin")
def _sin(x, out):
    return F.cos(x)


@_unary("Cos")
def _cos(x, out):
    return F.neg(F.sin(x))


@_unary("Tanh")
def _tanh(x, out):
    return F.sub(1, F.mul(out, out))


@_unary("Sigmoid")
def _sigmoid(x, out):
    return F.mul(out, F.sub(1, out))


@bprop("ReLU")
def _relu(x, out, dout):
    g = _as(dout, x)  # MindSpore's rule: ReluGrad of the output
    return (None if g is None else REGISTRY["ReluGrad"](g, out),)


@bprop("ReLU6Grad")
def _relu6_grad(dy, x, out, dout):
    return REGISTRY["ReLU6Grad"](dout, x), F.zeros_like(x)


@bprop("ReluGrad")
def _relu_grad(dy, x, out, dout):
    return REGISTRY["ReluGrad"](dout, x), F.zeros_like(x)


@bprop("GeLU")
def _gelu(x, out, dout, approximate="tanh"):
    if approximate == "tanh":  # MindSpore's rule: one kernel (it clips as the forward)
        return (REGISTRY["GeLUGrad"](dout, x, out),)
    xw, dw = _wide(x), _wide(dout)
    cdf = F.mul(F.add(F.erf(F.mul(xw, 1 / math.sqrt(2.0))), 1), 0.5)
    pdf = F.mul(F.exp(F.mul(F.mul(xw, xw), -0.5)), 1 / math.sqrt(2 * math.pi))
    return (_as(F.mul(dw, F.add(cdf, F.mul(xw, pdf))), x),)


@bprop("HSwish")
def _hswish(x, out, dout):
    # x * relu6(x + 3) / 6: 0 below -3, (2x + 3) / 6 in between, 1 above 3
    mid = F.mul(dout, F.div(F.add(F.mul(x, 2), 3), 6))
    g = F.select(F.less(x, -3), 0, F.select(F.greater(x, 3), dout, _as(mid, dout)))
    return (_as(g, x),)


@_unary("Softplus", wide=True)
def _softplus(x, out):
    return F.sigmoid(x)


@_unary("Erf", wide=True)
def _erf(x, out):
    return F.mul(F.exp(F.neg(F.mul(x, x))), 2 / math.sqrt(math.pi))


# ------------------------------------------------------------------ matrix products

def _matmul_rule(name: str):
    op = REGISTRY[name]

    @bprop(name)
    def rule(x, y, out, dout, transpose_a=False, transpose_b=False):
        # out = op_a(x) @ op_b(y); each case keeps the products un-transposed in memory
        x, y = conjugated(x), conjugated(y)
        if not transpose_a and not transpose_b:
            dx = op(dout, y, transpose_a=False, transpose_b=True)
            dy = op(x, dout, transpose_a=True, transpose_b=False)
        elif transpose_a and not transpose_b:
            dx = op(y, dout, transpose_a=False, transpose_b=True)
            dy = op(x, dout, transpose_a=False, transpose_b=False)
        elif not transpose_a and transpose_b:
            dx = op(dout, y, transpose_a=False, transpose_b=False)
            dy = op(dout, x, transpose_a=True, transpose_b=False)
        else:
            dx = op(y, dout, transpose_a=True, transpose_b=True)
            dy = op(dout, x, transpose_a=True, transpose_b=True)
        return sum_to(dx, x), sum_to(dy, y)  # sum_to: broadcast batch dimensions
    return rule


_matmul_rule("MatMul")
_matmul_rule("BatchMatMul")


# ------------------------------------------------------------------ casts and creation

@bprop("Cast")
def _cast(x, t, out, dout):
    return _as(dout, x), None


@bprop("Fill")
def _fill(t, s, value, out, dout):
    return None, None, None  # the output does not depend on its inputs' values


@bprop("Zeros")
def _zeros(s, t, out, dout):
    return None, None


@bprop("Ones")
def _ones(s, t, out, dout):
    return None, None


@bprop("TensorMove")
def _tensor_move(x, out, dout):
    return (dout,)


# In-place writes of a plain Tensor, differentiated as MindSpore does: the variable's
# cotangent passes on; an assigned value gets none, an added (subtracted) one gets dout (-dout).
@bprop("Assign")
def _assign(variable, value, u, out, dout):
    return dout, F.zeros_like(value), None


@bprop("AssignAdd")
def _assign_add(variable, value, u, out, dout):
    return dout, sum_to(dout, value), None


@bprop("AssignSub")
def _assign_sub(variable, value, u, out, dout):
    return dout, sum_to(F.neg(dout), value), None


@bprop("InplaceCopy")
def _inplace_copy(variable, value, u, out, dout):
    return F.zeros_like(variable), sum_to(dout, value), None


# ------------------------------------------------------------------ shapes

@bprop("Reshape")
def _reshape(x, shape, out, dout):
    return F.reshape(dout, shape_of(x)), None


@bprop("ExpandDims")
def _expand_dims(x, axis, out, dout):
    return F.reshape(dout, shape_of(x)), None


@bprop("Squeeze")
def _squeeze(x, out, dout, axis=()):
    return (F.reshape(dout, shape_of(x)),)


@bprop("Transpose")
def _transpose(x, perm, out, dout):
    inverse = [0] * x.ndim
    for i, p in enumerate(_axis_list(perm)):
        inverse[p % x.ndim] = i
    return F.transpose(dout, tuple(inverse)), None


@bprop("ReverseV2")
def _reverse_v2(x, out, dout, axis=()):
    return (REGISTRY["ReverseV2"](dout, axis=axis),)


@bprop("Shift")
def _shift(x, fill_value, out, dout, periods=1, axis=-1):
    zero = 0.0 if dout.dtype.np_dtype.kind in "fc" else 0
    dx = REGISTRY["Shift"](dout, zero, periods=-periods, axis=axis)
    if not isinstance(fill_value, Tensor):
        return dx, None
    # the places the fill went to: dout less what moved there from x (exact zeros)
    moved = REGISTRY["Shift"](dx, zero, periods=periods, axis=axis)
    dfill = _sum(F.sub(dout, moved), tuple(range(dout.ndim)), False)
    return dx, _as(F.reshape(dfill, fill_value.shape), fill_value)


@bprop("BroadcastTo")
def _broadcast_to(x, out, dout, shape=()):
    return (sum_to(dout, x),)


@bprop("Tile")
def _tile(x, multiples, out, dout):
    reps = tuple(_axis_list(multiples))
    n = max(len(reps), x.ndim)
    s = (1,) * (n - x.ndim) + tuple(x.shape)
    r = (1,) * (n - len(reps)) + reps
    # output axis i is (r[i], s[i]) laid out block by block: sum the block axes
    g = F.reshape(dout, tuple(d for pair in zip(r, s) for d in pair))
    g = _sum(g, tuple(range(0, 2 * n, 2)), False)
    return F.reshape(g, x.shape), None


# ------------------------------------------------------------------ select, join, split

@bprop("Select")
def _select(cond, x, y, out, dout):
    return (None, sum_to(F.select(cond, dout, 0), x),
            sum_to(F.select(cond, 0, dout), y))


@bprop("AddN")
def _addn(xs, out, dout):
    return (tuple(dout for _ in _items(xs)),)


@bprop("Stack")
def _stack(xs, out, dout, axis=0):
    items = _items(xs)
    ax = axis % (len(items[0].shape) + 1)
    parts = REGISTRY["Split"](dout, axis=ax, output_num=len(items))
    return (tuple(F.reshape(p, tuple(e.shape)) for p, e in zip(parts, items)),)


@bprop("Concat")
def _concat(xs, out, dout, axis=0):
    items = _items(xs)
    ax = axis % len(items[0].shape)
    sizes = tuple(e.shape[ax] for e in items)
    if sum(s < 0 for s in sizes) > 1:  # SplitV's sizes can leave one unknown (-1), not more
        return (tuple(REGISTRY["ConcatGrad"](dout, xs, axis=ax)),)
    parts = REGISTRY["SplitV"](dout, size_splits=sizes, split_dim=ax, num_split=len(sizes))
    return (tuple(parts),)


@bprop("SumToLike")
def _sum_to_like(dout, like, out, ddx):
    return ddx + F.zeros_like(dout), None  # broadcast back to dout's (run-time) shape


@bprop("ConcatGrad")
def _concat_grad(dout, xs, out, ddx, axis=0):
    return F.concat(tuple(ddx), axis), None


@bprop("Split")
def _split(x, out, dout, axis=0, output_num=1):
    return (F.concat(tuple(dout), axis % x.ndim),)


@bprop("SplitV")
def _split_v(x, out, dout, size_splits=(), split_dim=0, num_split=1):
    return (F.concat(tuple(dout), split_dim % x.ndim),)


# ------------------------------------------------------------------ indexing

def _index_arg(index):
    """An index as ``Getitem`` received it (constant arrays inside a constant tuple index
    come back as arrays: make them Tensors again)."""
    if isinstance(index, np.ndarray):
        return Tensor(index)
    if isinstance(index, tuple):
        return tuple(_index_arg(i) for i in index)
    return index


def scatter_into(x, index, dout) -> Tensor:
    """``dout`` added at ``index`` into zeros shaped like ``x`` (``GetitemGrad``; a ``x`` of
    dynamic shape is passed along, its shape known when the graph runs)."""
    like = x if any(d < 0 for d in x.shape) else None
    return REGISTRY["GetitemGrad"](dout, index, like, shape=tuple(x.shape))


@bprop("Getitem")
def _getitem(x, index, out, dout):
    return _as(scatter_into(x, _index_arg(index), dout), x), None


@bprop("Setitem")
def _setitem(x, index, value, out, dout):
    idx = _index_arg(index)
    dx = REGISTRY["Setitem"](dout, idx, 0)  # the written elements do not reach x
    if not isinstance(value, Tensor):
        return dx, None, None
    if value.size == 1:  # broadcast everywhere it was written (a mask of any kind)
        hit = REGISTRY["Setitem"](F.zeros_like(dout, dtype=mstype.bool_), idx, True)
        picked = F.select(hit, dout, F.zeros_like(dout))
        dv = F.reshape(F.reduce_sum(picked, ()), value.shape)
    else:
        dv = sum_to(REGISTRY["Getitem"](dout, idx), value)
    return dx, None, _as(dv, value)


@bprop("MaskedSelect")
def _masked_select(x, mask, out, dout):
    return _as(REGISTRY["MaskedSelectGrad"](x, mask, dout), x), None


@bprop("MaskedSelectGrad")
def _masked_select_grad(x, mask, dout, out, ddx):
    return None, None, _as(REGISTRY["MaskedSelect"](ddx, mask), dout)


@bprop("GetitemGrad")
def _getitem_grad(dout, index, *rest, shape=()):
    """``rest``: (``like`` when given,) ``out``, ``ddx``."""
    return (REGISTRY["Getitem"](rest[-1], _index_arg(index)),) + (None,) * (len(rest) - 1)


@bprop("Gather")
def _gather(params, indices, axis, out, dout, batch_dims=0):
    nd = params.ndim
    ax = axis % nd
    b = batch_dims + indices.ndim if batch_dims < 0 else batch_dims
    if b == 0:  # Gather is params[:, ..., :, indices] with `ax` leading slices
        index = (slice(None),) * ax + (indices,)
        return _as(scatter_into(params, index, dout), params), None, None
    # params: B + M + (K,) + R, indices: B + I, dout: B + M + I + R. Move I before M, then
    # scatter with index (arange(B_0), ..., arange(B_b-1), indices) into B + (K,) + M + R.
    n_i = indices.ndim - b
    n_m = ax - b
    bdims = list(range(b))
    mdims = list(range(b, b + n_m))
    idims = list(range(b + n_m, b + n_m + n_i))
    rdims = list(range(b + n_m + n_i, dout.ndim))
    g = F.transpose(dout, tuple(bdims + idims + mdims + rdims))
    index = []
    for k in range(b):
        shape = tuple(params.shape[k] if j == k else 1 for j in range(b)) + (1,) * n_i
        index.append(F.reshape(Tensor(list(range(params.shape[k])), mstype.int64), shape))
    ps = tuple(params.shape)
    target = ps[:b] + (ps[ax],) + ps[b:ax] + ps[ax + 1:]
    g = REGISTRY["GetitemGrad"](g, tuple(index) + (indices,), shape=target)
    back = bdims + [b + 1 + i for i in range(n_m)] + [b] + list(range(ax + 1, nd))
    return _as(F.transpose(g, tuple(back)), params), None, None


# ------------------------------------------------------------------ reductions

@bprop("ReduceSum")
def _reduce_sum(x, axis, out, dout, keep_dims=False, skip_mode=False):
    axes = _reduced_axes(x, axis, skip_mode)
    if axes is None:
        return _as(dout, x), None
    return _as(_spread(dout, x, axes), x), None


@bprop("ReduceMean")
def _reduce_mean(x, axis, out, dout, keep_dims=False, skip_mode=False):
    axes = _reduced_axes(x, axis, skip_mode)
    if axes is None:
        return _as(dout, x), None
    n = count(x, axes)
    n = max(n, 1) if isinstance(n, int) else n
    return _as(F.div(_spread(dout, x, axes), n), x), None


def _extremum_rule(name: str):
    @bprop(name)
    def rule(x, axis, out, dout, keep_dims=False, skip_mode=False):
        axes = _reduced_axes(x, axis, skip_mode)
        if axes is None:
            return _as(dout, x), None
        # ties share the cotangent equally, as MindSpore's ReduceMax/ReduceMin grads do
        hit = F.cast(F.equal(x, _kept(out, x, axes)), dout.dtype)
        share = F.div(hit, _sum(hit, axes))
        return _as(F.mul(share, _spread(dout, x, axes)), x), None
    return rule


_extremum_rule("ReduceMax")
_extremum_rule("ReduceMin")


@bprop("ReduceProd")
def _reduce_prod(x, axis, out, dout, keep_dims=False, skip_mode=False):
    axes = _reduced_axes(x, axis, skip_mode)
    if axes is None:
        return _as(dout, x), None
    # d/dx_i prod(x) = product of the others, exact even where x has zeros: with p the
    # product of the non-zero elements, it is p / x_i when there is no zero, p at the one
    # zero when there is exactly one, and 0 everywhere else.
    zero = F.equal(x, 0)
    nonzero = F.select(zero, 1, x)
    p = F.reduce_prod(nonzero, axes, True)
    n_zero = F.reduce_sum(F.cast(zero, mstype.int32), axes, True)
    others = F.div(p, nonzero) if x.dtype.is_float else F.floor_div(p, nonzero)
    others = F.select(zero, F.broadcast_to(p, x.shape), others)
    keep = F.logical_or(F.equal(n_zero, 0), F.logical_and(zero, F.equal(n_zero, 1)))
    return _as(F.mul(F.select(keep, others, 0), _spread(dout, x, axes)), x), None


def _arg_value_rule(name: str):
    @bprop(name)
    def rule(x, out, dout, **attrs):
        axis = attrs.get("axis", 0)
        keep_dims = attrs.get("keep_dims", False)
        g = dout[1]
        if x.ndim == 0:
            return (_as(g, x),)
        ax = axis % x.ndim
        index = _output(out, 0, lambda: REGISTRY[name](x, **attrs))
        if keep_dims:
            index, g = F.squeeze(index, ax), F.squeeze(g, ax)
        on, off = F.ones((), x.dtype), F.zeros((), x.dtype)
        hot = REGISTRY["OneHot"](index, x.shape[ax], on, off, axis=ax)
        return (_as(F.mul(hot, F.expand_dims(_as(g, x), ax)), x),)
    return rule


_arg_value_rule("ArgMaxWithValue")
_arg_value_rule("ArgMinWithValue")


# ------------------------------------------------------------------ nn

@bprop("Softmax")
def _softmax(x, out, dout, axis=-1):
    axes = tuple(sorted({a % x.ndim for a in _axis_list(axis)})) if x.ndim else ()
    if not axes:  # a 0-D softmax is the constant 1
        return (F.zeros_like(x),)
    inner = F.reduce_sum(F.mul(dout, out), axes, True)
    return (_as(F.mul(out, F.sub(dout, inner)), x),)


@bprop("LogSoftmax")
def _log_softmax(x, out, dout, axis=-1):
    if not x.ndim:
        return (F.zeros_like(x),)
    total = F.reduce_sum(dout, axis % x.ndim, True)
    return (_as(F.sub(dout, F.mul(F.exp(out), total)), x),)


@bprop("LayerNorm")
def _layer_norm(x, gamma, beta, out, dout, begin_norm_axis=1, begin_params_axis=1,
                epsilon=1e-7):
    nd = x.ndim
    norm_axes = tuple(range(begin_norm_axis % nd, nd))
    param_axes = tuple(range(begin_params_axis % nd))
    w = _wide(x)
    t = w.dtype
    dy = F.cast(dout[0], t)
    if t is mstype.float32 and isinstance(out, (tuple, list)):  # the forward's statistics
        mean, var = out[1], out[2]
        xc = F.sub(w, mean)
    else:  # (float64: the forward's statistics are rounded to float32)
        mean = F.reduce_mean(w, norm_axes, True)
        xc = F.sub(w, mean)
        var = F.reduce_mean(F.mul(xc, xc), norm_axes, True)
    rstd = F.rsqrt(F.add(var, epsilon))
    xhat = F.mul(xc, rstd)
    dgamma = _sum(F.mul(dy, xhat), param_axes, False)
    dbeta = _sum(dy, param_axes, False)
    dxhat = F.mul(dy, F.cast(gamma, t))
    mean_d = F.reduce_mean(dxhat, norm_axes, True)
    mean_dx = F.reduce_mean(F.mul(dxhat, xhat), norm_axes, True)
    # (as MindSpore's rule, the mean and variance outputs pass no gradient back)
    dx = F.mul(rstd, F.sub(F.sub(dxhat, mean_d), F.mul(xhat, mean_dx)))
    return _as(dx, x), _as(dgamma, gamma), _as(dbeta, beta)


@bprop("Dropout")
def _dropout(*args, **attrs):
    *ins, out, dout = args
    # the recomputed mask is the forward node itself once CSE runs (same inputs and attrs)
    mask = _output(out, 1, lambda: REGISTRY["Dropout"](*ins, **attrs))
    keep_prob = attrs.get("keep_prob", REGISTRY["Dropout"].attrs["keep_prob"])
    dx = F.mul(F.mul(dout[0], mask), 1.0 / keep_prob)
    return (_as(dx, ins[0]),) + (None,) * (len(ins) - 1)


@bprop("DropoutGrad")
def _dropout_grad(dy, mask, out, dout, keep_prob=0.5):
    """Linear in ``dy``; the mask gets zeros, as MindSpore's rule."""
    return REGISTRY["DropoutGrad"](dout, mask, keep_prob=keep_prob), F.zeros_like(mask)


# ------------------------------------------------------------------ gather/scatter by index
# The updates' cotangents read ``dout`` at the scattered positions; for Mul/Div/Max/Min the
# rules assume distinct indices (as MindSpore's do).

def _gather_nd(x, indices):
    return REGISTRY["GatherNd"](x, indices)


@bprop("GatherNd")
def _gather_nd_bprop(x, indices, out, dout):
    return _as(REGISTRY["ScatterNd"](indices, dout, x.shape), x), None


@bprop("ScatterNd")
def _scatter_nd_bprop(indices, updates, shape, out, dout):
    return None, _as(_gather_nd(dout, indices), updates), None


@bprop("TensorScatterUpdate")
def _tensor_scatter_update(x, indices, updates, out, dout):
    dx = REGISTRY["TensorScatterUpdate"](dout, indices, F.zeros_like(updates))
    return dx, None, _gather_nd(dout, indices)


@bprop("TensorScatterAdd")
def _tensor_scatter_add(x, indices, updates, out, dout):
    return dout, None, _gather_nd(dout, indices)


@bprop("TensorScatterSub")
def _tensor_scatter_sub(x, indices, updates, out, dout):
    return dout, None, F.neg(_gather_nd(dout, indices))


@bprop("TensorScatterMul")
def _tensor_scatter_mul(x, indices, updates, out, dout):
    factor = REGISTRY["TensorScatterMul"](F.ones_like(x), indices, updates)
    return F.mul(dout, factor), None, _gather_nd(F.mul(dout, x), indices)


@bprop("TensorScatterDiv")
def _tensor_scatter_div(x, indices, updates, out, dout):
    factor = REGISTRY["TensorScatterDiv"](F.ones_like(x), indices, updates)
    dupdates = F.neg(F.div(_gather_nd(F.mul(dout, out), indices), updates))
    return F.mul(dout, factor), None, dupdates


def _scatter_pick(name: str):
    @bprop(name)
    def rule(x, indices, updates, out, dout):
        from_updates = F.equal(_gather_nd(out, indices), updates)
        taken = REGISTRY["TensorScatterUpdate"](F.zeros_like(x, dtype=mstype.bool_), indices,
                                                 from_updates)
        dx = F.select(taken, F.zeros_like(dout), dout)
        dupdates = F.select(from_updates, _gather_nd(dout, indices), F.zeros_like(updates))
        return dx, None, dupdates
    return rule


_scatter_pick("TensorScatterMax")
_scatter_pick("TensorScatterMin")


# ------------------------------------------------------------------ more elementwise ops

@bprop("RealDiv")
def _real_div(x, y, out, dout):
    if not out.dtype.is_float:
        return None, None  # integer division truncates: zero almost everywhere
    return _div(x, y, out, dout)


for _name in ("Sign", "Floor", "Ceil", "Round"):
    @bprop(_name)
    def _piecewise_constant(x, out, dout):
        return (None,)  # zero almost everywhere


@_unary("Reciprocal", wide=True)
def _reciprocal(x, out):
    return F.neg(F.mul(out, out))


@_unary("Log1p", wide=True)
def _log1p(x, out):
    return F.div(1.0, F.add(x, 1.0))


@_unary("Expm1", wide=True)
def _expm1(x, out):
    return F.add(out, 1.0)


@_unary("Tan", wide=True)
def _tan(x, out):
    return F.add(F.mul(out, out), 1.0)


@_unary("Atan", wide=True)
def _atan(x, out):
    return F.div(1.0, F.add(F.mul(x, x), 1.0))


@_unary("Sinh", wide=True)
def _sinh(x, out):
    return REGISTRY["Cosh"](x)


@_unary("Cosh", wide=True)
def _cosh(x, out):
    return REGISTRY["Sinh"](x)


@_unary("Asin", wide=True)
def _asin(x, out):
    return F.rsqrt(F.sub(1.0, F.mul(x, x)))


@_unary("Acos", wide=True)
def _acos(x, out):
    return F.neg(F.rsqrt(F.sub(1.0, F.mul(x, x))))


@bprop("SquaredDifference")
def _squared_difference(x, y, out, dout):
    g = F.mul(F.mul(dout, F.sub(x, y)), 2)
    return sum_to(g, x), sum_to(F.neg(g), y)


@bprop("Atan2")
def _atan2(x, y, out, dout):
    r2 = F.add(F.mul(x, x), F.mul(y, y))
    return sum_to(F.mul(dout, F.div(y, r2)), x), sum_to(F.mul(dout, F.div(F.neg(x), r2)), y)


@bprop("NextAfter")
def _next_after(x, other, out, dout):
    """MindSpore's rule: the step to the neighbouring float counts as the identity in ``x``;
    ``other`` only picks the direction (no gradient)."""
    return sum_to(dout, x), F.zeros_like(other)


@bprop("Lgamma")
def _lgamma(x, out, dout):
    return (_as(F.mul(dout, F.digamma(x)), x),)


@bprop("Digamma")
def _digamma(x, out, dout):
    return (_as(F.mul(dout, F.polygamma(Tensor(1, mstype.int64), _wide(x))), x),)


@bprop("Polygamma")
def _polygamma(a, x, out, dout):
    return None, _as(F.mul(dout, F.polygamma(F.add(a, 1), _wide(x))), x)


def _igamma_grads(a, x, dout):
    """d/da and d/dx of P(a, x), each times ``dout`` (the density x**(a-1) e**-x / G(a))."""
    da = F.mul(dout, REGISTRY["IgammaGradA"](a, x))
    density = F.exp(F.sub(F.sub(F.mul(F.sub(a, 1.0), F.log(x)), x), F.lgamma(a)))
    return da, F.mul(dout, density)


@bprop("Igamma")
def _igamma(a, x, out, dout):
    da, dx = _igamma_grads(a, x, dout)
    return sum_to(da, a), sum_to(dx, x)


@bprop("Igammac")
def _igammac(a, x, out, dout):
    da, dx = _igamma_grads(a, x, dout)
    return sum_to(F.neg(da), a), sum_to(F.neg(dx), x)


@bprop("Betainc")
def _betainc(a, b, x, out, dout):
    """MindSpore's rule: the density ``x**(a-1) (1-x)**(b-1) / B(a, b)`` for ``x``; ``a``
    and ``b`` get zeros."""
    log_beta = F.sub(F.add(F.lgamma(a), F.lgamma(b)), F.lgamma(F.add(a, b)))
    log_density = F.sub(F.add(F.mul(F.sub(a, 1.0), F.log(x)),
                              F.mul(F.sub(b, 1.0), F.log1p(F.neg(x)))), log_beta)
    return F.zeros_like(a), F.zeros_like(b), F.mul(dout, F.exp(log_density))


@bprop("Zeta")
def _zeta(x, q, out, dout):
    """d/dq zeta(x, q) = -x zeta(x + 1, q); none for ``x`` (zeros, as MindSpore's)."""
    dq = F.mul(dout, F.neg(F.mul(x, REGISTRY["Zeta"](F.add(x, 1.0), q))))
    return sum_to(F.zeros_like(F.mul(dout, x)), x), sum_to(dq, q)


# ------------------------------------------------------------------ slicing, top-k

@bprop("Slice")
def _slice_bprop(x, begin, size, out, dout):
    if any(isinstance(v, Tensor) and v.is_symbolic for v in (begin, size)):
        # run-time bounds: each axis's slice from its elements (size -1: past the end)
        begin, size = ([v[i] for i in range(x.ndim)] for v in (begin, size))
        ends = (F.add(F.add(lo, n), F.mul(F.cast(F.less(n, 0), n.dtype), 1 << 62))
                for lo, n in zip(begin, size))
        scalar = REGISTRY["TensorToScalar"]
        index = tuple(REGISTRY["MakeSlice"](scalar(lo), scalar(end), None)
                      for lo, end in zip(begin, ends))
    else:
        index = tuple(slice(lo, None if n == -1 else lo + n) for lo, n in zip(begin, size))
    return scatter_into(x, index, dout), None, None


@bprop("StridedSlice")
def _strided_slice_bprop(x, begin, end, strides, out, dout, **masks):
    if any(isinstance(v, Tensor) and v.is_symbolic for v in (begin, end, strides)):
        raise ValueError("For 'StridedSlice', graphkiln's gradient needs constant 'begin', "
                         "'end' and 'strides', but they are computed at run time.")
    index = strided_index(begin, end, strides, **masks)
    return scatter_into(x, index, dout), None, None, None


@bprop("Flatten")
def _flatten_bprop(x, out, dout):
    return (F.reshape(dout, shape_of(x)),)


def _scatter_last_axis(dvalues, indices, shape: tuple):
    """A tensor of ``shape`` holding ``dvalues`` at ``indices`` along the last axis (the
    rest zeros): the cotangent of taking ``indices`` from each row."""
    last = shape[-1] if shape else 1
    rows = int(np.prod(shape[:-1], dtype=np.int64))
    kk = dvalues.shape[-1] if dvalues.shape else 1
    flat_idx = F.reshape(F.cast(indices, mstype.int64), (rows, kk))
    row_ids = Tensor(np.repeat(np.arange(rows, dtype=np.int64), kk).reshape(rows, kk))
    where = F.stack((row_ids, flat_idx), -1)
    dx = REGISTRY["ScatterNd"](where, F.reshape(dvalues, (rows, kk)), (rows, last))
    return F.reshape(dx, shape)


@bprop("TopK")
def _top_k_bprop(x, k, out, dout, sorted=True):
    indices = _output(out, 1, lambda: REGISTRY["TopK"](x, k, sorted=sorted))
    return _as(_scatter_last_axis(dout[0], indices, tuple(x.shape)), x), None


@bprop("Sort")
def _sort_bprop(x, out, dout, axis=-1, descending=False):
    indices = _output(out, 1, lambda: REGISTRY["Sort"](x, axis=axis, descending=descending))
    ax = axis % x.ndim
    perm = tuple(i for i in range(x.ndim) if i != ax) + (ax,)
    back = tuple(int(i) for i in np.argsort(perm))
    moved = tuple(x.shape[i] for i in perm)
    dx = _scatter_last_axis(F.transpose(dout[0], perm), F.transpose(indices, perm), moved)
    return (_as(F.transpose(dx, back), x),)


@bprop("Unstack")
def _unstack_bprop(x, out, dout, axis=0, num=None):
    return (F.stack(tuple(dout), axis % x.ndim),)


@bprop("GatherD")
def _gather_d_bprop(x, dim, index, out, dout):
    """Each gathered element's cotangent is added back where it was read from."""
    ax = int(dim) % x.ndim
    grids = np.indices(tuple(index.shape), dtype=np.int64)
    picked = F.floor_mod(F.cast(index, mstype.int64), x.shape[ax])
    coords = F.stack(tuple(picked if d == ax else Tensor(grids[d]) for d in range(x.ndim)), -1)
    return _as(REGISTRY["ScatterNd"](coords, dout, tuple(x.shape)), x), None, None


@bprop("Pad")
def _pad_bprop(input_x, out, dout, paddings=None):
    index = tuple(slice(int(b), int(b) + n) for (b, _), n in zip(paddings, input_x.shape))
    return (dout[index],)


@bprop("Eye")
def _eye_bprop(n, m, t, out, dout):
    return None, None, None


@bprop("Identity")
def _identity_bprop(x, out, dout):
    return (dout,)


@bprop("HookBackward")
def _hook_backward_bprop(*inputs_out_dout, hook_fn, cell_id=""):
    """The gradients pass through ``hook_fn`` when the backward graph runs."""
    dout = inputs_out_dout[-1]
    grads = tuple(dout) if isinstance(dout, (tuple, list)) else (dout,)
    new = REGISTRY["RunBackwardHook"](*grads, hook_fn=hook_fn)
    return tuple(new) if len(grads) > 1 else (new,)


@bprop("BiasAdd")
def _bias_add(x, b, out, dout, data_format="NCHW"):
    channel = x.ndim - 1 if data_format == "NHWC" else 1
    others = tuple(a for a in range(x.ndim) if a != channel)
    return dout, _as(F.reduce_sum(dout, others), b)


@bprop("Padding")
def _padding_bprop(x, out, dout, pad_dim_size=8):
    return (dout[..., :1],)


@bprop("Meshgrid")
def _meshgrid(inputs, out, dout, indexing="xy"):
    """Output ``i`` repeats input ``i`` along every other axis: sum those axes."""
    items = _items(inputs)
    axes = meshgrid_axes(len(items), indexing)
    grads = tuple(_as(_sum(g, tuple(a for a in range(len(items)) if a != axis), keep=False), x)
                  for g, x, axis in zip(dout, items, axes))
    return (grads,)


def _hermitian(x: Tensor) -> Tensor:
    """The conjugate transpose of the last two axes (the transpose of a real matrix)."""
    xt = F.swapaxes(x, -1, -2)
    return F.conj(xt) if x.dtype.is_complex else xt


@bprop("MatrixSolve")
def _matrix_solve(matrix, rhs, out, dout, adjoint=False):
    """X = A^-1 B: dB = A^-H dX and dA = -dB X^H (its conjugate transpose for ``adjoint``)."""
    grad_rhs = REGISTRY["MatrixSolve"](matrix, dout, adjoint=not adjoint)
    if adjoint:
        grad_matrix = F.neg(F.matmul(out, _hermitian(grad_rhs)))
    else:
        grad_matrix = F.neg(F.matmul(grad_rhs, _hermitian(out)))
    return grad_matrix, grad_rhs


@bprop("Trunc")
@bprop("TruncateDiv")
def _piecewise_constant(*args, **attrs):
    """Rounding is flat between its jumps: zero cotangents (as MindSpore gives)."""
    *ins, _, _ = args
    return tuple(F.zeros_like(x) if isinstance(x, Tensor) else None for x in ins)


@bprop("TruncateMod")
def _truncate_mod(x, y, out, dout):
    """x - trunc(x / y) * y: dx = dout, dy = -dout * trunc(x / y)."""
    dy = sum_to(F.neg(F.mul(dout, REGISTRY["TruncateDiv"](x, y))), y) \
        if isinstance(y, Tensor) else None
    return sum_to(dout, x), dy


@bprop("Xdivy")
def _xdivy(x, y, out, dout):
    """x / y where x != 0: dx = dout / y there, dy = -dout * x / y**2."""
    dx = F.div(dout, y)  # linear in dout (forward mode transposes this rule)
    dy = F.neg(F.mul(dout, REGISTRY["Xdivy"](out, y)))
    return sum_to(F.select(F.equal(x, 0), F.zeros_like(dx), dx), x), sum_to(dy, y)


@bprop("SquareSumAll")
def _square_sum_all(x, y, out, dout):
    return (_as(F.mul(F.mul(x, 2), dout[0]), x), _as(F.mul(F.mul(y, 2), dout[1]), y))


@_unary("Mish", wide=True)
def _mish(x, out):
    t = F.tanh(F.softplus(x))
    return F.add(t, F.mul(F.mul(x, F.sigmoid(x)), F.sub(1, F.mul(t, t))))


@_unary("ReLU6")
def _relu6(x, out):
    # (0, 6]: MindSpore 2.10's ReLU6 gradient passes at 6
    return F.cast(F.logical_and(F.greater(x, 0), F.less_equal(x, 6)), x.dtype)


@_unary("BesselI0", wide=True)
def _bessel_i0(x, out):
    return REGISTRY["BesselI1"](x)


@_unary("BesselI1", wide=True)
def _bessel_i1(x, out):
    # I0 - I1 / x, with I1 / x taken as 0 at 0 as MindSpore 2.10 does (its gradient at 0
    # is 1, not the limit 1/2)
    zero = F.equal(x, 0)
    ratio = F.select(zero, F.zeros_like(x), F.div(out, F.select(zero, F.ones_like(x), x)))
    return F.sub(REGISTRY["BesselI0"](x), ratio)


@_unary("SeLU", wide=True)
def _selu(x, out):
    return F.select(F.greater(x, 0), F.mul(F.ones_like(x), SELU_SCALE),
                    F.mul(F.exp(x), SELU_SCALE * SELU_ALPHA))


@bprop("SoftShrink")
def _soft_shrink(x, out, dout, lambd=0.5):
    return (REGISTRY["SoftShrinkGrad"](dout, x, lambd=lambd),)


@bprop("SoftShrinkGrad")
def _soft_shrink_grad(input_grad, input_x, out, dout, lambd=0.5):
    return REGISTRY["SoftShrinkGrad"](dout, input_x, lambd=lambd), F.zeros_like(input_x)


@bprop("MaskedFill")
def _masked_fill(input_x, mask, value, out, dout):
    """The filled positions take their cotangent from ``value``, the others from ``input``."""
    zeros = F.zeros_like(dout)
    dvalue = _as(F.reduce_sum(F.select(mask, dout, zeros)), value) \
        if isinstance(value, Tensor) else None
    return sum_to(F.select(mask, zeros, dout), input_x), None, dvalue


@bprop("PReLU")
def _prelu(x, weight, out, dout):
    count = weight.shape[0] if weight.ndim else 1
    view = (1, count) + (1,) * (x.ndim - 2) if x.ndim >= 2 else ()
    slopes = F.cast(F.reshape(weight, view), x.dtype)
    positive = F.greater(x, 0)
    dx = F.select(positive, dout, F.mul(dout, slopes))
    dw = F.select(positive, F.zeros_like(dout), F.mul(dout, x))
    others = tuple(a for a in range(x.ndim) if a != 1 or count == 1)
    dw = F.reduce_sum(dw, others) if others else dw
    return dx, _as(F.reshape(dw, weight.shape), weight)


@bprop("SpaceToDepth")
def _space_to_depth(x, out, dout, block_size=2):
    """The inverse rearrangement (DepthToSpace) of the cotangent."""
    n, c, h, w = shape_of(x)
    b = block_size
    g = F.reshape(dout, (n, b, b, c, h // b, w // b))
    return (F.reshape(F.transpose(g, (0, 3, 4, 1, 5, 2)), (n, c, h, w)),)


@bprop("ReverseSequence")
def _reverse_sequence(x, seq_lengths, out, dout, seq_dim=0, batch_dim=0):
    """Reversing is its own inverse."""
    return REGISTRY["ReverseSequence"](dout, seq_lengths, seq_dim=seq_dim,
                                       batch_dim=batch_dim), None


@bprop("Renorm")
def _renorm(x, out, dout, p=1, dim=0, maxnorm=5.0):
    """out = x * s(n), n the slice's p-norm, s = maxnorm / (n + eps) above maxnorm, else 1:
    dx = dout * s + x-independent slice sum(dout * x) * s'(n) * dn/dx."""
    xw, dw = _wide(x), _wide(dout)
    others = tuple(a for a in range(x.ndim) if a != dim % max(x.ndim, 1))
    magnitude = F.abs(xw)
    norm = F.pow(F.reduce_sum(F.pow(magnitude, p), others, True), 1.0 / p)
    over = F.greater(norm, maxnorm)
    scale = F.select(over, F.div(maxnorm, F.add(norm, RENORM_EPS)), F.ones_like(norm))
    slope = F.select(over, F.neg(F.div(maxnorm, F.square(F.add(norm, RENORM_EPS)))),
                     F.zeros_like(norm))
    # dn/dx = sign(x) |x|^(p-1) / n^(p-1)
    dnorm = F.div(F.mul(F.sign(xw), F.pow(magnitude, p - 1)), F.pow(norm, p - 1))
    coupled = F.mul(F.mul(F.reduce_sum(F.mul(dw, xw), others, True), slope), dnorm)
    return (_as(F.add(F.mul(dw, scale), coupled), x),)
