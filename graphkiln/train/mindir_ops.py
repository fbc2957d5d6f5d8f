"""What a ``.mindir`` file's nodes mean, shared by the writer and the reader: the codes of
its dtypes and attribute types, how a constant or attribute value is encoded, and how each
MindSpore primitive lays out its inputs.

MindSpore 2.10 writes two kinds of primitive. A *primitive function* (``prim_type`` 2)
receives every argument as a node input: its call arguments first, then its constructor
arguments (``MatMul(x, w, transpose_a, transpose_b)``), strings as enum integers. A plain
*primitive* (``prim_type`` 1: ``Conv2D``, ``MaxPool``) receives only tensors; its
constructor arguments are attributes of its ``PrimitiveProto``.
"""
from __future__ import annotations

import numpy as np

from ..common import dtype as mstype
from ..ir.structural_prims import IO_MONAD, U_MONAD, Monad
from .mindir_schema import AttributeProto, TensorProto

# TensorProto.DataType
DTYPE_CODES = {np.dtype(np.float32): 1, np.dtype(np.uint8): 2, np.dtype(np.int8): 3,
               np.dtype(np.uint16): 4, np.dtype(np.int16): 5, np.dtype(np.int32): 6,
               np.dtype(np.int64): 7, np.dtype(np.bool_): 9, np.dtype(np.float16): 10,
               np.dtype(np.float64): 11, np.dtype(np.uint32): 12, np.dtype(np.uint64): 13,
               np.dtype(np.complex64): 14, np.dtype(np.complex128): 15}
CODE_DTYPES = {code: dt for dt, code in DTYPE_CODES.items()} | {17: np.dtype(np.float64)}

# MindSpore's TypeId numbers (a dtype argument of a primitive function, e.g. Cast's)
TYPE_IDS = {30: "bool_", 32: "int8", 33: "int16", 34: "int32", 35: "int64", 37: "uint8",
            38: "uint16", 39: "uint32", 40: "uint64", 42: "float16", 43: "float32",
            44: "float64", 45: "bfloat16", 51: "complex64", 52: "complex128"}

# AttributeProto.AttributeType
FLOAT, INT8, INT32, INT64, STRING, BOOL, DOUBLE = 1, 3, 6, 7, 8, 9, 11
TENSOR, TENSORS, TUPLE, LIST, UMONAD, IOMONAD, NONE, SCALAR = 17, 19, 20, 21, 23, 24, 25, 39
PRIMITIVE, PRIMITIVE_FUNCTION = 1, 2

MINDIR_VERSION = 3  # ModelProto.mind_ir_version MindSpore 2.10 writes and reads
IR_VERSION = "1.1"

PAD_MODES = ["pad", "same", "valid"]  # MindSpore's PadMode enum, by value
FORMATS = ["NCHW", "NHWC"]            # and its Format enum


