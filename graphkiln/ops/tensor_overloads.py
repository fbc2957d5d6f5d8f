"""MindSpore 2.10's overloads of the Tensor methods (as its graph mode lists them in its
"The valid calling should be:" messages), in the order it tries them.

One text per overload: ``name: type|type = default`` parameters, ``*`` before keyword-only
ones, ``*name`` for the rest of the positional arguments (``x.reshape(2, 3)``). Types:
Tensor, number, int, float, bool, str, None, Tuple, List (of ints), mstype, any; ``!``
marks the one MindSpore's PyNative parser converts to when it is not the first (nor a
Tensor taking numbers). A default only marks the parameter optional; the implementation
supplies the value.
Importing this module (last of the Tensor method modules) puts the check of
:mod:`graphkiln.ops.overload` in front of these methods; others are not checked.
"""
from __future__ import annotations

from ..common.tensor import Tensor
from .overload import overloaded

_AXES = "int|Tuple!|Tensor|None|List = None"
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
    "std": ("dim: int|Tuple!|None|List = None, *, correction: int = 1, keepdim: bool = False",
            "axis: int|Tuple|None|List = None, ddof: int = 0, keepdims: bool = False"),
    "roll": ("shifts: int|Tuple!|List, dims: int|Tuple|None|List = None",),
    "reshape": ("*shape: Tuple|List",),
    "view": ("*shape: Tuple|Tensor|List", "dtype: mstype|int"),
    "transpose": ("dim0: int, dim1: int", "*axes: int|Tuple|None|List"),
    "permute": ("*dims: Tuple|List", "*axis: int|Tuple|None|List"),
    "squeeze": ("axis: int|Tuple|List", "axis: int|Tuple|None|List = None"),
    "unsqueeze": ("axis: int|Tensor", "dim: int|Tensor"),
    "cumsum": ("dim: int, *, dtype: mstype|int|None = None",
               "axis: int|None = None, dtype: mstype|int|None = None"),
    "gather": ("dim: int|Tensor, index: Tensor",
               "input_indices: Tensor, axis: int|Tensor, batch_dims: int = 0"),
    "topk": ("k: int, dim: int = -1, largest: bool = True, sorted: bool = True",
             "k: int, dim: int|None = None, largest: bool = True, sorted: bool = True"),
    "sort": ("dim: int = -1, descending: bool = False, stable: bool = False",
             "axis: int = -1, descending: bool = False"),
    "masked_fill": ("mask: Tensor, value: number", "mask: Tensor, value: number|Tensor"),
    "where": ("condition: Tensor, other: number|Tensor", "condition: Tensor, y: number|Tensor"),
    "flatten": ("start_dim: int = 0, end_dim: int = -1",
                "order: str = 'C', start_dim: int = 0, end_dim: int = -1"),
    "split": ("split_size: int, dim: int = 0", "split_size: Tuple|List, dim: int = 0",
              "split_size_or_sections: int|Tuple|List, axis: int = 0"),
    "chunk": ("chunks: int, dim: int = 0", "chunks: int, axis: int = 0"),
    "index_select": ("dim: int, index: Tensor", "axis: int, index: Tensor"),
    "select": ("dim: int, index: int", "condition: Tensor, y: number|Tensor"),
    "remainder": ("other: Tensor", "other: number", "divisor: number|Tensor"),
    "logical_and": ("y: bool|Tensor", "other: bool|Tensor"),
    "logical_or": ("y: bool|Tensor", "other: bool|Tensor"),
    "matmul": ("other: Tensor", "tensor2: Tensor"),
    "expand_as": ("other: Tensor", "x: Tensor"),
    "view_as": ("other: Tensor",),
    "type_as": ("other: Tensor",),
    "tril": ("diagonal: int|Tensor = 0",),
    "logsumexp": ("dim: int|Tuple|List, keepdim: bool = False",),
    "atan2": ("other: number|Tensor",),
    "mm": ("mat2: Tensor",),
    "dot": ("other: Tensor",),
    "outer": ("vec2: Tensor",),
    "count_nonzero": ("dim: int|Tuple!|None|List = None",
                      "axis: int|Tuple!|List = (), keep_dims: bool = False, "
                      "dtype: mstype|int|None = None"),
    "narrow": ("dim: int, start: int|Tensor, length: int",
               "axis: int, start: int|Tensor, length: int"),
    "isclose": ("other: Tensor, rtol: int|float|bool = 1e-05, atol: int|float|bool = 1e-08, "
                "equal_nan: bool = False",
                "x2: Tensor, rtol: int|float|bool = 1e-05, atol: int|float|bool = 1e-08, "
                "equal_nan: bool = False"),
    "lerp": ("end: Tensor, weight: float|Tensor", "end: Tensor, weight: float"),
    "addmm": ("mat1: Tensor, mat2: Tensor, *, beta: number = 1, alpha: number = 1",),
    "baddbmm": ("batch1: Tensor, batch2: Tensor, *, beta: number|Tensor = 1, "
                "alpha: number|Tensor = 1",
                "batch1: Tensor, batch2: Tensor, *, beta: number = 1, alpha: number = 1"),
    "repeat": ("*repeats: Tuple|List",),
    "tile": ("*dims: Tuple|Tensor", "reps: Tuple|Tensor"),
    "to": ("device: str|None = None, dtype: mstype|int|None = None, non_blocking: bool = False, "
           "copy: bool = False",
           "dtype: mstype|int|None = None, non_blocking: bool = False, copy: bool = False",
           "other: Tensor, non_blocking: bool = False, copy: bool = False"),
    "median": ("", "dim: int, keepdim: bool = False", "axis: int = -1, keepdims: bool = False"),
    "add_": ("other: Tensor, *, alpha: number = 1", "other: number, *, alpha: number = 1"),
    "sub_": ("other: Tensor, alpha: number = 1", "other: number, alpha: number = 1",
             "y: any|Tensor"),
    "div_": ("other: Tensor", "other: number", "other: Tensor, rounding_mode: str|None = None",
             "other: number, rounding_mode: str|None = None"),
    "addbmm": ("batch1: Tensor, batch2: Tensor, *, beta: number|Tensor = 1, "
               "alpha: number|Tensor = 1",
               "batch1: Tensor, batch2: Tensor, *, beta: number = 1, alpha: number = 1"),
    "addcdiv": ("tensor1: Tensor, tensor2: Tensor, *, value: number|Tensor = 1",
                "tensor1: Tensor, tensor2: Tensor, value: Tensor"),
    "addmv": ("mat: Tensor, vec: Tensor, *, beta: number = 1, alpha: number = 1",
              "mat: Tensor, vec: Tensor, beta: number = 1, alpha: number = 1"),
    "bincount": ("weights: Tensor|None = None, minlength: int|Tensor = 0",),
    "diag": ("diagonal: int = 0", ""),
    "histc": ("bins: int|Tensor = 100, min: number|Tensor = 0, max: number|Tensor = 0",),
    "index_add": ("dim: int, index: Tensor, source: Tensor, *, alpha: number = 1",
                  "indices: Tensor, y: Tensor, axis: int, use_lock: bool = True, "
                  "check_index_bound: bool = True"),
    "nansum": (f"dim: {_AXES}, keepdim: bool = False, *, dtype: mstype|int|None = None",
               "axis: int|Tuple|None|List = None, keepdims: bool = False, *, "
               "dtype: mstype|int|None = None"),
    "repeat_interleave": ("repeats: int|Tuple|Tensor|List, dim: int|None = None",
                          "repeats: Tuple|Tensor|List, dim: int|None = None, *, "
                          "output_size: int|None = None",
                          "repeats: int, dim: int|None = None, *, output_size: int|None = None"),
    "scatter": ("dim: int|Tensor, index: Tensor, src: Tensor, reduce: str = 'none'",
                "dim: int|Tensor, index: Tensor, src: number, reduce: str = 'none'",
                "axis: int, index: Tensor, src: float|Tensor"),
    "scatter_add": ("dim: int, index: Tensor, src: Tensor", "indices: Tensor, updates: Tensor"),
    "take": ("index: Tensor", "indices: Tensor, axis: int|None = None, mode: str = 'clip'"),
    "unbind": ("dim: int = 0",),
    "masked_fill_": ("mask: Tensor, value: Tensor", "mask: Tensor, value: number"),
    "hardshrink": ("lambd: float = 0.5",),
    "round": ("decimals: int = 0",),
    "triu": ("diagonal: int = 0",),
    "nan_to_num": ("nan: float|None = None, posinf: float|None = None, "
                   "neginf: float|None = None",),
    "unique": ("sorted: bool = True, return_inverse: bool = False, return_counts: bool = False, "
               "dim: number|None = None",),
    **{name: _NO_ARGS for name in (
        "abs", "exp", "log", "sqrt", "neg", "negative", "sin", "cos", "tanh", "sigmoid",
        "floor", "ceil", "square", "rsqrt", "reciprocal", "log1p", "expm1", "erf",
        "logical_not", "t", "log2", "log10", "frac", "atan", "asin", "acos", "trunc", "sinh",
        "cosh", "tan", "absolute", "acosh", "arccos", "arccosh", "arcsin", "arcsinh", "arctan",
        "arctanh", "asinh", "atanh", "bitwise_not", "clone", "erfc", "exp_", "imag", "inverse",
        "isfinite", "isinf", "isneginf", "log_", "real", "sigmoid_", "sinc")},
}
for _name in ("floor_divide", "eq", "ge", "greater_equal"):
    SIGNATURES[_name] = ("other: number", "other: number|Tensor")
