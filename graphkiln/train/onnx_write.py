"""Write a graphkiln graph (after its passes) as an ONNX model (opset 20) that
``onnxruntime`` runs: convolutions, pooling, batch and layer norm, dense and batched matrix
products, activations, reductions, reshape/transpose/concat/slicing. A primitive without an
ONNX form raises a ValueError naming it. Needs the ``onnx`` package (``graphkiln[onnx]``)."""
from __future__ import annotations

import numpy as np
import onnx
from onnx import helper, numpy_helper

from ..common import dtype as mstype
from ..ir.abstract import AbstractScalar, AbstractTensor, AbstractTuple
from ..ir.anf import CNode, FuncGraph, ValueNode, toposort
from ..ir.primitive import Primitive

OPSET = 20

_UNARY = {"Tanh": "Tanh", "ReLU": "Relu", "Sigmoid": "Sigmoid", "Exp": "Exp", "Log": "Log",
          "Abs": "Abs", "Neg": "Neg", "Sqrt": "Sqrt", "Erf": "Erf", "Reciprocal": "Reciprocal",
          "Floor": "Floor", "Ceil": "Ceil", "Sin": "Sin", "Cos": "Cos"}
_BINARY = {"Add": "Add", "Sub": "Sub", "Mul": "Mul", "Div": "Div", "RealDiv": "Div",
           "Pow": "Pow", "Maximum": "Max", "Minimum": "Min"}
_REDUCE = {"ReduceMean": "ReduceMean", "ReduceSum": "ReduceSum", "ReduceMax": "ReduceMax",
           "ReduceMin": "ReduceMin"}


def write_onnx(graph: FuncGraph, weights: dict[str, np.ndarray]) -> bytes:
    """The serialized ONNX ModelProto of ``graph``; ``weights`` maps names to values."""
    model = _Writer(graph, weights).model()
    onnx.checker.check_model(model)
    return model.SerializeToString()


