"""``TraceV2Grad(dout, shape, offset, axis1, axis2)``: the gradient of ``TraceV2`` (the sum
of a diagonal over two axes), as MindSpore's: zeros of ``shape`` (a 1-D int Tensor, so the
output's dims are known when the graph runs unless it is a constant) holding ``dout`` (the
other axes' values) on the ``offset`` diagonal of ``axis1``/``axis2``."""
from __future__ import annotations

import numpy as np

from ...common import dtype as mstype
from ...ir.abstract import AbstractTensor
from ...ir.primitive import OpDef
from ._infer import UNKNOWN_DIM, require_dtype, tensor_type

_NAME = "TraceV2Grad"


def _infer(dout, shape, offset=0, axis1=1, axis2=0):
    t = tensor_type(_NAME, "dout", dout)
    require_dtype(_NAME, "shape", tensor_type(_NAME, "shape", shape),
                  (mstype.int32, mstype.int64))
    if len(shape.shape) != 1 or shape.shape[0] == UNKNOWN_DIM:
        raise ValueError(f"For '{_NAME}', the 'shape' must be a 1-D Tensor of known length, "
                         f"but got shape {list(shape.shape)}.")
    known = shape.value
    dims = (tuple(int(d) for d in np.asarray(known)) if known is not None
            else (UNKNOWN_DIM,) * shape.shape[0])
    return AbstractTensor(t, dims)


def _kernel(dout, shape, offset=0, axis1=1, axis2=0):
    dout = np.asarray(dout)
    shape = tuple(int(d) for d in np.asarray(shape))
    out = np.zeros(shape, dout.dtype)
    plane = np.moveaxis(out, (axis1, axis2), (-2, -1))
    rows, cols = plane.shape[-2:]
    start_r, start_c = (-offset, 0) if offset < 0 else (0, offset)
    for i in range(max(min(rows - start_r, cols - start_c), 0)):
        plane[..., start_r + i, start_c + i] = dout
    return out


# (dout, shape, offset, axis1, axis2) -> d input of TraceV2 (see the module docstring)
TraceV2Grad = OpDef(_NAME, _infer, _kernel, differentiable=False)
