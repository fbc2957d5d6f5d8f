"""Read a ``.mindir`` file (MindSpore's or graphkiln's) into a ``MindIRGraph``: its inputs,
its weights and its nodes as steps that apply graphkiln primitives. ``nn.GraphCell`` runs
it; in GRAPH_MODE the steps are traced into one graphkiln graph like any cell's code, so
graphkiln's passes, autodiff and ``python -m graphkiln dump`` see it as any other graph."""
from __future__ import annotations

import operator
import os
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
from google.protobuf.message import DecodeError

import graphkiln.train.ckpt_crypto as ckpt_crypto
import graphkiln.train.mindir_ops as mo

from ..common import dtype as mstype
from ..common.tensor import Tensor
from ..ir.primitive import REGISTRY, Primitive
from .mindir_schema import ModelProto

_STRUCTURAL = {
    "list_getitem": operator.getitem,  # an element of a list input
    "Load": lambda param, _state: param,
    "UpdateState": lambda *_states: mo.U_MONAD,
    "MakeTuple": lambda *items: tuple(items),
    "TupleGetItem": lambda seq, index: seq[index],
    "Depend": lambda value, *_after: value,
}


def _reduce_ext(name: str):
    """``SumExt``/``MeanExt`` (``dim``, ``keepdim``, ``dtype`` as inputs) as graphkiln's
    ``ReduceSum``/``ReduceMean``."""
    def run(x, dim, keepdim, dtype):
        if dtype is not None:
            x = _cast(x, dtype)
        axis = () if dim is None else dim
        return Primitive(REGISTRY[name], {"keep_dims": bool(keepdim)})(x, axis)
    return run


def _cast(x, type_id):
    name = mo.TYPE_IDS.get(type_id)
    if name is None:
        raise ValueError(f"For 'load', Cast to the MindSpore type id {type_id} is not "
                         f"supported by graphkiln.")
    return Primitive(REGISTRY["Cast"])(x, getattr(mstype, name))


def _inplace_adds(variable, other, alpha):
    """MindSpore's ``InplaceAddsExt(weight, other, alpha)`` (``weight += other * alpha``,
    as ``self.w += 1.0`` exports) as an Assign."""
    return Primitive(REGISTRY["Assign"])(variable, variable + other * alpha)


# MindSpore primitive functions graphkiln runs as other primitives, on the same inputs.
_ADAPTED = {
    "Cast": _cast,
    "Max": lambda x: Primitive(REGISTRY["ReduceMax"])(x, ()),
    "Min": lambda x: Primitive(REGISTRY["ReduceMin"])(x, ()),
    "SiLU": lambda x: Primitive(REGISTRY["Mul"])(x, Primitive(REGISTRY["Sigmoid"])(x)),
    "SumExt": _reduce_ext("ReduceSum"),
    "MeanExt": _reduce_ext("ReduceMean"),
    "InplaceAddsExt": _inplace_adds,
}


@dataclass
class Step:
    """One node: ``output = fn(*values of inputs)``; ``label`` names it in errors."""
    output: str
    fn: Callable
    inputs: tuple[str, ...]
    label: str


@dataclass
class InputInfo:
    name: str
    shape: tuple[int | None, ...]  # None: any size (a dynamic dimension)
    dtype: np.dtype | None  # None: a list or tuple input (``sequence`` says which)
    sequence: str | None = None


class MindIRGraph:
    """What ``load`` returns: a model's inputs, weights (name -> array) and steps."""

    def __init__(self, name: str, inputs: list[InputInfo], weights: dict[str, np.ndarray],
                 weight_of: dict[str, str], constants: dict, steps: list[Step], output: str,
                 proto: ModelProto):
        self.name = name
        self.inputs = inputs
        self.weights = weights
        self._weight_of = weight_of  # node-level parameter name -> weight name
        self._constants = constants
        self.steps = steps
        self.output = output
        self.proto = proto

    def __repr__(self) -> str:
        shapes = ", ".join(f"{i.name}{list(i.shape)}" for i in self.inputs)
        return f"MindIRGraph({self.name}: {shapes}; {len(self.steps)} nodes)"

    def run(self, weights: dict, args: tuple):
        """Apply the steps to ``args`` (tensors) with ``weights`` (name -> Parameter)."""
        if len(args) != len(self.inputs):
            raise TypeError(f"For 'GraphCell', the graph '{self.name}' takes "
                            f"{len(self.inputs)} inputs, but got {len(args)}.")
        env = dict(self._constants)
        env.update((info.name, a) for info, a in zip(self.inputs, args))
        env.update((node, weights[w]) for node, w in self._weight_of.items())
        for step in self.steps:
            try:
                env[step.output] = step.fn(*(env[i] for i in step.inputs))
            except (TypeError, ValueError, RuntimeError) as e:
                raise type(e)(f"{e}\n(while running the MINDIR node {step.label})") from e
        return env[self.output]


