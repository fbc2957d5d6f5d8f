"""``<prefix>-graph.meta``: the file ModelCheckpoint writes next to the checkpoints in
GRAPH_MODE, in MindSpore's ANF IR protobuf format (``mindspore.irpb.ModelProto``).

graphkiln records what it knows of the compiled training step in MindSpore's terms: the
graph's name, its inputs and parameters (name, dtype, shape) and its output types. The
operations (``NodeProto``) are not written: graphkiln's IR is not MindSpore's.

The part of the schema used (proto2, package ``mindspore.irpb``)::

    ModelProto     { int64 ir_version = 1; GraphProto graph = 4; }
    GraphProto     { string name = 2; repeated ParameterProto parameters = 3;
                     repeated OutputProto outputs = 4; }
    ParameterProto { string name = 1; TypeProto type = 2; }
    OutputProto    { string name = 1; TypeProto type = 2; }
    TypeProto      { DataType data_type = 1; Tensor tensor_type = 2;
                     Sequence sequence_type = 3; }
    TypeProto.Tensor   { DataType elem_type = 1; TensorShapeProto shape = 2; }
    TypeProto.Sequence { repeated TypeProto elem_types = 1; }
    TensorShapeProto   { repeated Dimension dim = 1; }   Dimension { int64 size = 1; }
    enum DataType  { DT_BOOL = 1; DT_INT8 = 2; ... DT_FLOAT64 = 12; DT_TENSOR = 14;
                     DT_TUPLE = 31; }
"""
from __future__ import annotations

import stat

from google.protobuf import descriptor_pb2

from ..common.tensor import Tensor
from .proto_schema import F, add_field, message_classes
from .serialization import atomic_write

_DATA_TYPES = {"Bool": 1, "Int8": 2, "Int16": 3, "Int32": 4, "Int64": 5, "UInt8": 6,
               "UInt16": 7, "UInt32": 8, "UInt64": 9, "Float16": 10, "Float32": 11,
               "Float64": 12}
DT_TENSOR, DT_TUPLE = 14, 31
IR_VERSION = 1


def _file_descriptor() -> descriptor_pb2.FileDescriptorProto:
    fd = descriptor_pb2.FileDescriptorProto(name="graphkiln_anf_ir.proto",
                                            package="mindspore.irpb", syntax="proto2")
    enum = fd.enum_type.add(name="DataType")
    enum.value.add(name="DT_UNDEFINED", number=0)
    for name, number in _DATA_TYPES.items():
        enum.value.add(name="DT_" + name.upper(), number=number)
    enum.value.add(name="DT_TENSOR", number=DT_TENSOR)
    enum.value.add(name="DT_TUPLE", number=DT_TUPLE)
    dtype = ".mindspore.irpb.DataType"
    shape = fd.message_type.add(name="TensorShapeProto")
    dim = shape.nested_type.add(name="Dimension")
    add_field(dim, "size", 1, F.LABEL_OPTIONAL, F.TYPE_INT64)
    add_field(shape, "dim", 1, F.LABEL_REPEATED, F.TYPE_MESSAGE,
              ".mindspore.irpb.TensorShapeProto.Dimension")
    type_proto = fd.message_type.add(name="TypeProto")
    tensor = type_proto.nested_type.add(name="Tensor")
    add_field(tensor, "elem_type", 1, F.LABEL_OPTIONAL, F.TYPE_ENUM, dtype)
    add_field(tensor, "shape", 2, F.LABEL_OPTIONAL, F.TYPE_MESSAGE,
              ".mindspore.irpb.TensorShapeProto")
    sequence = type_proto.nested_type.add(name="Sequence")
    add_field(sequence, "elem_types", 1, F.LABEL_REPEATED, F.TYPE_MESSAGE,
              ".mindspore.irpb.TypeProto")
    add_field(type_proto, "data_type", 1, F.LABEL_OPTIONAL, F.TYPE_ENUM, dtype)
    add_field(type_proto, "tensor_type", 2, F.LABEL_OPTIONAL, F.TYPE_MESSAGE,
              ".mindspore.irpb.TypeProto.Tensor")
    add_field(type_proto, "sequence_type", 3, F.LABEL_OPTIONAL, F.TYPE_MESSAGE,
              ".mindspore.irpb.TypeProto.Sequence")
    for name in ("ParameterProto", "OutputProto"):
        msg = fd.message_type.add(name=name)
        add_field(msg, "name", 1, F.LABEL_OPTIONAL, F.TYPE_STRING)
        add_field(msg, "type", 2, F.LABEL_OPTIONAL, F.TYPE_MESSAGE, ".mindspore.irpb.TypeProto")
    graph = fd.message_type.add(name="GraphProto")
    add_field(graph, "name", 2, F.LABEL_OPTIONAL, F.TYPE_STRING)
    add_field(graph, "parameters", 3, F.LABEL_REPEATED, F.TYPE_MESSAGE,
              ".mindspore.irpb.ParameterProto")
    add_field(graph, "outputs", 4, F.LABEL_REPEATED, F.TYPE_MESSAGE,
              ".mindspore.irpb.OutputProto")
    model = fd.message_type.add(name="ModelProto")
    add_field(model, "ir_version", 1, F.LABEL_OPTIONAL, F.TYPE_INT64)
    add_field(model, "graph", 4, F.LABEL_OPTIONAL, F.TYPE_MESSAGE, ".mindspore.irpb.GraphProto")
    return fd


(ModelProto,) = message_classes(_file_descriptor(), ["mindspore.irpb.ModelProto"])


def _set_type(type_proto, value) -> None:
    """``value``'s type: a Tensor (dtype and shape) or a tuple of them."""
    if isinstance(value, (tuple, list)):
        type_proto.data_type = DT_TUPLE
        for item in value:
            _set_type(type_proto.sequence_type.elem_types.add(), item)
    elif isinstance(value, Tensor):
        type_proto.data_type = DT_TENSOR
        type_proto.tensor_type.elem_type = _DATA_TYPES.get(str(value.dtype), 0)
        for size in value.shape:
            type_proto.tensor_type.shape.dim.add(size=size)


def graph_meta_bytes(network, inputs, outputs) -> bytes:
    """The serialized ``ModelProto`` of ``network`` called on ``inputs``, giving ``outputs``."""
    model = ModelProto(ir_version=IR_VERSION)
    graph = model.graph
    graph.name = f"{type(network).__name__}_construct"
    for i, value in enumerate(inputs or ()):
        param = graph.parameters.add(name=f"inputs{i}")
        _set_type(param.type, value)
    for param in network.get_parameters():
        _set_type(graph.parameters.add(name=param.name).type, param)
    _set_type(graph.outputs.add(name="output").type, outputs)
    return model.SerializeToString()


def save_graph_meta(path: str, network, inputs, outputs) -> None:
    """Write ``path`` (replacing it), readable and writable by the owner only, as MindSpore."""
    data = graph_meta_bytes(network, inputs, outputs)

    def write(tmp: str) -> None:
        with open(tmp, "wb") as f:
            f.write(data)
    atomic_write(path, write, stat.S_IRUSR | stat.S_IWUSR)
