"""Backward and batching rules of ``BinaryCrossEntropy`` and ``BCEWithLogitsLoss``
(:mod:`..defs.bce`). As MindSpore's, they give ``weight`` and ``pos_weight`` zero cotangents,
the probabilities/logits and the labels their derivatives."""
from __future__ import annotations

import graphkiln.ops.functional as F

from ...ir.primitive import REGISTRY
from ..defs.bce import EPS
from .batching import _loop_over_batch
from .bprop import _as, _wide, bprop, count, sum_to
from .bprop import _spread as spread


def _spread(dout, like, reduction: str):
    """The loss cotangent per element: ``dout`` itself, or spread over ``like`` (divided by
    the element count for ``mean``)."""
    if reduction == "none":
        return dout
    axes = tuple(range(like.ndim))
    g = spread(dout, like, axes)  # (a dynamic shape's sizes are read when the graph runs)
    if reduction != "mean":
        return g
    n = count(like, axes)
    return F.div(g, float(max(n, 1)) if isinstance(n, int) else n)


@bprop("BinaryCrossEntropy")
def _bce(*args, reduction="mean"):
    *ins, _, dout = args  # (x, y) or (x, y, weight)
    x, y, weight = (ins + [None])[:3]
    xw, yw = _wide(x), _wide(y)
    g = _spread(_wide(dout), xw, reduction)
    if weight is not None:
        g = F.mul(g, _wide(weight))
    dx = F.div(F.mul(g, F.sub(xw, yw)), F.maximum(F.mul(xw, F.sub(1.0, xw)), EPS))
    dy = F.mul(g, F.sub(F.log(F.maximum(F.sub(1.0, xw), EPS)), F.log(F.maximum(xw, EPS))))
    zero_w = () if len(ins) == 2 else (None if weight is None else F.zeros_like(weight),)
    return (_as(dx, x), _as(dy, y)) + zero_w


@bprop("BCEWithLogitsLoss")
def _bce_logits(logits, label, weight, pos_weight, out, dout, reduction="mean"):
    x, y = _wide(logits), _wide(label)
    w, pw = _wide(weight), _wide(pos_weight)
    g = F.mul(_spread(_wide(dout), x, reduction), w)
    log_weight = F.add(F.mul(F.sub(pw, 1.0), y), 1.0)
    soft = F.softplus(F.neg(x))
    dx = F.mul(g, F.sub(F.sub(1.0, y), F.mul(log_weight, F.sigmoid(F.neg(x)))))
    dy = F.mul(g, F.add(F.neg(x), F.mul(F.sub(pw, 1.0), soft)))
    return (_as(sum_to(dx, logits), logits), _as(sum_to(dy, label), label),
            F.zeros_like(weight), F.zeros_like(pos_weight))


for _name in ("BinaryCrossEntropy", "BCEWithLogitsLoss"):
    REGISTRY[_name].def_vmap(_loop_over_batch(REGISTRY[_name]))
del _name