def load(file_name: str, **kwargs) -> MindIRGraph:
    """MindSpore's ``load``: a MINDIR file's graph, for ``nn.GraphCell``."""
    if not isinstance(file_name, str):
        raise ValueError(f"For 'load', the argument 'file_name' must be string, but got "
                         f"{type(file_name)}.")
    if not file_name.endswith(".mindir"):
        raise ValueError("For 'load', the argument 'file_name'(MindIR file) should end with "
                         "'.mindir', please input the correct 'file_name'.")
    if not os.path.exists(file_name):
        raise ValueError(f"For 'load', the argument 'file_name'(MindIR file) does not exist, "
                         f"please check whether the 'file_name' is correct: {file_name}")
    if kwargs.get("obf_func") is not None:
        raise RuntimeError("For 'load', graphkiln cannot run obfuscated MINDIR files "
                           "('obf_func'); export the model without 'obf_config'.")
    with open(file_name, "rb") as f:
        data = f.read()
    dec_key = kwargs.get("dec_key")
    if dec_key is not None:
        mode = kwargs.get("dec_mode", "AES-GCM")
        ckpt_crypto.check_mode(mode, dec_key, "load")
        try:
            data = ckpt_crypto.decrypt(data, dec_key, mode)
        except ValueError as e:
            raise ValueError(f"For 'load', the MINDIR file '{file_name}' could not be "
                             f"decrypted with this 'dec_key' and 'dec_mode' ({mode}): {e}") \
                from None
    elif ckpt_crypto.is_encrypted(data[:4]):
        raise ValueError(f"For 'load', the MINDIR file '{file_name}' is encrypted: pass its "
                         f"key and mode as 'dec_key' and 'dec_mode'.")
    return parse(data, file_name)


def parse(data: bytes, what: str = "the MINDIR data") -> MindIRGraph:
    """The graph of a serialized ModelProto; ValueError naming ``what`` if it is not one."""
    model = ModelProto()
    try:
        model.ParseFromString(data)
    except (DecodeError, RuntimeError, ValueError) as e:
        raise ValueError(f"For 'load', {what} is not a MINDIR file (it is damaged, truncated "
                         f"or another format): {e}") from None
    if model.producer_name != "MindSpore" or not model.HasField("graph"):
        raise ValueError(f"For 'load', {what} is not a MINDIR file: it has no MindSpore "
                         f"model graph (producer {model.producer_name!r}).")
    if model.mind_ir_version > mo.MINDIR_VERSION:
        raise ValueError(f"For 'load', {what} has mind_ir_version {model.mind_ir_version}; "
                         f"graphkiln reads versions up to {mo.MINDIR_VERSION} (MindSpore "
                         f"2.10's). Export it again with MindSpore 2.10.")
    if model.functions:
        raise ValueError(f"For 'load', {what} holds {len(model.functions)} sub-graphs "
                         f"(control flow or reused cells); graphkiln reads single-graph "
                         f"MINDIR files only.")
    try:
        return _Reader(model, what).graph()
    except (IndexError, KeyError, TypeError, UnicodeDecodeError) as e:  # a part is missing
        raise ValueError(f"For 'load', {what} is damaged: a node, attribute or tensor type "
                         f"it refers to is missing or malformed ({type(e).__name__}: {e}).") \
            from None


