"""Side-effect primitives: weight writes (``Assign``...), ``TensorMove``, ``Print``,
``TensorDump`` and the emulated NPU float-status ops.

``Assign``/``AssignAdd``/``AssignSub`` write a weight in place (memory effects, ordered by
the ``U`` monad); ``Print`` is an IO effect (ordered by the ``IO`` monad); ``TensorMove``
copies a loaded weight so a later write cannot change it (load elimination inserts it).
"""
from __future__ import annotations

import itertools
import os

import numpy as np

from ...common import dtype as mstype
from ...common import float_status
from ...ir.abstract import AbstractRef, AbstractScalar, AbstractTensor, AbstractTuple
from ...ir.primitive import GRAPH_ATTRS, IO_EFFECT, MEM_EFFECT, NO_RESULT, OpDef
from ._infer import describe, promote_types, shapes_match, tensor_type
from .print_format import print_values


def _require_ref(name: str, ref) -> None:
    if not isinstance(ref, AbstractRef):
        raise TypeError(f"For '{name}', the 'variable' must be a Parameter, but got "
                        f"{describe(ref)}. Only weights (ms.Parameter) can be assigned.")


def _tensor_move(x):
    return np.array(x, copy=True)


# A fresh buffer on every run: never folded or merged, since an in-place write into the
# copy of a constant (or of another copy) must not change the constant or that copy.
TensorMove = OpDef("TensorMove", lambda x: AbstractTensor(tensor_type("TensorMove", "x", x),
                                                           x.shape), _tensor_move,
                   pure_eval=False)


def _assign_infer_for(name):
    def infer(ref, value, u=None):
        _require_ref(name, ref)
        if not isinstance(value, AbstractTensor) and not (
                isinstance(value, AbstractScalar) and issubclass(value.kind, (int, float))):
            raise TypeError(f"For '{name}', the 'value' must be a Tensor or a number, but "
                            f"got {describe(value)}. The valid calling is "
                            f"\"{name}()(variable=<Tensor>, value=<Number, Tensor>)\".")
        if isinstance(value, AbstractTensor) and promote_types(ref.dtype, value.dtype) \
                is not ref.dtype:
            raise TypeError(f"For '{name}': Data type conversion is not supported for a "
                            f"'Parameter', nor for the input tensor of an in-place operator: "
                            f"the 'variable' is {ref.dtype}, which cannot be converted to "
                            f"the 'value' type {value.dtype} automatically. Cast the value "
                            f"to {ref.dtype} first.")
        # (a dimension known only when the graph runs is checked by the kernel)
        # (a rank known only then, shape (-2,), too)
        if isinstance(value, AbstractTensor) and -2 not in (*value.shape, *ref.shape):
            _check_shapes(name, tuple(ref.shape), tuple(value.shape), shapes_match)
        return AbstractTensor(ref.dtype, ref.shape)
    return infer


def _check_shapes(name: str, ref_shape: tuple, value_shape: tuple, match) -> None:
    """MindSpore's shape rule of the weight writes: the same rank and shape, except that
    ``AssignAdd``/``AssignSub`` take a scalar for a one-element vector and the other way
    round (they keep the weight's shape); ``Assign`` refuses that pair as its kernel
    does."""
    if {len(ref_shape), len(value_shape)} == {0, 1} and (ref_shape or value_shape)[0] in (1, -1):
        if name in ("AssignAdd", "AssignSub"):
            return
        if name == "Assign":
            raise RuntimeError(f"For 'Assign', the 'x' and 'y' must have the same dimension, "
                               f"but got the dimension of 'x': {len(ref_shape)} and the "
                               f"dimension of 'y': {len(value_shape)}")
    if len(ref_shape) != len(value_shape):
        raise ValueError(f"For '{name}','value' must have the same rank as 'variable'. But "
                         f"got 'value' rank: {len(value_shape)}, 'variable' rank: "
                         f"{len(ref_shape)}.")
    if not match(value_shape, ref_shape):
        raise ValueError(f"For '{name}','value' must have the same shape as 'variable'. But "
                         f"got 'value' shape: {_text(value_shape)}, 'variable' shape: "
                         f"{_text(ref_shape)}.")


def _text(shape: tuple) -> str:
    return "(" + ", ".join(str(d) for d in shape) + ")"


def _same_shape(name: str, ref, value) -> None:
    """The run-time check of a value whose shape infer did not know."""
    if isinstance(value, np.ndarray) and value.shape != ref.shape:
        _check_shapes(name, ref.shape, value.shape, lambda a, b: a == b)


def _assign(ref, value, u=None):
    _same_shape("Assign", ref, value)
    np.copyto(ref, value, casting="unsafe")
    return ref


def _assign_add(ref, value, u=None):
    _same_shape("AssignAdd", ref, value)
    np.copyto(ref, np.reshape(ref + value, ref.shape), casting="unsafe")
    return ref


def _assign_sub(ref, value, u=None):
    _same_shape("AssignSub", ref, value)
    np.copyto(ref, np.reshape(ref - value, ref.shape), casting="unsafe")
    return ref


Assign = OpDef("Assign", _assign_infer_for("Assign"), _assign, effect=MEM_EFFECT)
AssignAdd = OpDef("AssignAdd", _assign_infer_for("AssignAdd"), _assign_add, effect=MEM_EFFECT)
AssignSub = OpDef("AssignSub", _assign_infer_for("AssignSub"), _assign_sub, effect=MEM_EFFECT)
# The write of Tensor in-place methods (``x.mul_(y)``, ``x.copy_(src)``): like ``Assign``,
# but differentiated as the value it writes (the old contents get no gradient).
InplaceCopy = OpDef("InplaceCopy", _assign_infer_for("InplaceCopy"), _assign,
                    effect=MEM_EFFECT)


