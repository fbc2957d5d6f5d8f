"""Backward and batching rules of the primitives in :mod:`..defs.elementwise`."""
from __future__ import annotations

import math

import graphkiln.ops.functional as F

from ...ir.primitive import REGISTRY
from ..defs import bias_add_grad as BG
from .batching import _elementwise, _loop_over_batch, batch_size, front, rule_for
from .bprop import _as, _unary, _wide, bprop

for _name in ("Inv", "Invert", "Erfc", "Erfinv", "Asinh", "Acosh", "Atanh", "IsNan", "IsInf",
              "IsFinite", "Elu", "CeLU", "HShrink", "FastGeLU"):
    REGISTRY[_name].def_vmap(_elementwise(REGISTRY[_name]))


def _same_shape_pair(opdef):
    """The backward kernels take inputs of one shape: all batched along axis 0."""
    def rule(*args, dims, **attrs):
        size = batch_size(args, dims)
        return opdef(*(front(a, d, size) for a, d in zip(args, dims)), **attrs), 0
    rule.__name__ = f"vmap_{opdef.name}"
    return rule


for _name in ("InvGrad", "ReciprocalGrad", "RsqrtGrad", "SqrtGrad", "TanhGrad", "AtanGrad",
              "EluGrad",
              "HShrinkGrad", "FastGeLUGrad", "HSigmoidGrad", "HSwishGrad", "GeLUGrad",
              "SoftplusGrad"):
    REGISTRY[_name].def_vmap(_same_shape_pair(REGISTRY[_name]))
del _name
REGISTRY["BiasAddGrad"].def_vmap(_loop_over_batch(REGISTRY["BiasAddGrad"]))


def _conj(d):
    """A complex input's cotangent is ``dout`` times the conjugate derivative (MindSpore)."""
    return F.conj(d) if d.dtype.is_complex else d


@_unary("Inv", wide=True)
def _inv(x, out):
    return _conj(F.neg(F.mul(out, out)))


@_unary("Erfc", wide=True)
def _erfc(x, out):
    return F.mul(F.exp(F.neg(F.mul(x, x))), -2 / math.sqrt(math.pi))


@_unary("Erfinv", wide=True)
def _erfinv(x, out):
    return F.mul(F.exp(F.mul(out, out)), math.sqrt(math.pi) / 2)


@_unary("Asinh", wide=True)
def _asinh(x, out):
    return _conj(F.rsqrt(F.add(F.mul(x, x), 1.0)))


@_unary("Acosh", wide=True)
def _acosh(x, out):
    return _conj(F.rsqrt(F.sub(F.mul(x, x), 1.0)))


@_unary("Atanh", wide=True)
def _atanh(x, out):
    return _conj(F.div(1.0, F.sub(1.0, F.mul(x, x))))


@_unary("Elu", wide=True)
def _elu(x, out, alpha=1.0):
    return F.select(F.greater(x, 0), F.ones_like(x), F.add(out, alpha))


@_unary("CeLU", wide=True)
def _celu(x, out, alpha=1.0):
    return F.select(F.greater(x, 0), F.ones_like(x), F.exp(F.div(x, alpha)))


@_unary("HShrink")
def _hshrink(x, out, lambd=0.5):
    return F.cast(F.greater(F.abs(x), lambd), x.dtype)


@_unary("FastGeLU", wide=True)
def _fast_gelu(x, out):
    s = F.sigmoid(F.mul(x, 1.702))
    return F.add(s, F.mul(F.mul(x, 1.702), F.mul(s, F.sub(1.0, s))))


@bprop("InvGrad")
def _inv_grad(y, dy, out, dout):
    yw, dyw, dw = _wide(y), _wide(dy), _wide(dout)
    return (_as(F.mul(F.mul(F.mul(dw, dyw), _conj(yw)), -2.0), y),
            _as(F.mul(dw, _conj(F.neg(F.mul(yw, yw)))), dy))


bprop("ReciprocalGrad")(_inv_grad)


@bprop("SqrtGrad")
def _sqrt_grad(y, dy, out, dout):
    """MindSpore's rule: ``(-dout / y * out, dout / (2 y))``."""
    yw, dw = _wide(y), _wide(dout)
    per_y = F.div(dw, yw)
    return _as(F.neg(F.mul(per_y, _wide(out))), y), _as(F.mul(per_y, 0.5), dy)


@bprop("RsqrtGrad")
def _rsqrt_grad(y, dy, out, dout):
    yw, dyw, dw = _wide(y), _wide(dy), _wide(dout)
    y2 = F.mul(yw, yw)
    return (_as(F.mul(F.mul(dw, dyw), _conj(F.mul(y2, -1.5))), y),
            _as(F.mul(dw, _conj(F.mul(F.mul(y2, yw), -0.5))), dy))


@bprop("TanhGrad")
def _tanh_grad(y, dy, out, dout):
    """``(-2 y dy dout, (1 - y**2) dout)``, conjugated for complex numbers."""
    yw, dyw, dw = _wide(y), _wide(dy), _wide(dout)
    return (_as(F.mul(dw, _conj(F.mul(F.mul(yw, dyw), -2.0))), y),
            _as(F.mul(dw, _conj(F.sub(1.0, F.mul(yw, yw)))), dy))


