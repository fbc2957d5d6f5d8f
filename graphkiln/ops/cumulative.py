"""``ops.cumsum``, ``ops.cumprod``, ``ops.logcumsumexp``, ``ops.cummin`` and ``ops.cummax``
(see :mod:`.defs.cumulative`)."""
from __future__ import annotations

from ..common import dtype as mstype
from ..common.tensor import Tensor
from .defs import array as A
from .defs import cumulative as C

__all__ = ["cumsum", "cumprod", "logcumsumexp", "cummin", "cummax"]


def cumsum(x: Tensor, axis: int, dtype=None) -> Tensor:
    """The running sum along ``axis``, computed in ``dtype`` when it is given."""
    if dtype is not None:
        x = A.Cast(x, mstype.to_type(dtype))
    return C.CumSum(x, axis)


def cumprod(input: Tensor, dim: int, dtype=None) -> Tensor:  # noqa: A002
    """The running product along ``dim``, computed in ``dtype`` when it is given (int64 for
    integer and bool inputs without it, as MindSpore's)."""
    if dtype is not None:
        input = A.Cast(input, mstype.to_type(dtype))
    elif isinstance(input, Tensor) and (input.dtype.is_int or input.dtype == mstype.bool_):
        input = A.Cast(input, mstype.int64)
    return C.CumProd(input, dim)


def logcumsumexp(input: Tensor, axis: int) -> Tensor:  # noqa: A002
    """``log(cumsum(exp(input), axis))``, added up one ``logaddexp`` step at a time (no
    overflow, and no underflow for elements far below the running maximum)."""
    if not isinstance(input, Tensor):
        raise TypeError(f"For 'logcumsumexp', the 'input' must be a Tensor, but got "
                        f"{type(input).__name__}.")
    if not input.dtype.is_float:
        raise TypeError(f"For 'logcumsumexp', the 'input' must be a float Tensor, but got "
                        f"{input.dtype}.")
    if not input.ndim:
        raise ValueError("For 'logcumsumexp', the dimension of 'input' must be greater than 0, "
                         "but got a 0-D Tensor.")
    return C.CumulativeLogsumexp(input, C.check_axis("logcumsumexp", axis, input.ndim))


def cummin(input: Tensor, axis: int) -> tuple[Tensor, Tensor]:  # noqa: A002
    """The running minimum along ``axis`` and the (int32) index where each was reached."""
    return C.Cummin(input, axis)


def cummax(input: Tensor, axis: int) -> tuple[Tensor, Tensor]:  # noqa: A002
    """The running maximum along ``axis`` and the (int64) index where each was reached."""
    return C.Cummax(input, axis)