class _Writer:
    def __init__(self, graph: FuncGraph, weights: dict[str, np.ndarray]):
        self.graph = graph
        self.weights = weights
        self.nodes: list = []
        self.initializers: list = []
        self.values: dict[int, object] = {}  # id(node) -> a name, or a list of names
        self.count = 0

    def model(self) -> onnx.ModelProto:
        inputs = []
        for p in self.graph.params:
            if not isinstance(p.abstract, AbstractTensor):
                raise TypeError(f"For 'export', the input '{p.name}' is not a tensor; ONNX "
                                f"inputs are tensors.")
            self.values[id(p)] = p.name
            inputs.append(_value_info(p.name, p.abstract))
        for p in self.graph.weights:
            name = p.weight.name
            self.values[id(p)] = name
            self.initializers.append(numpy_helper.from_array(self.weights[name], name))
        for node in toposort(self.graph):
            self.values[id(node)] = self._node(node)
        out = self.graph.output
        if isinstance(out.abstract, AbstractTuple):  # several outputs
            names = self.values[id(out)]
            outputs = [_value_info(n, a) for n, a in zip(names, out.abstract.elements)]
        else:
            outputs = [_value_info(self._tensor(out), out.abstract)]
        g = helper.make_graph(self.nodes, self.graph.name, inputs, outputs, self.initializers)
        return helper.make_model(g, producer_name="graphkiln",
                                 opset_imports=[helper.make_opsetid("", OPSET)])

    # ------------------------------------------------------------ helpers
    def _fresh(self, hint: str) -> str:
        self.count += 1
        return f"{hint}_{self.count}"

    def _emit(self, op: str, inputs: list[str], n_out: int = 1, **attrs):
        outs = [self._fresh(op) for _ in range(n_out)]
        self.nodes.append(helper.make_node(op, inputs, outs, **attrs))
        return outs[0] if n_out == 1 else outs

    def _const(self, value, dtype=np.int64) -> str:
        name = self._fresh("const")
        self.initializers.append(numpy_helper.from_array(np.asarray(value, dtype), name))
        return name

    def _tensor(self, node, like=None) -> str:
        """The ONNX name of ``node``'s tensor value (constants become initializers, of
        ``like``'s dtype for Python scalars)."""
        if isinstance(node, ValueNode):
            value = node.value
            if isinstance(value, np.ndarray):
                return self._const(value, value.dtype)
            dtype = np.float32 if like is None else _np_dtype(like.abstract)
            return self._const(value, dtype)
        value = self.values[id(node)]
        if isinstance(value, list):
            raise ValueError("For 'export', a tuple is used where ONNX needs one tensor.")
        return value

    def _shape(self, node) -> str:
        """A shape argument (a constant tuple or a run-time one) as an int64 1-D tensor."""
        if isinstance(node, ValueNode):
            return self._const(list(node.value))
        return self._tensor(node)

    # ------------------------------------------------------------ nodes
    def _node(self, node: CNode):
        fn = node.fn
        if not isinstance(fn, ValueNode) or not isinstance(fn.value, Primitive):
            raise ValueError(f"For 'export', the graph calls {fn!r}; graphkiln writes ONNX "
                             f"graphs of primitives only (no control flow or sub-graphs).")
        prim = fn.value
        name, args = prim.name, list(node.args)
        attrs = {**prim.opdef.attrs, **prim.attrs}
        rule = getattr(self, f"_op_{name}", None)
        if rule is not None:
            return rule(node, args, attrs)
        if name in _UNARY:
            return self._emit(_UNARY[name], [self._tensor(args[0])])
        if name in _BINARY:
            like = args[0] if not isinstance(args[0], ValueNode) else args[1]
            return self._emit(_BINARY[name], [self._tensor(a, like) for a in args])
        if name in _REDUCE:
            axes = args[1].value if len(args) > 1 else ()
            axes = [axes] if isinstance(axes, int) else list(axes)
            x = self._tensor(args[0])
            if not axes:
                return self._emit(_REDUCE[name], [x], keepdims=int(attrs["keep_dims"]))
            return self._emit(_REDUCE[name], [x, self._const(axes)],
                              keepdims=int(attrs["keep_dims"]))
        raise ValueError(f"For 'export', the primitive '{name}' has no ONNX mapping in "
                         f"graphkiln; export this network as MINDIR instead.")

    def _op_Load(self, node, args, attrs):
        return self.values[id(args[0])]

    def _op_Depend(self, node, args, attrs):
        return self.values[id(args[0])] if not isinstance(args[0], ValueNode) \
            else self._tensor(args[0])

    def _op_MakeTuple(self, node, args, attrs):
        if all(isinstance(a.abstract, AbstractTensor) for a in args):
            return [self._tensor(a) for a in args]
        parts = [self._const([a.value]) if isinstance(a, ValueNode) else self._tensor(a)
                 for a in args]  # a shape: run-time sizes are 1-element int64 tensors
        return self._emit("Concat", parts, axis=0)

    def _op_TupleGetItem(self, node, args, attrs):
        index = args[1].value
        seq = self.values[id(args[0])]
        if isinstance(seq, list):
            return seq[index]
        return self._emit("Gather", [seq, self._const([index])], axis=0)  # a shape's size

    def _op_Shape(self, node, args, attrs):
        return self._emit("Shape", [self._tensor(args[0])])

    _op_TensorShape = _op_Shape

    def _op_MatMul(self, node, args, attrs):
        a, b = (self._tensor(x) for x in args)
        return self._emit("Gemm", [a, b], transA=int(attrs["transpose_a"]),
                          transB=int(attrs["transpose_b"]))

    def _op_BatchMatMul(self, node, args, attrs):
        a, b = (self._tensor(x) for x in args)
        if attrs["transpose_a"]:
            a = self._swap_last(a, args[0].abstract.ndim)
        if attrs["transpose_b"]:
            b = self._swap_last(b, args[1].abstract.ndim)
        return self._emit("MatMul", [a, b])

    def _swap_last(self, x: str, ndim: int) -> str:
        perm = list(range(ndim))
        perm[-2:] = perm[-1], perm[-2]
        return self._emit("Transpose", [x], perm=perm)

    def _op_BiasAdd(self, node, args, attrs):
        x, b = args
        ndim = x.abstract.ndim
        shape = [1, -1] + [1] * (ndim - 2) if attrs["data_format"] != "NHWC" else [-1]
        b = self._emit("Reshape", [self._tensor(b), self._const(shape)])
        return self._emit("Add", [self._tensor(x), b])

    def _op_Softmax(self, node, args, attrs):
        return self._emit("Softmax", [self._tensor(args[0])], axis=_one_axis(attrs["axis"]))

    def _op_LogSoftmax(self, node, args, attrs):
        return self._emit("LogSoftmax", [self._tensor(args[0])],
                          axis=_one_axis(attrs["axis"]))

    def _op_GeLU(self, node, args, attrs):
        approximate = "tanh" if attrs.get("approximate", "tanh") == "tanh" else "none"
        return self._emit("Gelu", [self._tensor(args[0])], approximate=approximate)

    def _op_Reshape(self, node, args, attrs):
        return self._emit("Reshape", [self._tensor(args[0]), self._shape(args[1])])

    def _op_Transpose(self, node, args, attrs):
        return self._emit("Transpose", [self._tensor(args[0])], perm=list(args[1].value))

    def _op_Flatten(self, node, args, attrs):
        return self._emit("Flatten", [self._tensor(args[0])], axis=1)

    def _op_ExpandDims(self, node, args, attrs):
        return self._emit("Unsqueeze", [self._tensor(args[0]), self._const([args[1].value])])

    def _op_Squeeze(self, node, args, attrs):
        axis = attrs["axis"]
        axis = [axis] if isinstance(axis, int) else list(axis)
        inputs = [self._tensor(args[0])] + ([self._const(axis)] if axis else [])
        return self._emit("Squeeze", inputs)

    def _op_Concat(self, node, args, attrs):
        parts = self.values[id(args[0])]
        return self._emit("Concat", list(parts), axis=attrs["axis"])

    def _op_Getitem(self, node, args, attrs):
        x, index = args
        index = index.value if isinstance(index, ValueNode) else None
        items = index if isinstance(index, tuple) else (index,)
        starts, ends, axes, squeeze = [], [], [], []
        for axis, item in enumerate(items):
            if isinstance(item, (int, np.integer)) and not isinstance(item, bool):
                starts.append(int(item))
                ends.append(int(item) + 1 if item != -1 else 2 ** 62)
                squeeze.append(axis)
            elif isinstance(item, slice) and item.step in (None, 1):
                starts.append(0 if item.start is None else item.start)
                ends.append(2 ** 62 if item.stop is None else item.stop)
            else:
                raise ValueError(f"For 'export', the index {index!r} of a tensor has no ONNX "
                                 f"mapping in graphkiln (constant ints and unit-step slices "
                                 f"only).")
            axes.append(axis)
        out = self._emit("Slice", [self._tensor(x), self._const(starts), self._const(ends),
                                   self._const(axes)])
        return self._emit("Squeeze", [out, self._const(squeeze)]) if squeeze else out

    def _op_StridedSlice(self, node, args, attrs):
        if attrs["ellipsis_mask"] or attrs["new_axis_mask"] or \
                not all(isinstance(a, ValueNode) for a in args[1:]):
            raise ValueError("For 'export', a StridedSlice with ellipsis_mask, new_axis_mask or "
                             "run-time bounds has no ONNX mapping in graphkiln.")
        begin, end, strides = (list(a.value) for a in args[1:])
        big = 2 ** 62
        for i, step in enumerate(strides):
            if attrs["begin_mask"] >> i & 1:
                begin[i] = 0 if step > 0 else big
            if attrs["end_mask"] >> i & 1:
                end[i] = big if step > 0 else -big
            if attrs["shrink_axis_mask"] >> i & 1:
                end[i] = begin[i] + 1 if begin[i] != -1 else big
        axes = list(range(len(begin)))
        out = self._emit("Slice", [self._tensor(args[0]), self._const(begin), self._const(end),
                                   self._const(axes), self._const(strides)])
        shrink = [i for i in axes if attrs["shrink_axis_mask"] >> i & 1]
        return self._emit("Squeeze", [out, self._const(shrink)]) if shrink else out

    def _op_BatchNorm(self, node, args, attrs):
        if attrs["is_training"]:
            raise ValueError("For 'export', BatchNorm in training mode has no ONNX mapping; "
                             "call net.set_train(False) first.")
        if attrs["data_format"] != "NCHW":
            raise ValueError("For 'export', BatchNorm in NHWC has no ONNX mapping.")
        y = self._emit("BatchNormalization", [self._tensor(a) for a in args],
                       epsilon=float(attrs["epsilon"]))
        return [y]  # inference: TupleGetItem(., 0) is the only reader

    def _op_LayerNorm(self, node, args, attrs):
        axis = attrs["begin_norm_axis"]
        if attrs["begin_params_axis"] != axis:
            raise ValueError("For 'export', LayerNorm with begin_params_axis != "
                             "begin_norm_axis has no ONNX mapping.")
        return self._emit("LayerNormalization", [self._tensor(a) for a in args], n_out=3,
                          axis=axis, epsilon=float(attrs["epsilon"]))

    def _op_Conv2D(self, node, args, attrs):
        if attrs["data_format"] != "NCHW":
            raise ValueError("For 'export', Conv2D in NHWC has no ONNX mapping.")
        kernel = _pair(attrs["kernel_size"])
        return self._emit("Conv", [self._tensor(a) for a in args], kernel_shape=kernel,
                          strides=_pair(attrs["stride"]), dilations=_pair(attrs["dilation"]),
                          group=attrs["group"], **_padding(attrs, "pad"))

    def _op_Conv2DBackpropInput(self, node, args, attrs):  # a transposed convolution
        if attrs["data_format"] != "NCHW":
            raise ValueError("For 'export', Conv2DTranspose in NHWC has no ONNX mapping.")
        return self._emit("ConvTranspose", [self._tensor(a) for a in args[:2]],
                          kernel_shape=_pair(attrs["kernel_size"]),
                          strides=_pair(attrs["stride"]), dilations=_pair(attrs["dilation"]),
                          group=attrs["group"], **_padding(attrs, "pad"))

    def _op_Cast(self, node, args, attrs):
        to = helper.np_dtype_to_tensor_dtype(np.dtype(mstype.dtype_to_nptype(args[1].value)))
        return self._emit("Cast", [self._tensor(args[0])], to=to)

    def _op_MaxPool(self, node, args, attrs):
        return self._pool("MaxPool", args, attrs, {})

    def _op_AvgPool(self, node, args, attrs):
        return self._pool("AveragePool", args, attrs, {"count_include_pad": 0})

    def _pool(self, op: str, args, attrs, extra: dict):
        if attrs["data_format"] != "NCHW" or attrs.get("ceil_mode"):
            raise ValueError(f"For 'export', this {op} (NHWC or ceil_mode) has no ONNX "
                             f"mapping.")
        return self._emit(op, [self._tensor(args[0])], kernel_shape=_pair(attrs["kernel_size"]),
                          strides=_pair(attrs["strides"]), **_padding(attrs, "pad"), **extra)


