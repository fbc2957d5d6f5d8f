"""The protobuf schema of MindSpore's ``.ckpt`` files, built at import time with the
``protobuf`` library's descriptor API (no generated code, no ``protoc`` needed).

The schema, in ``.proto`` (proto2) terms::

    message Checkpoint {
      message Value {
        required string tag = 1;                    // parameter name
        oneof value {
          TensorProto tensor = 2;                   // one slice of a tensor
          MapTensorProto maptensor = 3;             // key/value/status tensors of a MapParameter
        }
      }
      repeated Value value = 1;
    }
    message TensorProto {
      repeated int64 dims = 1;                      // shape ([0] for strings)
      required string tensor_type = 2;              // "Float32", "Int64", "Bool", "str"...
      required bytes tensor_content = 3;            // C-order raw bytes
    }
    message MapTensorProto { repeated TensorProto tensor = 1; }

A file is a concatenation of serialized ``Checkpoint`` messages (one per tensor slice); protobuf
parses the concatenation as one message whose ``value`` lists every slice in order.
"""
from __future__ import annotations

from google.protobuf import descriptor_pb2

from ..common.proto_schema import F as _F
from ..common.proto_schema import add_field, message_classes


def _file_descriptor() -> descriptor_pb2.FileDescriptorProto:
    fd = descriptor_pb2.FileDescriptorProto(name="graphkiln_checkpoint.proto",
                                            package="", syntax="proto2")
    ckpt = fd.message_type.add(name="Checkpoint")
    value = ckpt.nested_type.add(name="Value")
    value.oneof_decl.add(name="value")
    add_field(value, "tag", 1, _F.LABEL_REQUIRED, _F.TYPE_STRING)
    add_field(value, "tensor", 2, _F.LABEL_OPTIONAL, _F.TYPE_MESSAGE, ".TensorProto", oneof=0)
    add_field(value, "maptensor", 3, _F.LABEL_OPTIONAL, _F.TYPE_MESSAGE, ".MapTensorProto",
              oneof=0)
    add_field(ckpt, "value", 1, _F.LABEL_REPEATED, _F.TYPE_MESSAGE, ".Checkpoint.Value")
    tensor = fd.message_type.add(name="TensorProto")
    add_field(tensor, "dims", 1, _F.LABEL_REPEATED, _F.TYPE_INT64)
    add_field(tensor, "tensor_type", 2, _F.LABEL_REQUIRED, _F.TYPE_STRING)
    add_field(tensor, "tensor_content", 3, _F.LABEL_REQUIRED, _F.TYPE_BYTES)
    map_tensor = fd.message_type.add(name="MapTensorProto")
    add_field(map_tensor, "tensor", 1, _F.LABEL_REPEATED, _F.TYPE_MESSAGE, ".TensorProto")
    return fd


# A private pool: MindSpore's own generated module may be loaded in the same process.
Checkpoint, TensorProto = message_classes(_file_descriptor(), ["Checkpoint", "TensorProto"])
