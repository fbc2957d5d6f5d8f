"""Backward and batching rules of ``Dropout2D``/``Dropout3D`` (:mod:`..defs.dropout_nd`)."""
from __future__ import annotations

import graphkiln.ops.functional as F

from ...ir.primitive import REGISTRY
from ..defs import array as A
from .batching import batch_size
from .bprop import _as, _output


def _backward(opdef):
    """``dout * mask / keep_prob`` (zero when ``keep_prob`` is 0), with the forward mask."""
    def rule(*args, **attrs):
        *ins, out, dout = args
        mask = _output(out, 1, lambda: opdef(*ins, **attrs))
        keep_prob = attrs.get("keep_prob", opdef.attrs["keep_prob"])
        scale = 0.0 if keep_prob == 0 else 1.0 / keep_prob
        dx = F.mul(F.mul(dout[0], F.cast(mask, dout[0].dtype)), scale)
        return (_as(dx, ins[0]),) + (None,) * (len(ins) - 1)
    rule.__name__ = f"bprop_{opdef.name}"
    return rule


def _per_example(opdef):
    """Each example dropped on its own; the results and the masks stacked."""
    def rule(*args, dims, **attrs):
        outs, masks = [], []
        for k in range(batch_size(args, dims)):
            y, m = opdef(*[a if d is None else A.Getitem(a, (slice(None),) * d + (k,))
                           for a, d in zip(args, dims)], **attrs)
            outs.append(y)
            masks.append(m)
        return (A.Stack(tuple(outs), axis=0), A.Stack(tuple(masks), axis=0)), (0, 0)
    rule.__name__ = f"vmap_{opdef.name}"
    return rule


for _name in ("Dropout2D", "Dropout3D"):
    REGISTRY[_name].def_vmap(_per_example(REGISTRY[_name]))
    REGISTRY[_name].def_bprop(_backward(REGISTRY[_name]))
del _name
