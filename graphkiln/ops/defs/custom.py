"""``Custom``: a user-defined operator. With ``func_type="pyfunc"`` its kernel calls the
user's Python function on NumPy arrays (Python numbers stay numbers) and checks what it
returns against the declared outputs (``func_type="aot"`` calls a shared library's
function instead, :mod:`.custom_aot`); inference reads ``out_shape``/``out_dtype``, values
or functions of the input shapes (lists) and dtypes (``TensorType`` for tensors), as
MindSpore's ``Custom.__infer__`` does. The other func types need a device compiler
(AKG, TBE, AICPU): inference raises the error MindSpore 2.10 gives on CPU.

The op has no memory or IO effect (MindSpore's GRAPH_MODE treats pyfunc as pure: an unused
call is dropped), but it is never evaluated while compiling (``pure_eval=False``): the
function runs when the graph runs, every time, and two identical calls are not merged.
The user's ``bprop`` is applied by the rule in :mod:`..rules.custom`.
"""
from __future__ import annotations

import functools
import os

import numpy as np

from ...common import dtype as mstype
from ...ir.abstract import AbstractScalar, AbstractTensor, AbstractTuple
from ...ir.primitive import OpDef
from . import custom_aot

FUNC_TYPES = ("hybrid", "akg", "tbe", "aicpu", "aot", "pyfunc")
_AKG_TYPES = ("hybrid", "akg")
PLACEHOLDER_DTYPE = mstype.int32  # MindSpore's output of a pyfunc declared with out_dtype ()


def func_name(func) -> str:
    """How messages name the user's function."""
    return getattr(func, "__name__", None) or repr(func)


def prefix(func, func_type: str) -> str:
    """MindSpore's message prefix: ``For 'Custom', 'func_type': ..., 'func': ...``."""
    return f"For 'Custom', 'func_type': {func_type}, 'func': {func}"


# ------------------------------------------------------------------ declared outputs

def _input_type(a):
    """(shape, dtype) an ``out_shape``/``out_dtype`` function gets for one input."""
    if isinstance(a, AbstractTensor):
        return list(a.shape), mstype.TensorType(a.dtype)
    if isinstance(a, AbstractTuple):
        parts = [_input_type(e) for e in a.elements]
        return [p[0] for p in parts], tuple(p[1] for p in parts)
    if isinstance(a, AbstractScalar):
        if a.kind in (bool, int, float):
            return [], mstype.type_of(a.kind())
        try:
            return [], mstype.type_of(a.value)
        except TypeError:
            raise TypeError(f"For 'Custom', an input of type {type(a.value).__name__} has no "
                            f"MindSpore type; give Tensors, numbers, bools, strings or tuples "
                            f"of them.") from None
    return [], None


def _value_type(v):
    """(shape, dtype) of one run-time kernel input."""
    if isinstance(v, np.ndarray):
        return list(v.shape), mstype.TensorType(mstype.from_numpy(v.dtype))
    if isinstance(v, (tuple, list)):
        parts = [_value_type(e) for e in v]
        return [p[0] for p in parts], tuple(p[1] for p in parts)
    return [], mstype.type_of(v)


def _element(t, pre: str):
    if isinstance(t, mstype.TensorType):
        t = t.element_type
    if not isinstance(t, mstype.Type):
        raise TypeError(f"{pre}, each item of 'out_dtype' must be a mindspore.dtype, but got "
                        f"{t!r}")
    return t


def _shape(s, pre: str) -> tuple:
    if not isinstance(s, (tuple, list)) or not all(
            isinstance(d, (int, np.integer)) and not isinstance(d, bool) for d in s):
        raise TypeError(f"{pre}, each output shape in 'out_shape' must be a tuple or list of "
                        f"int, but got {s!r}")
    return tuple(int(d) for d in s)


def declared(types: list, func, out_shape, out_dtype, func_type: str) -> list | tuple:
    """The declared outputs for inputs of ``types`` ((shape, dtype) pairs): a list of
    (shape, dtype) for several outputs, one pair for one output."""
    pre = prefix(func, func_type)
    if func_type == "aot" and (out_shape is None or out_dtype is None):
        raise TypeError(f"{pre}, graphkiln needs 'out_shape' and 'out_dtype' for an aot "
                        f"operator (it does not load C++ infer functions).")
    shape = out_shape(*(t[0] for t in types)) if callable(out_shape) else out_shape
    dtype = out_dtype(*(t[1] for t in types)) if callable(out_dtype) else out_dtype
    if func_type == "pyfunc":
        if isinstance(shape, tuple) and shape == ():
            shape = (1,)  # MindSpore's placeholder (a warning there)
        if isinstance(dtype, tuple) and dtype == ():
            dtype = PLACEHOLDER_DTYPE
    if not isinstance(shape, (tuple, list)):
        raise TypeError(f"{pre}, 'out_shape' must be one of [tuple, list, function], but got "
                        f"{type(shape)}")
    if not isinstance(dtype, (mstype.Type, mstype.TensorType, tuple, list)):
        raise TypeError(f"{pre}, 'out_dtype' must be one of [mindspore.dtype, tuple, list, "
                        f"function], but got {type(dtype)}")
    if isinstance(dtype, (tuple, list)):
        shapes = list(shape)
        if len(shapes) != len(dtype) or not all(isinstance(s, (tuple, list)) for s in shapes):
            raise TypeError(f"{pre}, 'out_dtype' declares {len(dtype)} outputs, so 'out_shape' "
                            f"must be a tuple of {len(dtype)} shapes, but got {shape!r}")
        return [(_shape(s, pre), _element(t, pre)) for s, t in zip(shapes, dtype)]
    return _shape(shape, pre), _element(dtype, pre)