for _name in ("bitwise_and", "bitwise_or", "bitwise_xor", "mul_", "floor_divide_",
              "remainder_"):
    SIGNATURES[_name] = ("other: Tensor", "other: number")
for _name in ("fmod", "xlogy"):
    SIGNATURES[_name] = ("other: Tensor", "other: number", "other: number|Tensor")
for _name in ("logaddexp", "logaddexp2"):
    SIGNATURES[_name] = ("other: Tensor",)
SIGNATURES["fill_"] = ("value: Tensor", "value: number")
SIGNATURES["divide"] = SIGNATURES["div"]
SIGNATURES["arctan2"] = SIGNATURES["atan2"]
SIGNATURES["argsort"] = SIGNATURES["sort"]
SIGNATURES["lt"] = SIGNATURES["less"]
SIGNATURES["clip"] = SIGNATURES["clamp"]
SIGNATURES["min"] = SIGNATURES["max"]

# methods whose failed calls MindSpore's graph mode words as Python does ("abs() takes 0
# positional arguments but 1 was given.", "match failed because incorrect keyword name: a")
# rather than listing the overloads (its PyNative mode too, for those of one overload)
PYTHON_WORDED = frozenset({
    "abs", "exp", "log", "sqrt", "neg", "negative", "sin", "cos", "tanh", "sigmoid", "floor",
    "ceil", "square", "rsqrt", "reciprocal", "log1p", "expm1", "erf", "logical_not", "trunc",
    "sinh", "cosh", "tan", "maximum", "minimum", "reshape", "transpose", "cumsum",
    "count_nonzero", "std", "repeat", "absolute", "arctanh", "atanh", "bitwise_not", "clone",
    "erfc", "exp_", "isfinite", "isinf", "log_", "sigmoid_", "sinc", "hardshrink", "round",
    "triu", "nan_to_num", "unique"})


# the names MindSpore's PyNative parser words the errors of these aliases with
EAGER_NAMES = {"clip": "clamp", "ge": "greater_equal", "lt": "less", "negative": "neg",
               "absolute": "abs", "arccos": "acos", "arccosh": "acosh", "arcsin": "asin",
               "arcsinh": "asinh", "arctan": "atan", "arctan2": "atan2", "arctanh": "atanh",
               "divide": "div"}
# methods MindSpore runs as plain Python outside a graph: no overload check there
EAGER_PYTHON = frozenset({"type_as"})


def install() -> None:
    """Wrap each declared method of :class:`Tensor` in its overload check."""
    for name, texts in SIGNATURES.items():
        setattr(Tensor, name, overloaded(name, texts, getattr(Tensor, name),
                                         name in PYTHON_WORDED, EAGER_NAMES.get(name, ""),
                                         name in EAGER_PYTHON))


install()

__all__ = ["EAGER_NAMES", "EAGER_PYTHON", "SIGNATURES"]
