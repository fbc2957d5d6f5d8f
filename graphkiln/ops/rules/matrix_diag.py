"""Backward and batching rules of ``MatrixDiagV3``, ``MatrixDiagPartV3`` and
``MatrixSetDiagV3`` (:mod:`..defs.matrix_diag`): each reads or writes the band the others
write or read, so each one's backward is made of the others; under vmap the batch axis is
one more leading axis of the matrices (a batched ``k`` or size goes example by example)."""
from __future__ import annotations

import graphkiln.ops.functional as F

from ..defs import matrix_diag as MD
from .batching import batch_size, batched, front, rule_for, to_front
from .batching_nn import per_example
from .bprop import bprop


def _zero(t):
    return F.zeros((), t.dtype)


# ``padding_value``'s cotangent is zero, as MindSpore's backward rules define it


@bprop("MatrixDiagV3")
def _matrix_diag(x, k, num_rows, num_cols, padding_value, out, dout, align="RIGHT_LEFT"):
    dx = MD.MatrixDiagPartV3(dout, k, _zero(dout), align=align)
    return dx, None, None, None, F.zeros_like(padding_value)


@bprop("MatrixDiagPartV3")
def _matrix_diag_part(x, k, padding_value, out, dout, align="RIGHT_LEFT"):
    dx = MD.MatrixSetDiagV3(F.zeros_like(x), dout, k, align=align)
    return dx, None, F.zeros_like(padding_value)


@bprop("MatrixSetDiagV3")
def _matrix_set_diag(x, diagonal, k, out, dout, align="RIGHT_LEFT"):
    dx = MD.MatrixSetDiagV3(dout, F.zeros_like(diagonal), k, align=align)
    return dx, F.cast(MD.MatrixDiagPartV3(dout, k, _zero(dout), align=align),
                      diagonal.dtype), None


@rule_for("MatrixDiagV3", "MatrixDiagPartV3")
def _batch_band(x, *args, dims, **attrs):
    op = MD.MatrixDiagV3 if len(args) == 4 else MD.MatrixDiagPartV3
    if any(batched(d) for d in dims[1:]):
        return per_example(op, (x, *args), dims, attrs)
    return op(to_front(x, dims[0]), *args, **attrs), 0


@rule_for("MatrixSetDiagV3")
def _batch_set(x, diagonal, k, *, dims, **attrs):
    if batched(dims[2]):
        return per_example(MD.MatrixSetDiagV3, (x, diagonal, k), dims, attrs)
    size = batch_size((x, diagonal), dims[:2])
    return MD.MatrixSetDiagV3(front(x, dims[0], size), front(diagonal, dims[1], size), k,
                              **attrs), 0