def _abstract(out):
    if isinstance(out, list):
        return AbstractTuple([AbstractTensor(t, s) for s, t in out])
    return AbstractTensor(out[1], out[0])


# ------------------------------------------------------------------ the func types

def unsupported(func, func_type: str) -> Exception | None:
    """The error MindSpore 2.10 on CPU gives when an op of ``func_type`` runs (None for
    pyfunc and aot, which graphkiln runs)."""
    name = func_name(func)
    if func_type == "aot":
        path = custom_aot.split(func)[0]
        if not os.path.exists(path):
            return RuntimeError(f"For 'Custom' on CPU, couldn't find the AOT binary file: "
                                f"{path}")
        return None
    if func_type in _AKG_TYPES:
        return RuntimeError(f"For 'Custom' with func_type '{func_type}' (function '{name}'): "
                            f"this func type is compiled by AKG, which is not available on "
                            f"CPU (MindSpore 2.10 CPU fails with 'Response is empty.'); use "
                            f"func_type 'pyfunc' to run the function in Python.")
    if func_type != "pyfunc":
        return RuntimeError(f"Unsupported func type for Custom operator on CPU, it should be "
                            f"'hybrid', 'akg', 'pyfunc' or 'aot', but got [{func_type}] for "
                            f"Custom operator [{name}].")
    return None


def _custom_infer(*args, func=None, out_shape=None, out_dtype=None, func_type="pyfunc",
                  bprop=None):
    error = unsupported(func, func_type)
    if func_type == "pyfunc" and not callable(func):
        error = TypeError(f"{prefix(func, func_type)}, 'func' must be a Python function to "
                          f"run as a pyfunc, but got {type(func).__name__}.")
    out = declared([_input_type(a) for a in args], func, out_shape, out_dtype, func_type)
    if error is not None:
        raise error
    return _abstract(out)


# ------------------------------------------------------------------ the kernel

def _owned(arr: np.ndarray, args: tuple) -> np.ndarray:
    """``arr``, copied when it is a view or shares memory with an input (MindSpore copies
    a pyfunc's results into their own buffers: a returned input must not alias it)."""
    if arr.base is not None or any(isinstance(a, np.ndarray) and np.may_share_memory(arr, a)
                                   for a in args):
        return arr.copy()
    return arr


def _as_array(value, shape: tuple, dtype: mstype.Type, name: str, i: int | None):
    what = f"the pyfunc '{name}' returned" + ("" if i is None else f" as output {i}")
    if hasattr(value, "asnumpy"):
        value = value.asnumpy()
    if isinstance(value, (bool, int, float)):
        value = np.asarray(value, dtype.np_dtype)
    if not isinstance(value, (np.ndarray, np.generic)):
        raise RuntimeError(f"For 'Custom', {what} a {type(value).__name__}, but a pyfunc must "
                           f"return NumPy arrays (out_shape {list(shape)}, out_dtype {dtype}).")
    arr = np.asarray(value)
    if arr.dtype != np.dtype(dtype.np_dtype):
        raise RuntimeError(f"For 'Custom', {what} an array of dtype {arr.dtype}, but its "
                           f"'out_dtype' declares {dtype}.")
    if arr.shape != shape:
        if arr.ndim == 0 and int(np.prod(shape)) == 1:
            return arr.reshape(shape)
        raise RuntimeError(f"For 'Custom', {what} an array of shape {list(arr.shape)}, but its "
                           f"'out_shape' declares {list(shape)}.")
    return arr


def _run(args, func, fake: bool, expected, func_type: str = "pyfunc"):
    if func_type == "aot":
        return custom_aot.run(func, args, expected)
    result = func(*args)
    name = func_name(func)
    if fake:  # out_dtype (): MindSpore hands back a placeholder, not the result
        return np.zeros(expected[0], expected[1].np_dtype)
    if isinstance(expected, list):
        if not isinstance(result, (tuple, list)) or len(result) != len(expected):
            got = (f"{len(result)} values" if isinstance(result, (tuple, list))
                   else f"a {type(result).__name__}")
            raise RuntimeError(f"For 'Custom', the pyfunc '{name}' returned {got}, but "
                               f"'out_shape'/'out_dtype' declare {len(expected)} outputs.")
        return tuple(_owned(_as_array(v, s, t, name, i), args)
                     for i, (v, (s, t)) in enumerate(zip(result, expected)))
    return _owned(_as_array(result, expected[0], expected[1], name, None), args)


def _is_fake(out_dtype) -> bool:
    return isinstance(out_dtype, tuple) and out_dtype == ()


def _custom(*args, func=None, out_shape=None, out_dtype=None, func_type="pyfunc", bprop=None):
    expected = declared([_value_type(a) for a in args], func, out_shape, out_dtype, func_type)
    return _run(args, func, _is_fake(out_dtype), expected, func_type)


def _expected(a):
    if isinstance(a, AbstractTuple):
        return [(tuple(e.shape), e.dtype) for e in a.elements]
    return tuple(a.shape), a.dtype


def _specialize(in_abstracts, out_abstract, attrs):
    """The kernel for a compiled call: the outputs are checked against what inference
    declared (``out_shape``/``out_dtype`` functions run once, while compiling)."""
    return functools.partial(_run_declared, _fake=_is_fake(attrs.get("out_dtype")),
                             _expected=_expected(out_abstract))


def _run_declared(*args, _fake, _expected, func=None, func_type="pyfunc", **attrs):
    return _run(args, func, _fake, _expected, func_type)


Custom = OpDef("Custom", _custom_infer, _custom, pure_eval=False,
               attrs={"func": None, "out_shape": None, "out_dtype": None,
                      "func_type": "pyfunc", "bprop": None})
Custom.specialize = _specialize
