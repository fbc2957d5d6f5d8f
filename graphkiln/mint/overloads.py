"""MindSpore 2.10's overloads of the ``mint`` functions it resolves among several signatures
(as its "The valid calling should be:" messages list them, in the order it tries them; the
text format is ``ops/tensor_overloads.py``'s). ``clamp`` is left out: MindSpore takes a 0-D
Tensor where a number goes (``clamp(x, Tensor(2), 4)``), which these types cannot say.
``checked`` puts the overload check of :mod:`graphkiln.ops.overload` in front of them: a
call that binds to none raises MindSpore's TypeError, in its graph-mode words inside a graph
and its PyNative ones outside.
"""
from __future__ import annotations

from ..ops.overload import overloaded_function

_SCALED = ("input: number|Tensor, other: number, *, alpha: number = 1",
           "input: number|Tensor, other: number|Tensor, *, alpha: number = 1")
_NUMBERS = ("input: Tensor, other: number", "input: number|Tensor, other: number|Tensor")
_EXTREMUM = ("input: Tensor", "input: Tensor, dim: int, keepdim: bool = False",
             "input: number|Tensor, other: number|Tensor")

SIGNATURES: dict[str, tuple[str, ...]] = {
    "add": _SCALED,
    "sub": _SCALED,
    "mul": _NUMBERS,
    "div": (*_NUMBERS,
            "input: Tensor, other: number, *, rounding_mode: str|None = None",
            "input: number|Tensor, other: number|Tensor, *, rounding_mode: str|None = None"),
    "eq": ("input: Tensor, other: number", "input: Tensor, other: number|Tensor"),
    "less": ("input: Tensor, other: number", "input: Tensor, other: number|bool|Tensor"),
    "greater_equal": _NUMBERS,
    "floor_divide": _NUMBERS,
    "max": _EXTREMUM,
    "min": _EXTREMUM,
    "where": ("condition: Tensor, input: number|Tensor, other: number|Tensor", "input: Tensor"),
    "remainder": ("input: Tensor, other: Tensor", "input: Tensor, other: number",
                  "input: number, other: Tensor"),
    "fmod": ("input: Tensor, other: Tensor", "input: Tensor, other: number"),
    "xlogy": ("input: Tensor, other: Tensor", "input: number, other: Tensor",
              "input: Tensor, other: number"),
    "lerp": ("input: Tensor, end: Tensor, weight: float|Tensor",
             "input: Tensor, end: Tensor, weight: float"),
}


def checked(namespace: dict) -> dict:
    """The functions of ``namespace`` named in ``SIGNATURES``, behind their overload check."""
    return {name: overloaded_function(name, texts, namespace[name])
            for name, texts in SIGNATURES.items()}


__all__ = ["SIGNATURES", "checked"]
