"""MindSpore 2.10's overloads of the Tensor methods (as its graph mode lists them in its
"The valid calling should be:" messages), in the order it tries them.

One text per overload: ``name: type|type = default`` parameters, ``*`` before keyword-only
ones, ``*name`` for the rest of the positional arguments (``x.reshape(2, 3)``). Types:
Tensor, number, int, float, bool, str, None, Tuple, List (of ints), mstype, any. A
default only marks the parameter optional; the implementation supplies the value.
Importing this module (last of the Tensor method modules) puts the check of
:mod:`graphkiln.ops.overload` in front of these methods; others are not checked.
"""
from __future__ import annotations

from ..common.tensor import Tensor
from .overload import overloaded

_AXES = "int|Tuple|Tensor|None|List = None"
_NO_ARGS = ("",)

SIGNATURES: dict[str, tuple[str, ...]] = {
    "clamp": ("min: Tensor|None = None, max: Tensor|None = None",
              "min: number|None = None, max: number|None = None"),
    "max": ("",
            "dim: int, keepdim: bool = False",
            "axis: int|Tuple|None|List = None, keepdims: bool = False, *, "
            "initial: number|None = None, where: bool|Tensor = True, "
            "return_indices: bool = False"),
    "add": ("other: number, *, alpha: number = 1",
            "other: number|Tensor, *, alpha: number = 1",
            "other: any|Tensor"),
    "sub": ("other: number, *, alpha: number = 1",
            "other: number|Tensor, *, alpha: number = 1",
            "y: any|Tensor"),
    "mul": ("other: number", "other: number|Tensor", "other: any|Tensor"),
    "div": ("other: number",
            "other: number|Tensor",
            "other: number, *, rounding_mode: str|None = None",
            "other: number|Tensor, *, rounding_mode: str|None = None"),
    "pow": ("exponent: number", "exponent: number|Tensor"),
    "less": ("other: number", "other: number|bool|Tensor"),
    "maximum": ("other: Tensor|number",),
    "minimum": ("other: Tensor|number",),
    "mean": (f"dim: {_AXES}, keepdim: bool = False, *, dtype: mstype|int|None = None",
             f"axis: {_AXES}, keep_dims: bool = False"),
    "sum": (f"dim: {_AXES}, keepdim: bool = False, *, dtype: mstype|int|None = None",
            f"axis: {_AXES}, dtype: mstype|int|None = None, keepdims: bool = False, "
            "initial: number|None = None"),
    "prod": ("dim: int|None = None, keepdim: bool = False, dtype: mstype|int|None = None",),
    "all": (f"axis: {_AXES}, keep_dims: bool = False",
            f"dim: {_AXES}, keepdim: bool = False"),
    "any": ("",
            "dim: int, keepdim: bool = False",
            f"axis: {_AXES}, keep_dims: bool = False"),
    "argmax": ("axis: int = None, keepdims: bool = False",
               "dim: int|None = None, keepdim: bool = False"),
    "argmin": ("dim: int|None = None, keepdim: bool = False",
               "axis: int|None = None, keepdims: bool = False"),
    "var": ("axis: int|Tuple|None = None, ddof: int|bool = 0, keepdims: bool = False",
            "dim: int|Tuple|None|List = None, correction: int = 1, keepdim: bool = False"),
    "roll": ("shifts: int|Tuple|List, dims: int|Tuple|None|List = None",),
    "reshape": ("*shape: Tuple|List",),
    "view": ("*shape: Tuple|Tensor|List", "dtype: mstype|int"),
    "transpose": ("dim0: int, dim1: int", "*axes: int|Tuple|None|List"),
    "permute": ("dims: Tuple|List", "*axis: int|Tuple|None|List"),
    "squeeze": ("axis: int|Tuple|List", "axis: int|Tuple|None|List = None"),
    "unsqueeze": ("axis: int|Tensor", "dim: int|Tensor"),
    **{name: _NO_ARGS for name in (
        "abs", "exp", "log", "sqrt", "neg", "negative", "sin", "cos", "tanh", "sigmoid",
        "floor", "ceil", "square", "rsqrt", "reciprocal", "log1p", "expm1", "erf",
        "logical_not")},
}
SIGNATURES["clip"] = SIGNATURES["clamp"]
SIGNATURES["min"] = SIGNATURES["max"]


def install() -> None:
    """Wrap each declared method of :class:`Tensor` in its overload check."""
    for name, texts in SIGNATURES.items():
        setattr(Tensor, name, overloaded(name, texts, getattr(Tensor, name)))


install()

__all__ = ["SIGNATURES"]
