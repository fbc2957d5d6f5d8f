"""MindSpore's summary file format: a sequence of records, each an ``Event`` message framed
as ``uint64 length, uint32 masked CRC32C(length bytes), message, uint32 masked CRC32C
(message)`` (little-endian; the TFRecord framing)."""
from __future__ import annotations

import os
import struct

_CASTAGNOLI = 0x82F63B78


def _crc_table() -> list[int]:
    table = []
    for byte in range(256):
        crc = byte
        for _ in range(8):
            crc = (crc >> 1) ^ (_CASTAGNOLI if crc & 1 else 0)
        table.append(crc)
    return table


_TABLE = _crc_table()


def crc32c(data: bytes) -> int:
    """CRC-32C (Castagnoli) of ``data``."""
    crc = 0xFFFFFFFF
    table = _TABLE
    for byte in data:
        crc = table[(crc ^ byte) & 0xFF] ^ (crc >> 8)
    return crc ^ 0xFFFFFFFF


def masked_crc(data: bytes) -> int:
    crc = crc32c(data)
    return ((((crc >> 15) | (crc << 17)) & 0xFFFFFFFF) + 0xA282EAD8) & 0xFFFFFFFF


def frame(message: bytes) -> bytes:
    """One record: the framed serialized message."""
    header = struct.pack("<Q", len(message))
    return b"".join((header, struct.pack("<I", masked_crc(header)), message,
                     struct.pack("<I", masked_crc(message))))


class EventFile:
    """Appends framed events to one summary file; every record is written whole and
    flushed before :meth:`write` returns."""

    def __init__(self, path: str):
        self.path = path
        self._file = open(path, "ab")  # noqa: SIM115  (kept open until close())

    def write(self, event) -> None:
        self._file.write(frame(event.SerializeToString()))
        self._file.flush()

    def flush(self) -> None:
        self._file.flush()
        os.fsync(self._file.fileno())

    def close(self) -> None:
        if not self._file.closed:
            self.flush()
            self._file.close()