class _Reader:
    def __init__(self, model: ModelProto, what: str):
        self.model = model
        self.what = what
        self.prims = {p.name: p for p in model.primitives}

    def graph(self) -> MindIRGraph:
        g = self.model.graph
        inputs = [self._input(v) for v in g.input]
        weights, weight_of = {}, {}
        for p in g.parameter:
            key = p.ref_key or p.name.rpartition(":")[2]
            weights[key] = mo.proto_array(p, f"the weight '{key}' of {self.what}")
            weight_of[p.name] = key
        constants, steps = {}, []
        states = set()  # the memory states: U monads and UpdateState outputs
        for node in g.node:
            if node.op_type == "Constant":
                value = mo.decode_value(node.attribute[0],
                                        f"the constant '{node.name}' of {self.what}")
                constants[node.output[0]] = Tensor(value) if isinstance(value, np.ndarray) \
                    else value
                if isinstance(value, mo.Monad):
                    states.add(node.output[0])
            else:
                steps.append(self._step(node, constants, states))
        if len(g.output) != 1:
            raise ValueError(f"For 'load', {self.what} has {len(g.output)} graph outputs; "
                             f"a MINDIR graph has one.")
        known = set(constants) | set(weight_of) | {i.name for i in inputs}
        for step in steps:
            missing = [i for i in step.inputs if i not in known]
            if missing:
                raise ValueError(f"For 'load', the node {step.label} of {self.what} reads "
                                 f"'{missing[0]}', which no earlier node makes: the file is "
                                 f"damaged.")
            known.add(step.output)
        if g.output[0].name not in known:
            raise ValueError(f"For 'load', the output '{g.output[0].name}' of {self.what} is "
                             f"made by no node: the file is damaged.")
        return MindIRGraph(g.name, inputs, weights, weight_of, constants, steps,
                           g.output[0].name, self.model)

    def _input(self, v) -> InputInfo:
        if v.attr_info.type in (mo.LIST, mo.TUPLE):  # a list or tuple of tensors
            return InputInfo(v.name, (), None, "list" if v.attr_info.type == mo.LIST
                             else "tuple")
        return InputInfo(v.name, tuple(None if d < 0 else int(d) for d in v.tensor[0].dims),
                         self._dtype(v.tensor[0].data_type, v.name))

    def _dtype(self, code: int, what: str) -> np.dtype:
        dtype = mo.CODE_DTYPES.get(code)
        if dtype is None:
            raise ValueError(f"For 'load', the input '{what}' of {self.what} has the MINDIR "
                             f"data type {code}, which graphkiln cannot read.")
        return dtype

    def _step(self, node, constants: dict, states: set) -> Step:
        kind, _, prim_name = node.op_type.partition("::")
        prim = self.prims.get(prim_name)
        if kind != "REF" or prim is None:
            raise ValueError(f"For 'load', the node '{node.name}' of {self.what} applies "
                             f"'{node.op_type}', which is no primitive of the file.")
        op = prim.op_type
        label = f"'{node.name}' ({op})"
        inputs = tuple(node.input)
        if op in _STRUCTURAL:
            if op == "UpdateState":
                states.add(node.output[0])
            return Step(node.output[0], _STRUCTURAL[op], inputs, label)
        # graphkiln orders a primitive's memory effect itself: the state it follows is dropped
        inputs = tuple(i for i in inputs if i not in states)
        if op in _ADAPTED and prim.prim_type == mo.PRIMITIVE_FUNCTION:
            return Step(node.output[0], _ADAPTED[op], inputs, label)
        name = mo.GRAPHKILN_NAMES.get(op, op)
        opdef = REGISTRY.get(name)
        if opdef is None:
            raise ValueError(f"For 'load', the node {label} of {self.what} applies the "
                             f"primitive '{op}', which graphkiln does not have.")
        if prim.prim_type == mo.PRIMITIVE_FUNCTION:
            attrs, inputs = self._function_args(op, opdef, inputs, constants, label)
        else:
            attrs = self._plain_attrs(prim, opdef)
        return Step(node.output[0], Primitive(opdef, attrs), inputs, label)

    def _function_args(self, op: str, opdef, inputs: tuple, constants: dict, label: str):
        """The attributes (constructor arguments) and tensor inputs of a primitive
        function's node, whose inputs hold both."""
        signature = mo.SIGNATURES.get(op)
        if signature is None:
            raise ValueError(f"For 'load', the node {label} of {self.what} applies the "
                             f"primitive '{op}', whose MINDIR arguments graphkiln does not "
                             f"know.")
        call, init = signature
        if len(inputs) != len(call) + len(init):
            raise ValueError(f"For 'load', the node {label} of {self.what} has {len(inputs)} "
                             f"inputs; '{op}' takes {len(call) + len(init)}.")
        attrs = {}
        for arg, source in zip(init, inputs[len(call):]):
            if source not in constants:
                raise ValueError(f"For 'load', the argument '{arg}' of the node {label} of "
                                 f"{self.what} is computed at run time; graphkiln needs a "
                                 f"constant there.")
            if arg in opdef.attrs:
                attrs[arg] = _attr_value(arg, mo.decode_enum(arg, constants[source]))
        return attrs, inputs[:len(call)]

    @staticmethod
    def _plain_attrs(prim, opdef) -> dict:
        attrs = {}
        names = {v: k for k, v in mo.PLAIN_ATTR_NAMES.items()}
        for a in prim.attribute:
            arg = names.get(a.name, a.name)
            if arg in opdef.attrs:
                value = mo.decode_value(a, f"the attribute '{a.name}' of '{prim.op_type}'")
                attrs[arg] = _attr_value(arg, value)
        return attrs


def _attr_value(arg: str, value):
    """An attribute in the form graphkiln's primitive takes: pad modes in lower case,
    4-element window sizes (``(1, 1, kh, kw)``) as their spatial pair."""
    if arg == "pad_mode" and isinstance(value, str):
        return value.lower()
    if arg in ("kernel_size", "strides", "stride", "dilation") and isinstance(value, tuple) \
            and len(value) == 4:
        return value[2:]
    if arg == "axis" and isinstance(value, tuple) and len(value) == 1:
        return value[0]
    return value

