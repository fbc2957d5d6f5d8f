"""Write a graphkiln graph (after its passes) as a ``.mindir`` file MindSpore 2.10 loads
with ``ms.load`` and runs with ``nn.GraphCell``: one node per primitive application, the
weights as graph parameters with their data, constants as ``Constant`` nodes, each node's
output type as its ``shape`` attribute."""
from __future__ import annotations

import numpy as np

import graphkiln.train.mindir_ops as mo

from ..common import dtype as mstype
from ..ir.abstract import (
    AbstractMonad,
    AbstractScalar,
    AbstractSequence,
    AbstractTensor,
    AbstractTuple,
)
from ..ir.anf import CNode, FuncGraph, Parameter, ValueNode, toposort
from ..ir.primitive import Primitive
from ..version import MINDSPORE_VERSION
from .mindir_schema import AttributeProto, ModelProto, PrimitiveProto, TensorProto

# graphkiln primitives MindSpore knows as plain primitives (inputs are tensors only).
_STRUCTURAL = ("Load", "UpdateState", "MakeTuple", "TupleGetItem", "Depend", "Shape")
_CONV_ATTRS = ("out_channel", "kernel_size", "mode", "pad_mode", "pad", "stride", "dilation",
               "group", "data_format")
_POOL_ATTRS = ("kernel_size", "strides", "pad_mode", "data_format")
_PLAIN = {
    "Conv2D": _CONV_ATTRS,
    "Conv2DBackpropInput": _CONV_ATTRS,
    "Conv2DBackpropFilter": _CONV_ATTRS,
    "MaxPool": _POOL_ATTRS,
    "MaxPoolGrad": _POOL_ATTRS,
    "ApplyMomentum": ("use_nesterov", "use_locking", "gradient_scale"),
    "SGD": ("dampening", "weight_decay", "nesterov"),
    "Adam": ("use_locking", "use_nesterov"),
    "ApplyRMSProp": ("use_locking",),
    "ApplyAdagrad": ("update_slots",),
    "ApplyFtrl": ("use_locking",),
    "PSROIPooling": ("spatial_scale", "group_size", "output_dim"),
    "PSROIPoolingGrad": ("input_size", "spatial_scale", "group_size", "output_dim"),
    "SparseSoftmaxCrossEntropyWithLogits": ("is_grad", "sens"),
}
# graphkiln primitives MindSpore's exports name otherwise
_MINDSPORE_NAMES = {"Conv2DBackpropInput": "Conv2DTranspose"}
# primitives whose Python-number operands are written as 0-d tensors of their first tensor
# operand's dtype (as MindSpore writes `x + 1.0`, and FTRL's l1, l2 and lr_power); Select's
# value operands take the dtype of the other value
_TENSOR_OPERANDS = {"Add", "Sub", "Div", "RealDiv", "Maximum", "Minimum", "Pow", "NotEqual",
                    "Greater", "ApplyAdagrad", "ApplyFtrl"}


def write_mindir(graph: FuncGraph, weights: dict[str, np.ndarray], inputs=None) -> bytes:
    """The serialized ModelProto of ``graph``; ``weights`` maps weight names to values;
    ``inputs`` (the example inputs) tells which graph parameters a list or tuple input
    became (one each for its Tensors, or one for a sequence of dynamic length)."""
    return _Writer(graph, weights).model(inputs).SerializeToString()


