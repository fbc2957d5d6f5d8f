"""Build protobuf message classes at run time from a schema written in Python (field name,
number, label, type), with the ``protobuf`` library's descriptor API: no generated code and
no ``protoc``. Each schema lives in its own private descriptor pool."""
from __future__ import annotations

from google.protobuf import descriptor_pb2, descriptor_pool, message_factory

F = descriptor_pb2.FieldDescriptorProto


def add_field(msg, name: str, number: int, label, ftype, type_name: str = "",
              oneof: int | None = None) -> None:
    """Append a field to a ``DescriptorProto`` (``type_name`` for message and enum fields)."""
    field = msg.field.add(name=name, number=number, label=label, type=ftype)
    if type_name:
        field.type_name = type_name
    if oneof is not None:
        field.oneof_index = oneof


def message_classes(file_proto: descriptor_pb2.FileDescriptorProto, names: list[str]) -> list:
    """The message classes ``names`` (full names) of ``file_proto``."""
    pool = descriptor_pool.DescriptorPool()
    pool.Add(file_proto)
    return [message_factory.GetMessageClass(pool.FindMessageTypeByName(n)) for n in names]
