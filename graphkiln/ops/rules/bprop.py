"""Backward rules: one per differentiable primitive, each ``(*inputs, out, dout, **attrs)
-> cotangent per input`` (``None`` where an input has none), written with ops so they run
eagerly and trace into graphs alike."""
from __future__ import annotations

from ...common.tensor import Tensor
from .. import functional as F
from ..primitive import REGISTRY


def bprop(name: str):
    def register(fn):
        return REGISTRY[name].def_bprop(fn)
    return register


def sum_to(g: Tensor, x) -> Tensor:
    """Reduce a broadcast cotangent ``g`` back to ``x``'s shape (and dtype)."""
    if not isinstance(x, Tensor):
        return None
    shape = x.shape
    if g.shape != shape:
        lead = len(g.shape) - len(shape)
        axes = tuple(range(lead)) + tuple(
            i + lead for i, d in enumerate(shape) if d == 1 and g.shape[i + lead] != 1)
        if axes:
            g = F.reduce_sum(g, axes, True)
        if lead or g.shape != shape:
            g = F.reshape(g, shape)
    if g.dtype is not x.dtype:
        g = F.cast(g, x.dtype)
    return g


@bprop("Add")
def _add(x, y, out, dout):
    return sum_to(dout, x), sum_to(dout, y)


@bprop("Sub")
def _sub(x, y, out, dout):
    return sum_to(dout, x), sum_to(F.neg(dout), y)


@bprop("Mul")
def _mul(x, y, out, dout):
    return sum_to(F.mul(dout, y), x), sum_to(F.mul(dout, x), y)


@bprop("Div")
def _div(x, y, out, dout):
    dx = F.div(dout, y)
    return sum_to(dx, x), sum_to(F.neg(F.mul(dx, out)), y)


@bprop("Neg")
def _neg(x, out, dout):
    return (F.neg(dout),)


@bprop("AddN")
def _addn(xs, out, dout):
    return (tuple(dout for _ in xs),)


@bprop("Cast")
def _cast(x, t, out, dout):
    return F.cast(dout, x.dtype), None


@bprop("Reshape")
def _reshape(x, shape, out, dout):
    return F.reshape(dout, x.shape), None


@bprop("TensorMove")
def _tensor_move(x, out, dout):
    return (dout,)
