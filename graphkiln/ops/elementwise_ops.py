"""Functional forms of the primitives in :mod:`.defs.elementwise` (``ops.erfc``,
``ops.isnan``, ``ops.elu``, ``ops.hardshrink``...), with MindSpore 2.10's names and defaults."""
from __future__ import annotations

from ..common.tensor import Tensor
from .defs import elementwise as EW

__all__ = ["inv", "invert", "erfc", "erfinv", "asinh", "arcsinh", "acosh", "arccosh", "atanh",
           "arctanh", "isnan", "isinf", "isfinite", "elu", "celu", "hardshrink", "fast_gelu",
           "ger"]


def _tensor(name: str, x) -> Tensor:
    if not isinstance(x, Tensor):
        raise TypeError(f"For '{name}', the input must be a Tensor, but got "
                        f"{type(x).__name__}.")
    return x


def _elementwise(opdef, name: str):
    def fn(input: Tensor) -> Tensor:  # noqa: A002 - MindSpore's argument name
        return opdef(_tensor(name, input))
    fn.__name__ = fn.__qualname__ = name
    fn.__doc__ = f"Elementwise ``{opdef.name}``."
    return fn


inv = _elementwise(EW.Inv, "inv")
invert = _elementwise(EW.Invert, "invert")
erfc = _elementwise(EW.Erfc, "erfc")
erfinv = _elementwise(EW.Erfinv, "erfinv")
asinh = arcsinh = _elementwise(EW.Asinh, "asinh")
acosh = arccosh = _elementwise(EW.Acosh, "acosh")
atanh = arctanh = _elementwise(EW.Atanh, "atanh")
isnan = _elementwise(EW.IsNan, "isnan")
isinf = _elementwise(EW.IsInf, "isinf")
isfinite = _elementwise(EW.IsFinite, "isfinite")
fast_gelu = _elementwise(EW.FastGeLU, "fast_gelu")


def elu(input_x: Tensor, alpha: float = 1.0) -> Tensor:
    """``x`` where positive, else ``alpha * (exp(x) - 1)`` (MindSpore supports alpha 1.0)."""
    return EW.Elu(_tensor("elu", input_x), alpha=alpha)


def celu(x: Tensor, alpha: float = 1.0) -> Tensor:
    """``max(0, x) + min(0, alpha * (exp(x / alpha) - 1))``."""
    return EW.CeLU(_tensor("celu", x), alpha=alpha)


def hardshrink(x: Tensor, lambd: float = 0.5) -> Tensor:
    """``x`` where ``|x| > lambd``, else 0."""
    return EW.HShrink(_tensor("hardshrink", x), lambd=lambd)


def ger(input: Tensor, vec2: Tensor) -> Tensor:  # noqa: A002 - MindSpore's argument name
    """The outer product of two vectors: ``input[i] * vec2[j]`` at ``[i, j]``."""
    return EW.Ger(_tensor("ger", input), _tensor("ger", vec2))