def _print_infer(*xs, graph_format=False):
    return AbstractTensor(mstype.int32, ())


def _print(*xs, graph_format=False):
    print_values(xs, graph_format)
    return np.zeros((), np.int32)


Print = OpDef("Print", _print_infer, _print, effect=IO_EFFECT)
GRAPH_ATTRS["Print"] = {"graph_format": True}  # inside graphs MindSpore's format differs
NO_RESULT.add("Print")


def _check_tensor_dump_attrs(attrs: dict) -> None:
    if attrs.get("input_output") not in ("in", "out"):
        raise ValueError(f"The 'input_output' argument should be one of ['in', 'out'], but "
                         f"got: {attrs.get('input_output')}")


def _tensor_dump_infer(file, x, input_output="out"):
    if not (isinstance(file, AbstractScalar) and file.kind is str):
        raise TypeError(f"For 'TensorDump', the type of 'file' should be 'str', but got type "
                        f"'{describe(file)}'.")
    if not isinstance(x, AbstractTensor):
        raise TypeError(f"For 'TensorDump', the type of 'input_x' should be 'Tensor', but got "
                        f"type '{describe(x)}'.")
    return AbstractTensor(mstype.int32, ())


_DUMP_IDS = itertools.count()  # MindSpore numbers every dump of the process


def _tensor_dump(file, x, input_output="out"):
    dtype = str(mstype.from_numpy(x.dtype)).lower()
    path = f"{file}_{dtype}_{next(_DUMP_IDS)}.npy"
    if os.path.dirname(path):
        os.makedirs(os.path.dirname(path), exist_ok=True)
    # bfloat16 is saved as float32 (NumPy files have no bfloat16), under its own name
    np.save(path, x.astype(np.float32) if dtype == "bfloat16" else x)
    return np.zeros((), np.int32)


# ``ops.TensorDump``: saves ``x`` as ``<file>_<dtype>_<n>.npy`` when it runs (``n`` counts the
# process's dumps); MindSpore 2.10 CPU runs it in PyNative only, graphkiln in graphs too
TensorDump = OpDef("TensorDump", _tensor_dump_infer, _tensor_dump, effect=IO_EFFECT,
                   differentiable=False, attrs={"input_output": "out"},
                   check_attrs=_check_tensor_dump_attrs)
NO_RESULT.add("TensorDump")


def _raise_infer(*xs, spec):
    return AbstractTensor(mstype.int32, ())


def _raise(*values, spec):
    raise spec.build(values)


# ``raise`` under a tensor condition (frontend/runtime_raise.py): ``spec`` rebuilds the
# exception from the run-time values of the inputs; an IO effect, so it runs in order and
# only when its branch runs.
Raise = OpDef("Raise", _raise_infer, _raise, effect=IO_EFFECT, differentiable=False)


def _assert_infer(condition, input_data, summarize=3):
    kind = condition.dtype if isinstance(condition, AbstractTensor) else \
        getattr(condition, "kind", None)
    if kind not in (mstype.bool_, bool):
        raise TypeError(f"For 'Assert', the 'condition' must be a bool or a bool Tensor, but "
                        f"got {describe(condition)}.")
    if isinstance(condition, AbstractTensor) and (
            len(condition.shape) > 1 or tuple(condition.shape) not in ((), (1,), (-1,))):
        raise ValueError(f"For 'Assert', the 'condition' must hold one element, but got "
                         f"shape {list(condition.shape)}.")
    if not isinstance(input_data, AbstractTuple) or not all(
            isinstance(x, AbstractTensor) for x in input_data.elements):
        raise TypeError(f"For 'Assert', the 'input_data' must be a tuple or list of Tensors, "
                        f"but got {describe(input_data)}.")
    return AbstractTensor(mstype.int32, (1,))


def _assert(condition, input_data, summarize=3):
    if not bool(np.all(condition)):
        print("For 'Assert' condition is false.")
        for x in input_data:
            print("input data:", np.asarray(x).reshape(-1)[:summarize])
        raise RuntimeError("assert failed")
    return np.ones((1,), np.int32)


# ``Assert(summarize)(condition, input_data)``: raise (after printing the first
# ``summarize`` elements of each tensor) when ``condition`` is False, as it runs (IO effect)
def _assert_attrs(attrs: dict) -> None:
    v = attrs["summarize"]
    if isinstance(v, bool) or not isinstance(v, int):
        raise TypeError(f"For 'Assert', the type of 'summarize' should be 'int', but got type "
                        f"'{type(v).__name__}'.")


Assert = OpDef("Assert", _assert_infer, _assert, effect=IO_EFFECT, differentiable=False,
               attrs={"summarize": 3}, check_attrs=_assert_attrs)


# --------------------------------------------------------- float status (emulated NPU)

def _status_infer(*xs):
    return AbstractTensor(mstype.float32, (8,))


def _alloc_status():
    return np.zeros(8, np.float32)


def _clear_status(x):
    float_status.clear()
    return np.zeros(8, np.float32)


def _get_status(x):
    return float_status.status()


# Side-effect free by definition, as the spec says: only Depend orders them. They read or
# reset hidden state, so passes never fold, merge or drop them while they are used.
NPUAllocFloatStatus = OpDef("NPUAllocFloatStatus", _status_infer, _alloc_status,
                            differentiable=False, pure_eval=False)
NPUClearFloatStatus = OpDef("NPUClearFloatStatus", _status_infer, _clear_status,
                            differentiable=False, pure_eval=False)
NPUGetFloatStatus = OpDef("NPUGetFloatStatus", _status_infer, _get_status,
                          differentiable=False, pure_eval=False)
