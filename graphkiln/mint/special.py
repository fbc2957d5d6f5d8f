"""``mindspore.mint.special``: special functions (``erfc``, ``expm1``, ``exp2``, ``round``,
``sinc``, ``log1p``, ``log_softmax``)."""
from __future__ import annotations

import graphkiln.ops as ops

from ..ops import erfc, expm1, log1p, sinc  # noqa: F401
from .nn.functional import log_softmax  # noqa: F401


def exp2(input):
    """``2 ** input``."""
    return ops.pow(2.0, input)


def round(input, *, decimals=0):  # noqa: A001
    return ops.round(input, decimals=decimals)


__all__ = ["erfc", "expm1", "exp2", "round", "sinc", "log1p", "log_softmax"]