# Primitive functions: (call arguments, constructor arguments), in MindSpore's order.
SIGNATURES: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "MatMul": (("input", "mat2"), ("transpose_a", "transpose_b")),
    "BatchMatMul": (("x", "y"), ("transpose_a", "transpose_b")),
    "MatMulExt": (("input", "other"), ()),
    "BiasAdd": (("input_x", "bias"), ("data_format",)),
    "BatchNorm": (("x", "scale", "bias", "mean", "variance"),
                  ("is_training", "epsilon", "momentum", "data_format")),
    "LayerNorm": (("input_x", "gamma", "beta"),
                  ("begin_norm_axis", "begin_params_axis", "epsilon")),
    "AvgPool": (("x",), ("kernel_size", "strides", "pad_mode", "data_format")),
    "Softmax": (("input",), ("axis",)),
    "LogSoftmax": (("logits",), ("axis",)),
    "ReduceMean": (("x", "axis"), ("keep_dims",)),
    "ReduceSum": (("x", "axis"), ("keep_dims", "skip_mode")),
    "ReduceMax": (("x", "axis"), ("keep_dims",)),
    "Reshape": (("input", "shape"), ()),
    "Transpose": (("input", "dims"), ()),
    "ExpandDims": (("input_x", "axis"), ()),
    "Squeeze": (("input",), ("axis",)),
    "Concat": (("tensors",), ("axis",)),
    "StridedSlice": (("input_x", "begin", "end", "strides"),
                     ("begin_mask", "end_mask", "ellipsis_mask", "new_axis_mask",
                      "shrink_axis_mask")),
    "Flatten": (("input_x",), ()),
    "Muls": (("input", "other"), ()),
    "Divs": (("input", "other"), ()),
    "Cast": (("input", "dtype"), ()),
    "Max": (("input",), ()),
    "Min": (("input",), ()),
    "SumExt": (("input", "dim", "keepdim", "dtype"), ()),
    "MeanExt": (("input", "dim", "keepdim", "dtype"), ()),
    **{name: (("input", "other"), ()) for name in (
        "Add", "Sub", "Mul", "Div", "Maximum", "Minimum", "Pow")},
    "RealDiv": (("x", "y"), ()),
    **{name: (("input",), ()) for name in (
        "ReLU", "Tanh", "Sigmoid", "GeLU", "Exp", "Log", "Abs", "Neg", "Erf", "Square",
        "SiLU")},
    "Sqrt": (("x",), ()),
    "Rsqrt": (("input",), ()),
    "Assign": (("variable", "value"), ()),
    "AssignAdd": (("ref", "value"), ()),
    "OneHot": (("indices", "depth", "on_value", "off_value"), ("axis",)),
    "NotEqual": (("input", "other"), ()),
    "ReluGrad": (("y_backprop", "x"), ()),
    "BroadcastTo": (("input",), ("shape",)),
    "AdamWeightDecay": (("var", "m", "v", "lr", "beta1", "beta2", "epsilon", "decay",
                         "gradient"), ("use_locking",)),
    "BiasAddGrad": (("dout",), ("data_format",)),
    "Greater": (("input", "other"), ()),
    "Select": (("condition", "input", "other"), ()),
    "PowTensorScalar": (("input", "exponent"), ()),
}

# Primitives that write a weight: MindSpore marks them ``side_effect_mem`` and gives each
# node the memory state it follows (a U monad) as its last input.
MEMORY_EFFECTS = ("Assign", "AssignAdd", "ApplyMomentum", "SGD", "Adam", "AdamWeightDecay",
                  "ApplyRMSProp", "ApplyAdagrad", "ApplyFtrl")

# The constructor arguments encoded as enum integers, with their values by number.
ENUM_ARGS = {"pad_mode": PAD_MODES, "data_format": FORMATS}

# MindSpore primitives graphkiln runs under another name (same arguments).
GRAPHKILN_NAMES = {"Muls": "Mul", "Divs": "Div", "MatMulExt": "BatchMatMul",
                   "Conv2DTranspose": "Conv2DBackpropInput", "PowTensorScalar": "Pow"}

# Plain primitives graphkiln writes, with MindSpore's extra attributes, per attribute name.
PLAIN_ATTR_NAMES = {"data_format": "format"}


def type_id(dtype) -> int:
    """MindSpore's TypeId of a graphkiln dtype (``float32`` -> 43)."""
    for number, name in TYPE_IDS.items():
        if getattr(mstype, name, None) == dtype:
            return number
    raise TypeError(f"For 'export', the dtype {dtype} has no MindSpore TypeId.")


def decode_enum(arg: str, value):
    """A constructor argument as graphkiln holds it (``pad_mode`` 2 -> ``"valid"``)."""
    names = ENUM_ARGS.get(arg)
    if names is not None and isinstance(value, int) and not isinstance(value, bool):
        if not 0 <= value < len(names):
            raise ValueError(f"For 'load', the value {value} of '{arg}' is not one of "
                             f"MindSpore's {arg} values {names}.")
        return names[value]
    return value


def encode_enum(arg: str, value):
    """The inverse of ``decode_enum`` (``"valid"`` -> 2)."""
    names = ENUM_ARGS.get(arg)
    if names is not None and isinstance(value, str):
        return [n.upper() for n in names].index(value.upper())
    return value


# ---------------------------------------------------------------- tensors

def tensor_proto(array: np.ndarray, name: str = "") -> TensorProto:
    """A TensorProto holding ``array``'s dtype, shape and little-endian C-order bytes."""
    array = np.ascontiguousarray(array)
    code = DTYPE_CODES.get(array.dtype)
    if code is None:
        raise TypeError(f"For 'export', the dtype {array.dtype} cannot be written to MINDIR.")
    proto = TensorProto(dims=list(array.shape), data_type=code,
                        raw_data=array.astype(array.dtype.newbyteorder("<")).tobytes())
    if name:
        proto.name = name
    return proto