class _Writer:
    def __init__(self, graph: FuncGraph, weights: dict[str, np.ndarray]):
        self.graph = graph
        self.weights = weights
        self.proto = ModelProto(ir_version=mo.IR_VERSION, producer_name="MindSpore",
                                model_version=MINDSPORE_VERSION, little_endian=True,
                                mind_ir_version=mo.MINDIR_VERSION)
        self.g = self.proto.graph
        self.g.name = graph.name
        self.names: dict[int, str] = {}  # id(node) -> the name of its value in the file
        self.prims: dict[tuple, str] = {}  # (op_type, attrs) -> PrimitiveProto name
        self.constants = 0
        self.applied = 0

    def model(self, inputs=None) -> ModelProto:
        params, i = self.graph.params, 0
        for x in inputs if inputs is not None else params:
            if not isinstance(x, (list, tuple)):
                self._input(params[i])
                i += 1
            elif isinstance(params[i].abstract, AbstractSequence):  # of dynamic length
                self._sequence_input(params[i], x)
                i += 1
            else:
                self._sequence_input(params[i:i + len(x)], x)
                i += len(x)
        for p in self.graph.weights:
            self._weight(p)
        for node in toposort(self.graph):
            self._node(node)
        out = self.graph.output
        info = self.g.output.add(name=self._value(out))
        if isinstance(out.abstract, AbstractTuple):  # several outputs: their types
            info.attr_info.CopyFrom(_shape_attr(out.abstract))
        else:
            self._value_info(info, out.abstract, "the graph's output")
        return self.proto

    # ------------------------------------------------------------ graph inputs
    def _input(self, p: Parameter) -> None:
        name = self.names[id(p)] = f"{self.graph.name}:{p.name}"
        if not isinstance(p.abstract, AbstractTensor):
            raise TypeError(f"For 'export', the input '{p.name}' is not a tensor "
                            f"({p.abstract}); MINDIR inputs are tensors.")
        self._value_info(self.g.input.add(name=name), p.abstract, f"the input '{p.name}'")

    def _sequence_input(self, params, example) -> None:
        """A list or tuple input, as MindSpore writes it: its element types (and, for a
        dynamic length, their common type); a fixed one's elements are read by
        ``list_getitem``/``TupleGetItem`` nodes."""
        kind = "List" if isinstance(example, list) else "Tuple"
        dynamic = not isinstance(params, list)
        first = params if dynamic else params[0]
        arg = first.name if dynamic else first.name.rpartition("_")[0]
        name = f"{self.graph.name}:{arg}"
        info = self.g.input.add(name=name, denotation=kind)
        info.attr_info.type = mo.LIST if kind == "List" else mo.TUPLE
        for e in example:
            info.attr_info.values.append(_shape_attr(AbstractTensor(e.dtype, e.shape)))
        info.attr_info.seq_info.is_dyn_len = dynamic
        if dynamic:
            self.names[id(params)] = name
            info.attr_info.seq_info.tuple_elem_item.CopyFrom(_shape_attr(params.abstract.element))
            return
        getitem = "list_getitem" if kind == "List" else "TupleGetItem"
        for i, p in enumerate(params):
            self.names[id(p)] = self._apply(getitem, [name, self._constant(i)], {}, p.abstract)

    def _weight(self, p: Parameter) -> None:
        key = p.weight.name
        name = self.names[id(p)] = f"{self.graph.name}:{key}"
        proto = mo.tensor_proto(self.weights[key], name)
        proto.ref_key = key
        self.g.parameter.append(proto)

    @staticmethod
    def _value_info(info, abstract, what: str) -> None:
        info.tensor.append(_tensor_type(abstract, what))

    # ------------------------------------------------------------ nodes
    def _value(self, node) -> str:
        """The file name of ``node``'s value (a Constant node for a ValueNode)."""
        if isinstance(node, ValueNode):
            return self._constant(node.value)
        return self.names[id(node)]

    def _constant(self, value) -> str:
        if isinstance(value, np.generic):
            value = value.item()
        elif isinstance(value, mstype.Type):  # a dtype argument (Cast): its TypeId
            value = mo.type_id(value)
        name = f"ValueNode_{self.constants}"
        self.constants += 1
        node = self.g.node.add(output=[name], name=name, op_type="Constant")
        node.attribute.append(mo.encode_value(value))
        return name

    def _node(self, node: CNode) -> None:
        fn = node.fn
        if not isinstance(fn, ValueNode) or not isinstance(fn.value, Primitive):
            raise ValueError(f"For 'export', the graph calls {fn!r}; graphkiln writes MINDIR "
                             f"graphs of primitives only (no control flow or sub-graphs).")
        prim = fn.value
        name = prim.name
        args = list(node.args)
        given = {**prim.opdef.attrs, **prim.attrs}
        if name == "GeLU" and given["approximate"] != "tanh":
            self.names[id(node)] = self._erf_gelu(self._value(args[0]), node.abstract)
            return
        if name in _TENSOR_OPERANDS:
            args = _scalars_as_tensors(args)
        elif name == "Select":
            args = args[:1] + _scalars_as_tensors(args[1:])
        if name == "SequenceGetItem":
            seq = args[0].abstract
            op = "list_getitem" if getattr(seq, "is_list", False) else "TupleGetItem"
            op, inputs, attrs = op, [self._value(a) for a in args], {}
        elif name == "Getitem":
            op, inputs, attrs = "StridedSlice", self._getitem(node, args), {}
        elif name == "Mul" and isinstance(args[1], ValueNode) and np.ndim(args[1].value) == 0:
            op, inputs, attrs = "Muls", [self._value(a) for a in args], {}
        elif name in mo.MEMORY_EFFECTS and name in mo.SIGNATURES:  # the state goes last
            inputs = self._function_inputs(prim, args[:-1]) + [self._value(args[-1])]
            op, attrs = name, {"side_effect_mem": True}
        elif name == "OneHot":
            op, inputs, attrs = name, self._function_inputs(prim, _one_hot_values(args)), {}
        elif name in _STRUCTURAL:
            op, inputs, attrs = name, [self._value(a) for a in args], {}
        elif name in _PLAIN:
            op, inputs, attrs = name, [self._value(a) for a in args], _plain_attrs(prim)
            if name in mo.MEMORY_EFFECTS:
                attrs["side_effect_mem"] = True
        elif name in mo.SIGNATURES:
            op, inputs, attrs = name, self._function_inputs(prim, args), {}
        else:
            raise ValueError(f"For 'export', the primitive '{name}' has no MINDIR mapping "
                             f"in graphkiln yet; the ops graphkiln writes are "
                             f"{sorted({*mo.SIGNATURES, *_PLAIN, *_STRUCTURAL, 'Getitem'})}.")
        self.names[id(node)] = self._apply(_MINDSPORE_NAMES.get(op, op), inputs, attrs,
                                           node.abstract)

    def _apply(self, op: str, inputs: list[str], attrs: dict, abstract) -> str:
        """Add a node applying ``op``; the name of its output."""
        self.applied += 1
        out = f"{self.graph.name}:CNode_{self.applied}"
        proto = self.g.node.add(output=[out], name=out, op_type=f"REF::{self._prim(op, attrs)}")
        proto.input.extend(inputs)
        shape = _shape_attr(abstract)
        if shape is not None:
            proto.attribute.append(shape)
        return out

    def _erf_gelu(self, x: str, abstract) -> str:
        """GELU without the tanh approximation (MindSpore's GeLU primitive has it), as
        MindSpore's ``nn.GELU(approximate=False)`` writes it: ``x * (erf(x/sqrt 2) + 1) / 2``."""
        one = self._constant(np.ones((), _np_dtype(abstract)))
        t = self._apply("Muls", [x, self._constant(float(1 / np.sqrt(2)))], {}, abstract)
        e = self._apply("Add", [self._apply("Erf", [t], {}, abstract), one], {}, abstract)
        h = self._apply("Mul", [x, e], {}, abstract)
        return self._apply("Muls", [h, self._constant(0.5)], {}, abstract)
    def _prim(self, op: str, attrs: dict) -> str:
        key = (op, tuple(sorted((k, repr(v)) for k, v in attrs.items())))
        name = self.prims.get(key)
        if name is None:
            name = self.prims[key] = f"{op}:{len(self.prims)}"
            kind = mo.PRIMITIVE_FUNCTION if op in mo.SIGNATURES else mo.PRIMITIVE
            proto = PrimitiveProto(name=name, op_type=op, prim_type=kind)
            for attr_name, value in attrs.items():
                proto.attribute.append(mo.encode_value(value, attr_name))
            self.proto.primitives.append(proto)
        return name

    def _function_inputs(self, prim: Primitive, args: list) -> list[str]:
        call, init = mo.SIGNATURES[prim.name]
        if len(args) != len(call):
            raise ValueError(f"For 'export', '{prim.name}' has {len(args)} inputs here; its "
                             f"MINDIR form takes {len(call)}.")
        inputs = [self._value(a) for a in args]
        given = {**prim.opdef.attrs, **prim.attrs}
        for arg in init:
            if arg not in given:
                raise ValueError(f"For 'export', '{prim.name}' has no attribute '{arg}', "
                                 f"which its MINDIR form needs.")
            inputs.append(self._constant(_function_arg(prim.name, arg, given[arg])))
        return inputs

    def _getitem(self, node: CNode, args: list) -> list[str]:
        """``x[index]`` with a constant index of ints and slices, as ``StridedSlice``."""
        x, index = args
        index = index.value if isinstance(index, ValueNode) else None
        items = index if isinstance(index, tuple) else (index,)
        shape = x.abstract.shape
        begin, end, strides, shrink = [], [], [], 0
        for axis, item in enumerate(items):
            if isinstance(item, (int, np.integer)) and not isinstance(item, bool):
                begin.append(int(item))
                end.append(int(item) + 1 if item != -1 else shape[axis])
                strides.append(1)
                shrink |= 1 << axis
            elif isinstance(item, slice) and item.step in (None, 1) and axis < len(shape):
                start, stop, _ = item.indices(shape[axis] if shape[axis] >= 0 else 2 ** 62)
                begin.append(start)
                end.append(stop)
                strides.append(1)
            else:
                raise ValueError(f"For 'export', the index {index!r} of a tensor has no "
                                 f"MINDIR mapping in graphkiln yet (constant ints and "
                                 f"unit-step slices only).")
        consts = [tuple(begin), tuple(end), tuple(strides), 0, 0, 0, 0, shrink]
        return [self._value(x), *(self._constant(c) for c in consts)]