def _padding(attrs: dict, key: str) -> dict:
    """ONNX's padding attributes for MindSpore's pad modes ('same' pads more at the end)."""
    mode = attrs["pad_mode"].lower()
    if mode == "same":
        return {"auto_pad": "SAME_UPPER"}
    if mode == "valid":
        return {"pads": [0, 0, 0, 0]}
    pad = attrs.get(key, 0)
    top, bottom, left, right = (pad,) * 4 if isinstance(pad, int) else tuple(pad)
    return {"pads": [top, left, bottom, right]}


def _pair(value) -> list[int]:
    return [value, value] if isinstance(value, int) else list(value)[-2:]


def _one_axis(axis) -> int:
    if isinstance(axis, (tuple, list)):
        if len(axis) != 1:
            raise ValueError(f"For 'export', a softmax over axes {axis} has no ONNX mapping.")
        return axis[0]
    return axis


def _np_dtype(abstract) -> np.dtype:
    return np.dtype(mstype.dtype_to_nptype(abstract.dtype))


def _value_info(name: str, abstract):
    if isinstance(abstract, AbstractTuple) or isinstance(abstract, AbstractScalar):
        raise TypeError(f"For 'export', the value '{name}' is not a tensor; ONNX graph "
                        f"inputs and outputs are tensors.")
    elem = helper.np_dtype_to_tensor_dtype(_np_dtype(abstract))
    dims = [d if d >= 0 else f"dim{i}" for i, d in enumerate(abstract.shape)]
    return helper.make_tensor_value_info(name, elem, dims)