def proto_array(proto, what: str) -> np.ndarray:
    """The array a TensorProto holds (``what`` names it in errors)."""
    dtype = CODE_DTYPES.get(proto.data_type)
    if dtype is None:
        raise ValueError(f"For 'load', {what} has the MINDIR data type {proto.data_type}, "
                         f"which graphkiln cannot read.")
    shape = tuple(proto.dims)
    if proto.HasField("external_data"):
        raise ValueError(f"For 'load', {what} is stored in an external data file; graphkiln "
                         f"reads only MINDIR files that hold their weights.")
    count = int(np.prod(shape, dtype=np.int64))
    if proto.raw_data or count == 0:
        raw = np.frombuffer(proto.raw_data, dtype.newbyteorder("<"))
    else:
        raw = np.asarray(proto.float_data or proto.int64_data or proto.int32_data
                         or proto.double_data, dtype)
    if raw.size != count:
        raise ValueError(f"For 'load', {what} holds {raw.size} values but its shape "
                         f"{shape} needs {count}: the file is damaged.")
    return raw.astype(dtype).reshape(shape)


# ---------------------------------------------------------------- values

def encode_value(value, name: str = "value") -> AttributeProto:
    """An AttributeProto for a Python constant (bool, int, float, str, None, tuple/list of
    them, NumPy array, monad)."""
    attr = AttributeProto(name=name)
    _fill(attr, value, element=False)
    return attr


def _fill(attr, value, element: bool) -> None:
    if isinstance(value, Monad):
        attr.type = UMONAD if value is U_MONAD else IOMONAD
    elif value is None:
        attr.type = NONE
    elif isinstance(value, (bool, np.bool_)):
        attr.type = BOOL
        attr.ints.append(int(value)) if element else setattr(attr, "i", int(value))
    elif isinstance(value, (int, np.integer)):
        attr.type = INT64
        attr.ints.append(int(value)) if element else setattr(attr, "i", int(value))
    elif isinstance(value, (float, np.floating)):
        attr.type = FLOAT
        attr.floats.append(float(value)) if element else setattr(attr, "f", float(value))
    elif isinstance(value, str):
        attr.type = STRING
        data = value.encode()
        attr.strings.append(data) if element else setattr(attr, "s", data)
    elif isinstance(value, np.ndarray):  # one tensor in TENSORS, as MindSpore writes it
        attr.type = TENSORS
        attr.tensors.append(tensor_proto(value))
    elif isinstance(value, (tuple, list)):
        attr.type = TUPLE if isinstance(value, tuple) else LIST
        for item in value:
            _fill(attr.values.add(), item, element=True)
    else:
        raise TypeError(f"For 'export', the constant {value!r} of type "
                        f"{type(value).__name__} cannot be written to MINDIR.")


def decode_value(attr, what: str):
    """The Python value of an AttributeProto (``what`` names it in errors)."""
    kind = attr.type
    if kind in (BOOL, INT8, INT32, INT64):
        value = attr.ints[0] if attr.ints else attr.i
        return bool(value) if kind == BOOL else int(value)
    if kind in (FLOAT, DOUBLE):
        if attr.floats or attr.doubles:
            return float((attr.floats or attr.doubles)[0])
        return float(attr.d if kind == DOUBLE else attr.f)
    if kind == STRING:
        return (attr.strings[0] if attr.strings else attr.s).decode()
    if kind in (TUPLE, LIST):
        items = [decode_value(v, what) for v in attr.values]
        return tuple(items) if kind == TUPLE else items
    if kind == TENSOR:
        return proto_array(attr.t, what)
    if kind == TENSORS and len(attr.tensors) == 1:  # a constant tensor, as MindSpore writes
        return proto_array(attr.tensors[0], what)
    if kind == UMONAD:
        return U_MONAD
    if kind == IOMONAD:
        return IO_MONAD
    if kind == NONE:
        return None
    raise ValueError(f"For 'load', {what} has the MINDIR attribute type {kind}, which "
                     f"graphkiln cannot read (control flow, closures and sparse tensors "
                     f"are not supported).")