def _scalars_as_tensors(args: list) -> list:
    """``args`` with a Python-number constant made a 0-d tensor of the other's dtype."""
    tensors = [a for a in args if isinstance(a.abstract, AbstractTensor)
               and not isinstance(a, ValueNode)]
    if not tensors:
        return args
    dtype = _np_dtype(tensors[0].abstract)
    return [ValueNode(np.asarray(a.value, dtype)) if isinstance(a, ValueNode)
            and isinstance(a.value, (int, float, np.number)) and not isinstance(a.value, bool)
            else a for a in args]


def _one_hot_values(args: list) -> list:
    """OneHot's arguments with number ``on_value``/``off_value`` as 0-d tensors of the
    output dtype (MindSpore's inputs are tensors)."""
    indices, depth, on, off = args
    dtype = _np_dtype(on.abstract) if isinstance(on.abstract, AbstractTensor) else np.float32
    return [indices, depth, *(ValueNode(np.asarray(v.value, dtype)) if isinstance(v, ValueNode)
                              and not isinstance(v.value, np.ndarray) else v for v in (on, off))]


def _np_dtype(abstract) -> np.dtype:
    return np.dtype(mstype.dtype_to_nptype(abstract.dtype))


def _function_arg(op: str, arg: str, value):
    """A constructor argument as a primitive function's input: enums as integers, window
    sizes as pairs, Softmax's and Squeeze's axis as tuples."""
    value = mo.encode_enum(arg, value)
    if arg in ("kernel_size", "strides") and isinstance(value, int):
        return (value, value)
    if op in ("Softmax", "Squeeze") and arg == "axis" and isinstance(value, int):
        return (value,)
    return value


