"""The protobuf schema of MindSpore's ``.mindir`` files (package ``mind_ir``), built at import
time with the ``protobuf`` descriptor API (no generated code). Only the messages graphkiln
reads and writes are declared; fields it does not know (quantisation, parallel layouts,
functors) are kept as unknown fields when a file is parsed.

In ``.proto`` (proto2) terms, the part used::

    message ModelProto {                 // the file: one serialized ModelProto
      string ir_version = 1; string producer_name = 2; string model_version = 5;
      GraphProto graph = 7; repeated GraphProto functions = 8; bool little_endian = 10;
      repeated PrimitiveProto primitives = 12; int64 mind_ir_version = 13; }
    message GraphProto { repeated NodeProto node = 1; string name = 2;
      repeated TensorProto parameter = 3;            // weights, with raw_data
      repeated ValueInfoProto input = 5; repeated ValueInfoProto output = 6;
      repeated AttributeProto attribute = 8; }
    message NodeProto { repeated string input = 1; repeated string output = 2;
      string name = 3; string op_type = 4;           // "REF::<primitive name>" or "Constant"
      repeated AttributeProto attribute = 5; string domain = 7;
      repeated AttributeProto node_attr = 8; repeated AttributeProto primal_attr = 9; }
    message PrimitiveProto { string name = 1; string op_type = 2;
      repeated AttributeProto attribute = 3; string instance_name = 4;
      PrimType prim_type = 5; }                      // 1 PRIMITIVE, 2 PRIMITIVE_FUNCTION
    message AttributeProto { string name = 1; float f = 2; int64 i = 3; double d = 4;
      bytes s = 5; TensorProto t = 6; repeated int64 ints = 10; repeated bytes strings = 11;
      repeated TensorProto tensors = 12; AttributeType type = 16;
      repeated AttributeProto values = 17; SeqInfoProto seq_info = 18; }
    message TensorProto { repeated int64 dims = 1; int32 data_type = 2; string name = 7;
      bytes raw_data = 9; string ref_key = 13; CompressionType compression_type = 16; }

Enum fields are declared ``int32`` (the same varint on the wire); their values are in
``mindir_ops``.
"""
from __future__ import annotations

from google.protobuf import descriptor_pb2

from ..common.proto_schema import F as _F
from ..common.proto_schema import add_field, message_classes

_OPT, _REP, _REQ = _F.LABEL_OPTIONAL, _F.LABEL_REPEATED, _F.LABEL_REQUIRED
_T = {"string": _F.TYPE_STRING, "bytes": _F.TYPE_BYTES, "int64": _F.TYPE_INT64,
      "int32": _F.TYPE_INT32, "float": _F.TYPE_FLOAT, "double": _F.TYPE_DOUBLE,
      "bool": _F.TYPE_BOOL, "uint64": _F.TYPE_UINT64}

