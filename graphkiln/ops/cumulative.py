"""``ops.cumsum``, ``ops.cumprod``, ``ops.logcumsumexp``, ``ops.cummin`` and ``ops.cummax``
(see :mod:`.defs.cumulative`)."""
from __future__ import annotations

from ..common import dtype as mstype
from ..common.tensor import Tensor
from .defs import array as A
from .defs import cumulative as C
from .defs import elementwise as EW
from .defs import math as M
from .defs.gradient import StopGradient

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
    """``log(cumsum(exp(input), axis))``, shifted by the largest element along ``axis`` so
    that it does not overflow."""
    if not isinstance(input, Tensor):
        raise TypeError(f"For 'logcumsumexp', the 'input' must be a Tensor, but got "
                        f"{type(input).__name__}.")
    if not input.dtype.is_float:
        raise TypeError(f"For 'logcumsumexp', the 'input' must be a float Tensor, but got "
                        f"{input.dtype}.")
    a = C.check_axis("logcumsumexp", axis, input.ndim)
    top = StopGradient(A.ReduceMax(input, (a,), keep_dims=True) if input.ndim else input)
    top = A.Select(EW.IsFinite(top), top, A.ZerosLike(top))
    return M.Add(M.Log(C.CumSum(M.Exp(M.Sub(input, top)), a)), top)


def cummin(input: Tensor, axis: int) -> tuple[Tensor, Tensor]:  # noqa: A002
    """The running minimum along ``axis`` and the (int32) index where each was reached."""
    return C.Cummin(input, axis)


def cummax(input: Tensor, axis: int) -> tuple[Tensor, Tensor]:  # noqa: A002
    """The running maximum along ``axis`` and the (int64) index where each was reached."""
    return C.Cummax(input, axis)
