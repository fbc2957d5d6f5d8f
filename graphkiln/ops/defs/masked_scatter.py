"""``MaskedScatter``: ``x`` with the positions where ``mask`` (broadcast to ``x``'s shape)
holds replaced, in row-major order, by the leading elements of ``updates`` (flattened)."""
from __future__ import annotations

import numpy as np

from ...common import dtype as mstype
from ...ir.abstract import AbstractTensor
from ...ir.primitive import OpDef
from ._infer import NUMBERS, dims_match, require_dtype, tensor_type

# MindSpore 2.10's CPU kernel: these types, a bool mask
_TYPES = (mstype.bool_,) + tuple(t for t in NUMBERS if t is not mstype.bfloat16)


def _infer(x, mask, updates):
    t = tensor_type("MaskedScatter", "x", x)
    tm = tensor_type("MaskedScatter", "mask", mask)
    tu = tensor_type("MaskedScatter", "updates", updates)
    require_dtype("MaskedScatter", "x", t, _TYPES)
    if tm is not mstype.bool_:
        raise TypeError(f"For 'MaskedScatter', the 'mask' must be a Tensor[Bool], but got "
                        f"Tensor[{tm}].")
    if tu is not t:
        raise TypeError(f"For 'MaskedScatter', the 'updates' must have the type of 'x' "
                        f"(Tensor[{t}]), but got Tensor[{tu}].")
    lead = len(x.shape) - len(mask.shape)
    if lead < 0 or not all(m == 1 or dims_match(m, d)
                           for m, d in zip(mask.shape, x.shape[lead:])):
        raise ValueError(f"For 'MaskedScatter', the shape of 'mask': {tuple(mask.shape)} can "
                         f"not be broadcast to the shape of 'x': {tuple(x.shape)}.")
    return AbstractTensor(t, x.shape)


def _kernel(x, mask, updates):
    x = np.asarray(x)
    where = np.broadcast_to(mask, x.shape)
    count = int(np.count_nonzero(where))
    flat = np.asarray(updates).reshape(-1)
    if flat.size < count:
        raise ValueError("For 'MaskedScatter', number of elements of updates < number of ones "
                         "in mask.")
    out = x.copy()
    out[where] = flat[:count]
    return out


MaskedScatter = OpDef("MaskedScatter", _infer, _kernel)