@bprop("AtanGrad")
def _atan_grad(x, dy, out, dout):
    xw, dyw, dw = _wide(x), _wide(dy), _wide(dout)
    inv = F.div(1.0, F.add(F.mul(xw, xw), 1.0))
    dx = F.mul(F.mul(F.mul(dw, dyw), _conj(F.mul(F.mul(inv, inv), xw))), -2.0)
    return _as(dx, x), _as(F.mul(dw, _conj(inv)), dy)


@bprop("EluGrad")
def _elu_grad(dy, y, out, dout):
    positive = F.greater(y, 0)
    ddy = F.select(positive, dout, F.mul(dout, F.add(y, 1.0)))
    dyy = F.select(positive, F.zeros_like(dout), F.mul(dout, dy))
    return ddy, dyy


@bprop("HShrinkGrad")
def _hshrink_grad(gradients, features, out, dout, lambd=0.5):
    keep = F.greater(F.abs(features), lambd)
    return F.select(keep, dout, F.zeros_like(dout)), F.zeros_like(features)


@bprop("Ger")
def _ger(x1, x2, out, dout):
    return F.matmul(dout, x2), F.matmul(x1, dout)


@rule_for("Ger")
def _ger_vmap(x1, x2, *, dims):
    size = batch_size((x1, x2), dims)
    a, b = front(x1, dims[0], size), front(x2, dims[1], size)
    return F.mul(F.expand_dims(a, 2), F.expand_dims(b, 1)), 0


@bprop("FastGeLUGrad")
def _fast_gelu_grad(dy, x, out, dout):
    xw, dyw, dw = _wide(x), _wide(dy), _wide(dout)
    s = F.sigmoid(F.mul(xw, 1.702))
    first = F.add(s, F.mul(F.mul(xw, 1.702), F.mul(s, F.sub(1.0, s))))
    # d/dx of s + k x s (1 - s) = k s (1 - s) (2 + k x (1 - 2 s))
    ks = F.mul(F.mul(s, F.sub(1.0, s)), 1.702)
    second = F.mul(ks, F.add(F.mul(F.mul(xw, 1.702), F.sub(1.0, F.mul(s, 2.0))), 2.0))
    return _as(F.mul(dw, first), dy), _as(F.mul(F.mul(dw, dyw), second), x)


@bprop("BiasAddGrad")
def _bias_add_grad(dout_in, out, dout, data_format="NCHW"):
    """The bias cotangent broadcast back over every axis but the channel axis."""
    axis = BG.channel_axis(dout_in.ndim, data_format)
    shape = [1] * dout_in.ndim
    shape[axis] = -1
    return (F.broadcast_to(F.reshape(dout, tuple(shape)), dout_in.shape),)


@bprop("HSigmoidGrad")
def _hsigmoid_grad(grads, x, out, dout):
    inside = F.logical_and(F.greater(x, -3.0), F.less(x, 3.0))
    return F.select(inside, F.div(dout, 6.0), F.zeros_like(dout)), F.zeros_like(x)


@bprop("SoftplusGrad")
def _softplus_grad(dy, x, out, dout):
    """``out = dy * s`` with ``s = sigmoid(x)``: ``d/d dy = s``, ``d/dx = dy * s * (1 - s)``."""
    s = F.sigmoid(_wide(x))
    dw = _wide(dout)
    return (_as(F.mul(dw, s), dy),
            _as(F.mul(F.mul(dw, _wide(dy)), F.mul(s, F.sub(1.0, s))), x))


@bprop("HSwishGrad")
def _hswish_grad(dy, x, out, dout):
    slope = REGISTRY["HSwishGrad"](F.ones_like(dy), x)
    inside = F.logical_and(F.greater_equal(x, -3.0), F.less_equal(x, 3.0))
    curve = F.select(inside, F.mul(F.mul(dout, dy), 1 / 3), F.zeros_like(dout))
    return F.mul(dout, slope), curve


_SQRT_2_OVER_PI = math.sqrt(2.0 / math.pi)
_GELU_A = 0.044715


@bprop("GeLUGrad")
def _gelu_grad(dy, x, y, out, dout):
    """``d(dy g'(x))``: ``g'`` for ``dy``; ``dy g''(x)`` for ``x``, with ``u`` the tanh's
    argument, ``g'' = (1 - t^2) (u' + x (u'' - 2 t u'^2) / 2)``."""
    xw, dyw, dw = _wide(x), _wide(dy), _wide(dout)
    x2 = F.mul(xw, xw)
    t = F.tanh(F.mul(F.mul(xw, F.add(F.mul(x2, _GELU_A), 1.0)), _SQRT_2_OVER_PI))
    du = F.mul(F.add(F.mul(x2, 3 * _GELU_A), 1.0), _SQRT_2_OVER_PI)
    ddu = F.mul(xw, 6 * _GELU_A * _SQRT_2_OVER_PI)
    sech2 = F.sub(1.0, F.mul(t, t))
    first = F.add(F.mul(F.add(t, 1.0), 0.5), F.mul(F.mul(F.mul(xw, 0.5), sech2), du))
    bend = F.sub(ddu, F.mul(F.mul(t, 2.0), F.mul(du, du)))
    second = F.mul(sech2, F.add(du, F.mul(F.mul(xw, 0.5), bend)))
    return (_as(F.mul(dw, first), dy), _as(F.mul(F.mul(dw, dyw), second), x),
            F.zeros_like(y))
