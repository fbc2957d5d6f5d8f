"""``ops.cumsum``, ``ops.cummin`` and ``ops.cummax`` (see :mod:`.defs.cumulative`)."""
from __future__ import annotations

from ..common import dtype as mstype
from ..common.tensor import Tensor
from .defs import array as A
from .defs import cumulative as C

__all__ = ["cumsum", "cummin", "cummax"]


def cumsum(x: Tensor, axis: int, dtype=None) -> Tensor:
    """The running sum along ``axis``, computed in ``dtype`` when it is given."""
    if dtype is not None:
        x = A.Cast(x, mstype.to_type(dtype))
    return C.CumSum(x, axis)


def cummin(input: Tensor, axis: int) -> tuple[Tensor, Tensor]:  # noqa: A002
    """The running minimum along ``axis`` and the (int32) index where each was reached."""
    return C.Cummin(input, axis)


def cummax(input: Tensor, axis: int) -> tuple[Tensor, Tensor]:  # noqa: A002
    """The running maximum along ``axis`` and the (int64) index where each was reached."""
    return C.Cummax(input, axis)
