"""``mindspore.train.summary_pb2``: the message classes of MindSpore's summary files
(``Event``, ``Summary``, ``TensorProto``; proto2, package ``mindspore.irpb``), built from
this schema with the protobuf descriptor API, so files read the same with either package.

The part of the schema used::

    Event   { required double wall_time = 1; optional int64 step = 2;
              oneof what { string version = 3; Summary summary = 5; } }
    Summary { repeated Value value = 1; }
    Summary.Value { required string tag = 1;
                    oneof value { float scalar_value = 3; Image image = 4;
                                  TensorProto tensor = 8; Histogram histogram = 9; } }
    Summary.Image { required int32 height = 1, width = 2, colorspace = 3;
                    required bytes encoded_image = 4; }
    Summary.Histogram { repeated bucket buckets = 1; int64 nan_count = 2, pos_inf_count = 3,
                        neg_inf_count = 4; double max = 5, min = 6, sum = 7; int64 count = 8; }
    Summary.Histogram.bucket { required double left = 1, width = 2; required int64 count = 3; }
    TensorProto { repeated int64 dims = 1; DataType data_type = 2;
                  repeated float float_data = 3 [packed]; ... int32_data = 4, int64_data = 5,
                  double_data = 6, uint64_data = 7 [packed]; bytes raw_data = 8; }
"""
from __future__ import annotations

from google.protobuf import descriptor_pb2

from ..common.proto_schema import F, add_field, message_classes

# MindSpore's DataType numbers for the array dtypes a summary tensor can have
DATA_TYPES = {"bool": 1, "int8": 2, "int16": 3, "int32": 4, "int64": 5, "uint8": 6,
              "uint16": 7, "uint32": 8, "uint64": 9, "float16": 10, "float32": 11,
              "float64": 12}

_P = ".mindspore.irpb."
_OPT, _REQ, _REP = F.LABEL_OPTIONAL, F.LABEL_REQUIRED, F.LABEL_REPEATED


def _file_descriptor() -> descriptor_pb2.FileDescriptorProto:
    fd = descriptor_pb2.FileDescriptorProto(name="graphkiln_summary.proto",
                                            package="mindspore.irpb", syntax="proto2")
    enum = fd.enum_type.add(name="DataType")
    enum.value.add(name="DT_UNDEFINED", number=0)
    for name, number in DATA_TYPES.items():
        enum.value.add(name="DT_" + name.upper(), number=number)

    tensor = fd.message_type.add(name="TensorProto")
    add_field(tensor, "dims", 1, _REP, F.TYPE_INT64)
    add_field(tensor, "data_type", 2, _OPT, F.TYPE_ENUM, _P + "DataType")
    for name, number, ftype in (("float_data", 3, F.TYPE_FLOAT), ("int32_data", 4, F.TYPE_INT32),
                                ("int64_data", 5, F.TYPE_INT64),
                                ("double_data", 6, F.TYPE_DOUBLE),
                                ("uint64_data", 7, F.TYPE_UINT64)):
        add_field(tensor, name, number, _REP, ftype)
        tensor.field[-1].options.packed = True
    add_field(tensor, "raw_data", 8, _OPT, F.TYPE_BYTES)

    summary = fd.message_type.add(name="Summary")
    image = summary.nested_type.add(name="Image")
    for name, number in (("height", 1), ("width", 2), ("colorspace", 3)):
        add_field(image, name, number, _REQ, F.TYPE_INT32)
    add_field(image, "encoded_image", 4, _REQ, F.TYPE_BYTES)
    histogram = summary.nested_type.add(name="Histogram")
    bucket = histogram.nested_type.add(name="bucket")
    add_field(bucket, "left", 1, _REQ, F.TYPE_DOUBLE)
    add_field(bucket, "width", 2, _REQ, F.TYPE_DOUBLE)
    add_field(bucket, "count", 3, _REQ, F.TYPE_INT64)
    add_field(histogram, "buckets", 1, _REP, F.TYPE_MESSAGE, _P + "Summary.Histogram.bucket")
    for name, number, ftype in (("nan_count", 2, F.TYPE_INT64), ("pos_inf_count", 3, F.TYPE_INT64),
                                ("neg_inf_count", 4, F.TYPE_INT64), ("max", 5, F.TYPE_DOUBLE),
                                ("min", 6, F.TYPE_DOUBLE), ("sum", 7, F.TYPE_DOUBLE),
                                ("count", 8, F.TYPE_INT64)):
        add_field(histogram, name, number, _OPT, ftype)
    value = summary.nested_type.add(name="Value")
    value.oneof_decl.add(name="value")
    add_field(value, "tag", 1, _REQ, F.TYPE_STRING)
    add_field(value, "scalar_value", 3, _OPT, F.TYPE_FLOAT, oneof=0)
    add_field(value, "image", 4, _OPT, F.TYPE_MESSAGE, _P + "Summary.Image", oneof=0)
    add_field(value, "tensor", 8, _OPT, F.TYPE_MESSAGE, _P + "TensorProto", oneof=0)
    add_field(value, "histogram", 9, _OPT, F.TYPE_MESSAGE, _P + "Summary.Histogram", oneof=0)
    add_field(summary, "value", 1, _REP, F.TYPE_MESSAGE, _P + "Summary.Value")

    event = fd.message_type.add(name="Event")
    event.oneof_decl.add(name="what")
    add_field(event, "wall_time", 1, _REQ, F.TYPE_DOUBLE)
    add_field(event, "step", 2, _OPT, F.TYPE_INT64)
    add_field(event, "version", 3, _OPT, F.TYPE_STRING, oneof=0)
    add_field(event, "summary", 5, _OPT, F.TYPE_MESSAGE, _P + "Summary", oneof=0)
    return fd


Event, Summary, TensorProto = message_classes(
    _file_descriptor(), ["mindspore.irpb.Event", "mindspore.irpb.Summary",
                         "mindspore.irpb.TensorProto"])

__all__ = ["Event", "Summary", "TensorProto", "DATA_TYPES"]
