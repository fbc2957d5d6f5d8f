"""Backward and batching rules of ``CumSum``, ``CumProd``, ``Cummin`` and ``Cummax``
(:mod:`..defs.cumulative`)."""
from __future__ import annotations

import numpy as np

import graphkiln.ops.functional as F

from ...common.tensor import Tensor
from ...ir.primitive import REGISTRY
from ..defs import cumulative as C
from .batching import front, to_front
from .bprop import _output, bprop


@bprop("CumSum")
def _cumsum(x, axis, out, dout, exclusive=False, reverse=False):
    """Each element feeds every later running sum: the running sum of ``dout`` from the
    other end."""
    return C.CumSum(dout, axis, exclusive=exclusive, reverse=not reverse), None


@bprop("CumProd")
def _cumprod(x, axis, out, dout, exclusive=False, reverse=False):
    """MindSpore's rule: the running sum (from the other end) of ``dout * out``, over ``x``
    (so infinite or NaN where ``x`` is 0, as MindSpore's)."""
    back = C.CumSum(F.mul(out, dout), axis, exclusive=exclusive, reverse=not reverse)
    return F.div(back, x), None


@bprop("CumulativeLogsumexp")
def _cumulative_logsumexp(x, axis, out, dout, exclusive=False, reverse=False):
    """``d out_i / d x_j = exp(x_j - out_i)`` for each ``out_i`` that ``x_j`` feeds: the
    ``dout``-weighted sum over them, from the other end (exact where ``x_j`` is far below
    ``out_i``, and linear in ``dout``, so forward mode can transpose it)."""
    if reverse:  # the same from the other end
        a = (C.check_axis("CumulativeLogsumexp", axis, x.ndim),) if x.ndim else ()
        flip = (lambda t: F.flip(t, a)) if a else (lambda t: t)
        return flip(C.LogWeightedCumSum(flip(dout), flip(x), flip(out), axis,
                                        exclusive=exclusive, reverse=True)), None
    return C.LogWeightedCumSum(dout, x, out, axis, exclusive=exclusive, reverse=True), None


@bprop("LogWeightedCumSum")
def _log_weighted_cumsum(v, a, b, axis, out, dout, exclusive=False, reverse=False):
    """The transpose in ``v`` sums from the other end; ``d/da_j`` and ``d/db_i`` scale the
    terms that hold them."""
    back = C.LogWeightedCumSum(dout, a, b, axis, exclusive=exclusive, reverse=not reverse)
    if reverse:  # out_j = exp(a_j) * (...): a's terms are the outputs', b's the inputs'
        return back, F.mul(dout, out), F.neg(F.mul(v, back)), None
    return back, F.mul(v, back), F.neg(F.mul(dout, out)), None


def _move_last(t: Tensor, a: int) -> Tensor:
    perm = tuple(i for i in range(t.ndim) if i != a) + (a,)
    return F.transpose(t, perm)


def _move_back(t: Tensor, a: int) -> Tensor:
    perm = list(range(t.ndim - 1))
    perm.insert(a, t.ndim - 1)
    return F.transpose(t, tuple(perm))


def _running_minmax_backward(name: str):
    def rule(x, axis, out, dout):
        """``dout`` of each running value goes to the element it came from (its index)."""
        if x.ndim == 0:
            return dout[0], None
        a = C.check_axis(name, axis, x.ndim)
        indices = _output(out, 1, lambda: REGISTRY[name](x, axis))
        idx, g = _move_last(indices, a), _move_last(dout[0], a)
        n = x.shape[a]
        hits = F.equal(F.expand_dims(idx, -1), Tensor(np.arange(n, dtype=np.int64)))
        dx = F.reduce_sum(F.mul(F.expand_dims(g, -1), F.cast(hits, g.dtype)), -2)
        return _move_back(dx, a), None
    rule.__name__ = f"bprop_{name}"
    return rule


for _name in ("Cummin", "Cummax"):
    REGISTRY[_name].def_bprop(_running_minmax_backward(_name))


def _shifted_axis(opdef):
    """The batch axis first; ``axis`` counts the example's axes, so it moves up by one."""
    def rule(x, axis, *, dims, **attrs):
        xb = to_front(x, dims[0])
        out = opdef(xb, C.check_axis(opdef.name, axis, xb.ndim - 1) + 1, **attrs)
        return out, (0, 0) if isinstance(out, tuple) else 0
    rule.__name__ = f"vmap_{opdef.name}"
    return rule


for _name in ("CumSum", "CumProd", "CumulativeLogsumexp", "Cummin", "Cummax"):
    REGISTRY[_name].def_vmap(_shifted_axis(REGISTRY[_name]))


@C.LogWeightedCumSum.def_vmap
def _vmap_log_weighted(v, a, b, axis, *, dims, **attrs):
    size = next(t.shape[d] for t, d in zip((v, a, b), dims) if d is not None)
    v, a, b = (front(t, d, size) for t, d in zip((v, a, b), dims))
    return C.LogWeightedCumSum(v, a, b, C.check_axis("LogWeightedCumSum", axis,
                                                     v.ndim - 1) + 1, **attrs), 0
del _name
