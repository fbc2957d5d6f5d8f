"""``BiasAddGrad(dout)``: the backward of ``BiasAdd`` for the bias, ``dout`` summed over every
axis but the channel axis (axis 1 for ``NCHW``/``NCDHW``, the last for ``NHWC``), in
``dout``'s type (integers wrap, as on MindSpore)."""
from __future__ import annotations

import numpy as np

from ...ir.abstract import AbstractTensor
from ...ir.primitive import OpDef
from ._infer import COMPLEX, NUMBERS, require_dtype, tensor_type
from .math import _WIDE_UINTS

_TYPES = NUMBERS + _WIDE_UINTS + COMPLEX


def channel_axis(ndim: int, data_format: str) -> int:
    return ndim - 1 if data_format == "NHWC" else 1


def _infer(dout, data_format="NCHW"):
    t = tensor_type("BiasAddGrad", "dout", dout)
    require_dtype("BiasAddGrad", "dout", t, _TYPES)
    if data_format not in ("NCHW", "NHWC", "NCDHW"):
        raise ValueError(f"For 'BiasAddGrad', the 'data_format' must be 'NCHW', 'NHWC' or "
                         f"'NCDHW', but got {data_format!r}.")
    if len(dout.shape) < 2:
        raise ValueError(f"For 'BiasAddGrad', the dimension of 'dout' must be >= 2, but got "
                         f"{len(dout.shape)}.")
    return AbstractTensor(t, (dout.shape[channel_axis(len(dout.shape), data_format)],))


def _kernel(dout, data_format="NCHW"):
    dout = np.asarray(dout)
    axis = channel_axis(dout.ndim, data_format)
    others = tuple(i for i in range(dout.ndim) if i != axis)
    return np.sum(dout, axis=others, dtype=dout.dtype)


BiasAddGrad = OpDef("BiasAddGrad", _infer, _kernel, attrs={"data_format": "NCHW"})
