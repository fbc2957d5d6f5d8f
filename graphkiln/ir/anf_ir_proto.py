"""MindSpore's ANF IR protobuf format (``mindspore.irpb.ModelProto``): the ``-graph.meta``
files ModelCheckpoint writes and the ``.pb`` graphs of a data dump, read by MindSpore's
tools. Built with the ``protobuf`` descriptor API (no generated code).

The part of the schema used (proto2, package ``mindspore.irpb``)::

    ModelProto     { int64 ir_version = 1; GraphProto graph = 4; }
    GraphProto     { repeated NodeProto node = 1; string name = 2;
                     repeated ParameterProto parameters = 3; repeated OutputProto outputs = 4; }
    NodeProto      { repeated InputProto input = 1; string name = 2; string op_type = 3;
                     string scope = 4; TypeProto output_type = 6; string full_name = 8; }
    InputProto     { string name = 1; EdgeType type = 2; }   enum EdgeType { DATA_EDGE = 0; }
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

from google.protobuf import descriptor_pb2

from ..common.proto_schema import F, add_field, message_classes

DATA_TYPES = {"Bool": 1, "Int8": 2, "Int16": 3, "Int32": 4, "Int64": 5, "UInt8": 6,
              "UInt16": 7, "UInt32": 8, "UInt64": 9, "Float16": 10, "Float32": 11,
              "Float64": 12}
DT_TENSOR, DT_TUPLE = 14, 31
IR_VERSION = 1
_PKG = ".mindspore.irpb."


def _file_descriptor() -> descriptor_pb2.FileDescriptorProto:
    fd = descriptor_pb2.FileDescriptorProto(name="graphkiln_anf_ir.proto",
                                            package="mindspore.irpb", syntax="proto2")
    enum = fd.enum_type.add(name="DataType")
    enum.value.add(name="DT_UNDEFINED", number=0)
    for name, number in DATA_TYPES.items():
        enum.value.add(name="DT_" + name.upper(), number=number)
    enum.value.add(name="DT_TENSOR", number=DT_TENSOR)
    enum.value.add(name="DT_TUPLE", number=DT_TUPLE)
    opt, rep, msg, string = F.LABEL_OPTIONAL, F.LABEL_REPEATED, F.TYPE_MESSAGE, F.TYPE_STRING
    shape = fd.message_type.add(name="TensorShapeProto")
    dim = shape.nested_type.add(name="Dimension")
    add_field(dim, "size", 1, opt, F.TYPE_INT64)
    add_field(shape, "dim", 1, rep, msg, _PKG + "TensorShapeProto.Dimension")
    type_proto = fd.message_type.add(name="TypeProto")
    tensor = type_proto.nested_type.add(name="Tensor")
    add_field(tensor, "elem_type", 1, opt, F.TYPE_ENUM, _PKG + "DataType")
    add_field(tensor, "shape", 2, opt, msg, _PKG + "TensorShapeProto")
    sequence = type_proto.nested_type.add(name="Sequence")
    add_field(sequence, "elem_types", 1, rep, msg, _PKG + "TypeProto")
    add_field(type_proto, "data_type", 1, opt, F.TYPE_ENUM, _PKG + "DataType")
    add_field(type_proto, "tensor_type", 2, opt, msg, _PKG + "TypeProto.Tensor")
    add_field(type_proto, "sequence_type", 3, opt, msg, _PKG + "TypeProto.Sequence")
    for name in ("ParameterProto", "OutputProto"):
        named = fd.message_type.add(name=name)
        add_field(named, "name", 1, opt, string)
        add_field(named, "type", 2, opt, msg, _PKG + "TypeProto")
    edge = fd.message_type.add(name="InputProto")
    edge_type = edge.enum_type.add(name="EdgeType")
    edge_type.value.add(name="DATA_EDGE", number=0)
    edge_type.value.add(name="CONTROL_EDGE", number=1)
    add_field(edge, "name", 1, opt, string)
    add_field(edge, "type", 2, opt, F.TYPE_ENUM, _PKG + "InputProto.EdgeType")
    node = fd.message_type.add(name="NodeProto")
    add_field(node, "input", 1, rep, msg, _PKG + "InputProto")
    for field, number in (("name", 2), ("op_type", 3), ("scope", 4)):
        add_field(node, field, number, opt, string)
    add_field(node, "output_type", 6, opt, msg, _PKG + "TypeProto")
    add_field(node, "full_name", 8, opt, string)
    graph = fd.message_type.add(name="GraphProto")
    add_field(graph, "node", 1, rep, msg, _PKG + "NodeProto")
    add_field(graph, "name", 2, opt, string)
    add_field(graph, "parameters", 3, rep, msg, _PKG + "ParameterProto")
    add_field(graph, "outputs", 4, rep, msg, _PKG + "OutputProto")
    model = fd.message_type.add(name="ModelProto")
    add_field(model, "ir_version", 1, opt, F.TYPE_INT64)
    add_field(model, "graph", 4, opt, msg, _PKG + "GraphProto")
    return fd


(ModelProto,) = message_classes(_file_descriptor(), ["mindspore.irpb.ModelProto"])


def set_tensor_type(type_proto, dtype_name: str, shape) -> None:
    """A tensor of MindSpore dtype ``dtype_name`` (``"Float32"``) and ``shape``."""
    type_proto.data_type = DT_TENSOR
    type_proto.tensor_type.elem_type = DATA_TYPES.get(dtype_name, 0)
    for size in shape:
        type_proto.tensor_type.shape.dim.add(size=size)
