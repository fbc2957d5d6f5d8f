"""``DataFormatDimMap``: a dimension index of one 4-D data format (``NHWC``/``NCHW``) mapped
to the index of the same dimension in the other. Indices are taken modulo 4, so [-4, 4)
(MindSpore's suggested range) and anything else wrap, as MindSpore's CPU kernel does."""
from __future__ import annotations

import numpy as np

from ...common import dtype as mstype
from ...ir.abstract import AbstractTensor
from ...ir.primitive import OpDef
from ._infer import require_dtype, tensor_type

_FORMATS = ("NHWC", "NCHW")


def _check_formats(attrs: dict) -> None:
    for arg in ("src_format", "dst_format"):
        v = attrs[arg]
        if v not in _FORMATS:
            raise ValueError(f"For 'DataFormatDimMap', the '{arg}' must be str and must be in "
                             f"'{list(_FORMATS)}', but got '{v}'.")


def _infer(x, src_format="NHWC", dst_format="NCHW"):
    t = tensor_type("DataFormatDimMap", "input_x", x)
    require_dtype("DataFormatDimMap", "input_x", t, (mstype.int32, mstype.int64))
    return AbstractTensor(t, tuple(x.shape))


def _kernel(x, src_format="NHWC", dst_format="NCHW"):
    """Position ``i`` of the result format holds source dimension ``table[i]``."""
    table = np.array([src_format.index(d) for d in dst_format], x.dtype)
    return table[np.mod(x, 4)]


DataFormatDimMap = OpDef("DataFormatDimMap", _infer, _kernel,
                         attrs={"src_format": "NHWC", "dst_format": "NCHW"},
                         check_attrs=_check_formats, differentiable=False)