def _plain_attrs(prim: Primitive) -> dict:
    """A plain primitive's attributes as MindSpore stores them (windows as 4-tuples
    ``(1, 1, h, w)``, MaxPool's pad mode in capitals, ``format`` for ``data_format``)."""
    attrs, given = {}, {**prim.opdef.attrs, **prim.attrs}
    for arg in _PLAIN[prim.name]:
        value = given[arg]
        pool = prim.name in ("MaxPool", "MaxPoolGrad")
        if arg in ("stride", "dilation", "strides") or (arg == "kernel_size" and pool):
            pair = (value, value) if isinstance(value, int) else tuple(value)[-2:]
            value = (1, 1, *pair)
        elif arg == "kernel_size" and isinstance(value, int):
            value = (value, value)
        elif arg == "pad" and isinstance(value, int):
            value = (value,) * 4
        elif arg == "pad_mode" and pool:
            value = value.upper()
        attrs[mo.PLAIN_ATTR_NAMES.get(arg, arg)] = value
    if "group" in attrs:
        attrs["groups"] = attrs["group"]
    return attrs


# Python number kinds as MINDIR data types (MindSpore's int and float are 64-bit)
_SCALAR_CODES = {bool: mo.DTYPE_CODES[np.dtype(np.bool_)],
                 int: mo.DTYPE_CODES[np.dtype(np.int64)],
                 float: mo.DTYPE_CODES[np.dtype(np.float64)]}


def _tensor_type(abstract, what: str) -> TensorProto:
    if not isinstance(abstract, AbstractTensor):
        raise TypeError(f"For 'export', {what} is not a tensor ({abstract}).")
    return TensorProto(dims=[d if d >= 0 else -1 for d in abstract.shape],
                       data_type=mo.DTYPE_CODES[_np_dtype(abstract)])


def _shape_attr(abstract) -> AttributeProto | None:
    """The ``shape`` attribute MindSpore gives a node: its output's tensor type(s)."""
    attr = AttributeProto(name="shape")
    if isinstance(abstract, AbstractTensor):
        attr.type = mo.TENSORS
        attr.tensors.append(_tensor_type(abstract, "a node's output"))
    elif isinstance(abstract, AbstractTuple):
        attr.type = mo.TUPLE
        for element in abstract.elements:
            item = _shape_attr(element)
            if item is None:
                return None
            attr.values.append(item)
        attr.seq_info.is_dyn_len = False
    elif isinstance(abstract, AbstractScalar):  # a number: a 0-d tensor type, as MindSpore
        code = _SCALAR_CODES.get(abstract.kind)
        if code is None:
            return None
        attr.type = mo.SCALAR
        attr.tensors.append(TensorProto(dims=[0], data_type=code))
    elif isinstance(abstract, AbstractMonad):
        attr.type = mo.UMONAD
    else:
        return None
    return attr