# message -> [(label, type or message name, field name, number)]
_MESSAGES = {
    "AttributeProto": [
        (_OPT, "string", "name", 1), (_OPT, "float", "f", 2), (_OPT, "int64", "i", 3),
        (_OPT, "double", "d", 4), (_OPT, "bytes", "s", 5), (_OPT, ".mind_ir.TensorProto", "t", 6),
        (_OPT, ".mind_ir.GraphProto", "g", 7), (_REP, "float", "floats", 8),
        (_REP, "double", "doubles", 9), (_REP, "int64", "ints", 10),
        (_REP, "bytes", "strings", 11), (_REP, ".mind_ir.TensorProto", "tensors", 12),
        (_REP, ".mind_ir.GraphProto", "graphs", 13), (_OPT, "string", "doc_string", 14),
        (_OPT, "string", "ref_attr_name", 15), (_OPT, "int32", "type", 16),
        (_REP, ".mind_ir.AttributeProto", "values", 17),
        (_OPT, ".mind_ir.AttributeProto.SeqInfoProto", "seq_info", 18)],
    "AttributeProto.SeqInfoProto": [
        (_OPT, "bool", "is_dyn_len", 1), (_OPT, ".mind_ir.AttributeProto", "tuple_elem_item", 2)],
    "ValueInfoProto": [
        (_OPT, "string", "name", 1), (_REP, ".mind_ir.TensorProto", "tensor", 2),
        (_OPT, "string", "doc_string", 3), (_OPT, "string", "denotation", 4),
        (_OPT, ".mind_ir.AttributeProto", "attr_info", 5)],
    "NodeProto": [
        (_REP, "string", "input", 1), (_REP, "string", "output", 2), (_OPT, "string", "name", 3),
        (_OPT, "string", "op_type", 4), (_REP, ".mind_ir.AttributeProto", "attribute", 5),
        (_OPT, "string", "doc_string", 6), (_OPT, "string", "domain", 7),
        (_REP, ".mind_ir.AttributeProto", "node_attr", 8),
        (_REP, ".mind_ir.AttributeProto", "primal_attr", 9)],
    "ModelProto": [
        (_OPT, "string", "ir_version", 1), (_OPT, "string", "producer_name", 2),
        (_OPT, "string", "producer_version", 3), (_OPT, "string", "domain", 4),
        (_OPT, "string", "model_version", 5), (_OPT, "string", "doc_string", 6),
        (_OPT, ".mind_ir.GraphProto", "graph", 7), (_REP, ".mind_ir.GraphProto", "functions", 8),
        (_OPT, "bool", "little_endian", 10), (_REP, ".mind_ir.PrimitiveProto", "primitives", 12),
        (_OPT, "int64", "mind_ir_version", 13)],
    "GraphProto": [
        (_REP, ".mind_ir.NodeProto", "node", 1), (_OPT, "string", "name", 2),
        (_REP, ".mind_ir.TensorProto", "parameter", 3), (_OPT, "string", "doc_string", 4),
        (_REP, ".mind_ir.ValueInfoProto", "input", 5),
        (_REP, ".mind_ir.ValueInfoProto", "output", 6), (_OPT, "string", "bprop_hash", 7),
        (_REP, ".mind_ir.AttributeProto", "attribute", 8),
        (_OPT, "string", "bprop_filepath", 9)],
    "TensorProto": [
        (_REP, "int64", "dims", 1), (_OPT, "int32", "data_type", 2),
        (_REP, "float", "float_data", 3), (_REP, "int32", "int32_data", 4),
        (_REP, "bytes", "string_data", 5), (_REP, "int64", "int64_data", 6),
        (_OPT, "string", "name", 7), (_OPT, "string", "doc_string", 8),
        (_OPT, "bytes", "raw_data", 9), (_REP, "double", "double_data", 10),
        (_REP, "uint64", "uint64_data", 11),
        (_OPT, ".mind_ir.TensorProto.ExternalDataProto", "external_data", 12),
        (_OPT, "string", "ref_key", 13), (_REP, "int64", "min_dims", 14),
        (_REP, "int64", "max_dims", 15), (_OPT, "int32", "compression_type", 16)],
    "TensorProto.ExternalDataProto": [
        (_OPT, "string", "location", 1), (_OPT, "int64", "offset", 2),
        (_OPT, "int64", "length", 3)],
    "PrimitiveProto": [
        (_OPT, "string", "name", 1), (_OPT, "string", "op_type", 2),
        (_REP, ".mind_ir.AttributeProto", "attribute", 3),
        (_OPT, "string", "instance_name", 4), (_OPT, "int32", "prim_type", 5)],
}


def _file_descriptor() -> descriptor_pb2.FileDescriptorProto:
    fd = descriptor_pb2.FileDescriptorProto(name="graphkiln_mind_ir.proto", package="mind_ir",
                                            syntax="proto2")
    protos = {}
    for full in _MESSAGES:  # parents come before their nested messages in the table
        outer, _, inner = full.rpartition(".")
        parent = protos[outer].nested_type if outer else fd.message_type
        protos[full] = parent.add(name=inner)
    for full, fields in _MESSAGES.items():
        for label, ftype, name, number in fields:
            if ftype.startswith("."):
                add_field(protos[full], name, number, label, _F.TYPE_MESSAGE, ftype)
            else:
                add_field(protos[full], name, number, label, _T[ftype])
    return fd


# A private pool: MindSpore's own generated module may be loaded in the same process.
(ModelProto, GraphProto, NodeProto, AttributeProto, TensorProto, ValueInfoProto,
 PrimitiveProto) = message_classes(_file_descriptor(), [
     "mind_ir.ModelProto", "mind_ir.GraphProto", "mind_ir.NodeProto", "mind_ir.AttributeProto",
     "mind_ir.TensorProto", "mind_ir.ValueInfoProto", "mind_ir.PrimitiveProto"])
