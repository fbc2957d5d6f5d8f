"""Backward and batching rules of ``PadV3`` and ``PadV3Grad`` (:mod:`..defs.pad_v3`).

Both are linear in their first input (``PadV3`` with the constant 0), each the other's
transpose, so each one's backward is the other one."""
from __future__ import annotations

import graphkiln.ops.functional as F

from ..defs import array as A
from ..defs import pad_v3 as PV
from ..dynamic_shape import shape_of
from .batching import batched, rule_for, to_front
from .batching_nn import per_example
from .bprop import bprop


@bprop("PadV3")
def _pad_v3(*args, **attrs):
    (_, paddings, *value), dout = args[:-2], args[-1]
    dx = PV.PadV3Grad(dout, paddings, **attrs)
    if not value:
        return dx, None
    # the constant fills every output position no input element was copied to
    if attrs.get("mode", "constant") == "constant":
        d_value = F.sub(F.reduce_sum(dout), F.reduce_sum(dx))
    else:
        d_value = F.zeros_like(value[0])
    return dx, None, F.cast(F.reshape(d_value, tuple(value[0].shape)), value[0].dtype)


@bprop("PadV3Grad")
def _pad_v3_grad(dout, paddings, out, ddx, **attrs):
    zero = (F.zeros((), ddx.dtype),) if attrs.get("mode", "constant") == "constant" else ()
    return PV.PadV3(ddx, paddings, *zero, **attrs), None


def _batch_rule(op) -> None:
    @rule_for(op.name)
    def rule(*args, dims, **attrs):
        """The batch axis first (the paddings cover the last dimensions only); each example
        on its own when the paddings or the constant are batched."""
        if any(batched(d) for d in dims[1:]):
            return per_example(op, args, dims, attrs)
        x = to_front(args[0], dims[0])
        if attrs.get("mode", "constant") == "constant":
            return op(x, *args[1:], **attrs), 0
        # the other modes pad 3-D to 5-D inputs: the batch folds into the first axis
        lead = tuple(x.shape[:2])
        out = op(A.Reshape(x, (lead[0] * lead[1],) + tuple(x.shape[2:])), *args[1:], **attrs)
        return A.Reshape(out, lead + tuple(shape_of(out)[1:])), 0


_batch_rule(PV.PadV3)
_batch_rule(PV.PadV3Grad)
