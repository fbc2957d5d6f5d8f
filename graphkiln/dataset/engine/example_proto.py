"""TensorFlow's ``tf.train.Example`` message, defined with ``protobuf``'s descriptor API (no
TensorFlow, no generated code), and the TFRecord container around it.

Only ``google.protobuf`` is imported, so test scripts may load this file on its own."""
from __future__ import annotations

import struct
from typing import BinaryIO

from google.protobuf import descriptor_pb2, descriptor_pool, message_factory

_FIELD = descriptor_pb2.FieldDescriptorProto


def _file_descriptor() -> descriptor_pb2.FileDescriptorProto:
    """``tensorflow/core/example/{example,feature}.proto``, field numbers as TensorFlow's."""
    proto = descriptor_pb2.FileDescriptorProto(name="graphkiln_tf_example.proto",
                                               package="tensorflow", syntax="proto3")

    def message(name: str, fields: list[tuple]) -> descriptor_pb2.DescriptorProto:
        msg = proto.message_type.add(name=name)
        for field_name, number, kind, label, type_name, oneof in fields:
            field = msg.field.add(name=field_name, number=number, type=kind, label=label)
            if type_name:
                field.type_name = type_name
            if oneof is not None:
                field.oneof_index = oneof
        return msg

    repeated, optional = _FIELD.LABEL_REPEATED, _FIELD.LABEL_OPTIONAL
    message("BytesList", [("value", 1, _FIELD.TYPE_BYTES, repeated, None, None)])
    message("FloatList", [("value", 1, _FIELD.TYPE_FLOAT, repeated, None, None)])
    message("Int64List", [("value", 1, _FIELD.TYPE_INT64, repeated, None, None)])
    feature = message("Feature", [
        ("bytes_list", 1, _FIELD.TYPE_MESSAGE, optional, ".tensorflow.BytesList", 0),
        ("float_list", 2, _FIELD.TYPE_MESSAGE, optional, ".tensorflow.FloatList", 0),
        ("int64_list", 3, _FIELD.TYPE_MESSAGE, optional, ".tensorflow.Int64List", 0)])
    feature.oneof_decl.add(name="kind")
    features = message("Features", [("feature", 1, _FIELD.TYPE_MESSAGE, repeated,
                                     ".tensorflow.Features.FeatureEntry", None)])
    entry = features.nested_type.add(name="FeatureEntry")
    entry.options.map_entry = True
    entry.field.add(name="key", number=1, type=_FIELD.TYPE_STRING, label=optional)
    entry.field.add(name="value", number=2, type=_FIELD.TYPE_MESSAGE, label=optional,
                    type_name=".tensorflow.Feature")
    message("Example", [("features", 1, _FIELD.TYPE_MESSAGE, optional,
                         ".tensorflow.Features", None)])
    return proto


def _example_class() -> type:
    pool = descriptor_pool.DescriptorPool()
    pool.Add(_file_descriptor())
    descriptor = pool.FindMessageTypeByName("tensorflow.Example")
    if hasattr(message_factory, "GetMessageClass"):
        return message_factory.GetMessageClass(descriptor)
    return message_factory.MessageFactory(pool).GetPrototype(descriptor)  # protobuf < 4.21


Example = _example_class()


def _crc32c_table() -> list[int]:
    table = []
    for byte in range(256):
        crc = byte
        for _ in range(8):
            crc = (crc >> 1) ^ 0x82F63B78 if crc & 1 else crc >> 1
        table.append(crc)
    return table


_CRC_TABLE = _crc32c_table()


def masked_crc32c(data: bytes) -> int:
    """TFRecord's checksum: CRC-32C, rotated right by 15 bits plus 0xa282ead8."""
    crc = 0xFFFFFFFF
    for byte in data:
        crc = _CRC_TABLE[(crc ^ byte) & 0xFF] ^ (crc >> 8)
    crc ^= 0xFFFFFFFF
    return (((crc >> 15) | (crc << 17)) + 0xA282EAD8) & 0xFFFFFFFF


def index_records(f: BinaryIO, name: str) -> list[tuple[int, int]]:
    """(offset, length) of each payload in the TFRecord stream ``f`` (length checksums are
    verified; payload checksums are not, as MindSpore's reader does not)."""
    records = []
    while True:
        pos = f.tell()
        header = f.read(12)
        if not header:
            return records
        if len(header) < 12:
            raise RuntimeError(f"Invalid file, {name} is not a valid TFRecord file: truncated "
                               f"record header at byte {pos}.")
        (length,), (crc,) = struct.unpack("<Q", header[:8]), struct.unpack("<I", header[8:])
        if masked_crc32c(header[:8]) != crc:
            raise RuntimeError(f"Invalid file, {name} is not a valid TFRecord file: corrupted "
                               f"record length at byte {pos} (checksum mismatch).")
        records.append((pos + 12, length))
        f.seek(length + 4, 1)
        if f.tell() > f.seek(0, 2):
            raise RuntimeError(f"Invalid file, {name} is not a valid TFRecord file: truncated "
                               f"record at byte {pos}.")
        f.seek(pos + 12 + length + 4)


def encode_record(payload: bytes) -> bytes:
    """One TFRecord framing of ``payload``."""
    header = struct.pack("<Q", len(payload))
    return (header + struct.pack("<I", masked_crc32c(header)) + payload
            + struct.pack("<I", masked_crc32c(payload)))
