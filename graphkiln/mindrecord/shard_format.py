"""MindRecord's on-disk format, as MindSpore writes and reads it.

A shard file is a header (8-byte little-endian JSON length, the JSON, zero padding to
``header_size``) followed by pages of ``page_size`` bytes (the last one not padded). Pages
are BLOB_DATA or RAW_DATA; each holds records of an 8-byte little-endian length and the data.
A row's raw record is a MessagePack map of its scalar fields; its blob record holds its
``bytes`` and array fields: one field's data alone, or for several fields an 8-byte
big-endian length before each. When the schema has an int32/int64 array, those fields are
stored compressed (4-byte big-endian count, 2-bit width codes, then each value little-endian
in the narrowest of int8/16/32/64). A SQLite file ``<shard>.db`` indexes rows by page and
offset.
"""
from __future__ import annotations

import json
import os
import sqlite3
import struct

import numpy as np

from .msgpack import pack as pack_map
from .msgpack import unpack as unpack_map

HEADER_SIZE = 1 << 24
PAGE_SIZE = 1 << 25
VERSION = "3.0"
TYPES = {"int32": np.int32, "int64": np.int64, "float32": np.float32, "float64": np.float64,
         "string": np.str_, "bytes": np.bytes_}
ARRAY_TYPES = ("int32", "int64", "float32", "float64")
_INT_WIDTHS = (np.int8, np.int16, np.int32, np.int64)
_SQL_TYPES = {"int32": "INTEGER", "int64": "INTEGER", "float32": "REAL", "float64": "REAL",
              "string": "TEXT"}


class Schema:
    """A MindRecord schema: {field: {"type": ..., "shape": [...]}}; blob fields are the
    ``bytes`` fields and the arrays, in name order."""

    def __init__(self, fields: dict, desc: str = ""):
        self.fields = {k: dict(fields[k]) for k in sorted(fields)}
        self.desc = desc
        self.blob_fields = [k for k, v in self.fields.items()
                            if v["type"] == "bytes" or "shape" in v]
        self.raw_fields = [k for k in self.fields if k not in self.blob_fields]
        self.compressed = any(v["type"] in ("int32", "int64") and "shape" in v
                              for v in self.fields.values())

    def to_json(self) -> dict:
        return {"blob_fields": self.blob_fields, "desc": self.desc, "schema": self.fields}

    @classmethod
    def from_json(cls, obj: dict) -> Schema:
        return cls(obj["schema"], obj.get("desc", ""))


# ---------------------------------------------------------------------- integer compression
def _width_codes(flat: np.ndarray) -> list[int]:
    """Per value, the code of the narrowest signed width (int8, 16, 32, 64) holding it."""
    codes = np.full(len(flat), 3, dtype=np.uint8)
    for code in (2, 1, 0):
        info = np.iinfo(_INT_WIDTHS[code])
        codes[(flat >= info.min) & (flat <= info.max)] = code
    return codes.tolist()


def compress_ints(values: np.ndarray) -> bytes:
    flat = values.reshape(-1).astype(np.int64)
    codes = _width_codes(flat)
    bitmap = bytearray((len(codes) + 3) // 4)
    for i, c in enumerate(codes):
        bitmap[i // 4] |= c << (2 * (3 - i % 4))
    body = b"".join(v.to_bytes(1 << c, "little", signed=True)
                    for v, c in zip(flat.tolist(), codes))
    return struct.pack(">I", len(codes)) + bytes(bitmap) + body


def decompress_ints(data: bytes, dtype) -> np.ndarray:
    n = struct.unpack_from(">I", data, 0)[0]
    pos = 4 + (n + 3) // 4
    out = []
    for i in range(n):
        width = 1 << ((data[4 + i // 4] >> (2 * (3 - i % 4))) & 3)
        out.append(int.from_bytes(data[pos:pos + width], "little", signed=True))
        pos += width
    return np.array(out, dtype=dtype)


# ---------------------------------------------------------------------- rows <-> records
def _field_bytes(schema: Schema, name: str, value) -> bytes:
    spec = schema.fields[name]
    if spec["type"] == "bytes":
        if not isinstance(value, (bytes, bytearray, np.ndarray)):
            raise TypeError(f"Field {name!r} is 'bytes' but the value is "
                            f"{type(value).__name__}.")
        return bytes(value) if not isinstance(value, np.ndarray) else value.tobytes()
    arr = np.asarray(value, dtype=TYPES[spec["type"]])
    if schema.compressed and spec["type"] in ("int32", "int64"):
        return compress_ints(arr)
    return arr.astype(arr.dtype.newbyteorder("<")).tobytes()


def encode_row(schema: Schema, row: dict) -> tuple[bytes, bytes]:
    """(raw record, blob record) of a row, without the length prefixes."""
    missing = [k for k in schema.fields if k not in row]
    if missing:
        raise ValueError(f"Invalid data, the row lacks the schema fields {missing}.")
    raw = {}
    for k in schema.raw_fields:
        kind, v = schema.fields[k]["type"], row[k]
        v = v.item() if isinstance(v, (np.ndarray, np.generic)) else v
        raw[k] = str(v) if kind == "string" else float(v) if kind.startswith("float") else int(v)
    parts = [_field_bytes(schema, k, row[k]) for k in schema.blob_fields]
    if not parts:
        blob = b"\x00" * 4
    elif len(parts) == 1:
        blob = parts[0]
    else:
        blob = b"".join(struct.pack(">Q", len(p)) + p for p in parts)
    return pack_map(raw), blob


def _decode_field(schema: Schema, name: str, data: bytes) -> np.ndarray:
    spec = schema.fields[name]
    if spec["type"] == "bytes":
        return np.array([data], dtype=np.bytes_) if data else np.array([b""])
    dtype = np.dtype(TYPES[spec["type"]])
    if schema.compressed and spec["type"] in ("int32", "int64"):
        arr = decompress_ints(data, dtype)
    else:
        arr = np.frombuffer(data, dtype=dtype.newbyteorder("<")).astype(dtype)
    return arr.reshape(spec["shape"])


def decode_row(schema: Schema, raw: bytes, blob: bytes) -> dict:
    values = unpack_map(raw)
    row = {}
    for k in schema.raw_fields:
        kind = schema.fields[k]["type"]
        row[k] = np.array(values[k], dtype=TYPES[kind])
    fields = schema.blob_fields
    if len(fields) == 1:
        row[fields[0]] = _decode_field(schema, fields[0], blob)
    else:
        pos = 0
        for k in fields:
            n = struct.unpack_from(">Q", blob, pos)[0]
            row[k] = _decode_field(schema, k, blob[pos + 8:pos + 8 + n])
            pos += 8 + n
    return row


# ---------------------------------------------------------------------- shard files
def _record(data: bytes) -> bytes:
    return struct.pack("<Q", len(data)) + data


class _PageBuilder:
    """Packs records into pages of one type, allocating page ids from a shared counter."""

    def __init__(self, kind: str, page_size: int, counter: list):
        self.kind, self.page_size, self.counter = kind, page_size, counter
        self.pages: list[dict] = []

    def add(self, record: bytes, group: int) -> tuple[int, int]:
        """Append a record; returns (page id, offset in page)."""
        if len(record) > self.page_size:
            raise RuntimeError(f"Invalid data, a row of {len(record)} bytes does not fit a page "
                               f"of {self.page_size} bytes: call set_page_size with a larger "
                               "size.")
        page = self.pages[-1] if self.pages else None
        if page is None or len(page["data"]) + len(record) > self.page_size:
            page = {"page_id": self.counter[0], "page_type_id": len(self.pages),
                    "data": bytearray(), "groups": []}
            self.counter[0] += 1
            self.pages.append(page)
        if not page["groups"] or page["groups"][-1][0] != group:
            page["groups"].append((group, len(page["data"])))
        offset = len(page["data"])
        page["data"] += record
        return page["page_id"], offset


def write_shard(path: str, shard_id: int, addresses: list[str], schema: Schema,
                index_fields: list[str], rows: list[dict], header_size: int,
                page_size: int) -> None:
    """Write one shard file and its ``.db`` index (each to a temp file, then renamed)."""
    counter = [0]
    blobs, raws = _PageBuilder("BLOB_DATA", page_size, counter), \
        _PageBuilder("RAW_DATA", page_size, counter)
    index_rows, saved = [], 0
    for row_id, row in enumerate(rows):
        raw, blob = encode_row(schema, row)
        if schema.compressed:
            saved += _plain_blob_size(schema, row) - len(blob)
        group = len(blobs.pages) - 1 if blobs.pages else 0
        blob_rec = _record(blob)
        if blobs.pages and len(blobs.pages[-1]["data"]) + len(blob_rec) > page_size:
            group += 1
        blob_page, blob_off = blobs.add(blob_rec, group)
        raw_rec = _record(raw)
        raw_page, raw_off = raws.add(raw_rec, group)
        index_rows.append((row_id, raw_page, raw_off, raw_off + len(raw_rec), group, blob_page,
                           blob_off, blob_off + len(blob_rec),
                           *[v for k in index_fields for v in (0, _index_value(row[k]))]))
    for page in blobs.pages:
        first = [r for r in index_rows if r[5] == page["page_id"]]
        page["rows"] = (first[0][0], first[-1][0] + 1) if first else (0, 0)
    for page in raws.pages:
        page["rows"] = (0, 0)
    pages = sorted(blobs.pages + raws.pages, key=lambda p: p["page_id"])
    header = {
        "header_size": header_size,
        "index_fields": [{"index_field": k, "schema_id": 0} for k in index_fields] or None,
        "page": [{"end_row_id": p["rows"][1], "page_id": p["page_id"],
                  "page_size": len(p["data"]),
                  "page_type": "BLOB_DATA" if p in blobs.pages else "RAW_DATA",
                  "page_type_id": p["page_type_id"],
                  "row_group_ids": [{"id": g, "offset": o} for g, o in p["groups"]],
                  "shard_id": shard_id, "start_row_id": p["rows"][0]} for p in pages],
        "page_size": page_size, "compression_size": saved,
        "schema": [schema.to_json()], "shard_addresses": addresses, "shard_id": shard_id,
        "statistics": None, "version": VERSION,
    }
    text = json.dumps(header, sort_keys=True, separators=(",", ":")).encode()
    if len(text) + 8 > header_size:
        raise RuntimeError(f"The MindRecord header ({len(text) + 8} bytes) exceeds the header "
                           f"size {header_size}: call set_header_size with a larger size.")
    tmp = path + ".tmp"
    with open(tmp, "wb") as f:
        f.write(struct.pack("<Q", len(text)) + text)
        for p in pages:
            f.seek(header_size + p["page_id"] * page_size)
            f.write(p["data"])
        f.truncate(header_size + (pages[-1]["page_id"] * page_size + len(pages[-1]["data"])
                                  if pages else 0))
        f.flush()
        os.fsync(f.fileno())
    os.chmod(tmp, 0o600)  # MindSpore keeps MindRecord files private to their owner
    _write_index(path + ".db", os.path.basename(path), schema, index_fields, index_rows)
    os.replace(tmp, path)


def _plain_blob_size(schema: Schema, row: dict) -> int:
    sizes = []
    for k in schema.blob_fields:
        spec = schema.fields[k]
        sizes.append(len(row[k]) if spec["type"] == "bytes" else
                     np.asarray(row[k], dtype=TYPES[spec["type"]]).nbytes)
    return sizes[0] if len(sizes) == 1 else sum(8 + s for s in sizes)


def _index_value(v):
    v = v.item() if isinstance(v, (np.ndarray, np.generic)) else v
    return v


def _write_index(path: str, shard_name: str, schema: Schema, index_fields: list[str],
                 rows: list[tuple]) -> None:
    tmp = path + ".tmp"
    if os.path.exists(tmp):
        os.remove(tmp)
    extra = "".join(f",INC_{i} INT, {k}_0 {_SQL_TYPES[schema.fields[k]['type']]}"
                    for i, k in enumerate(index_fields))
    keys = "".join(f",INC_{i}" for i in range(len(index_fields)))
    con = sqlite3.connect(tmp)
    try:
        con.execute("CREATE TABLE INDEXES(  ROW_ID               INT  NOT NULL, "
                    "PAGE_ID_RAW          INT  NOT NULL, PAGE_OFFSET_RAW      INT  NOT NULL, "
                    "PAGE_OFFSET_RAW_END  INT  NOT NULL, ROW_GROUP_ID         INT  NOT NULL, "
                    "PAGE_ID_BLOB         INT  NOT NULL, PAGE_OFFSET_BLOB     INT  NOT NULL, "
                    f"PAGE_OFFSET_BLOB_END INT  NOT NULL{extra}, PRIMARY KEY(ROW_ID{keys}))")
        marks = ",".join("?" * (8 + 2 * len(index_fields)))
        con.executemany(f"INSERT INTO INDEXES VALUES({marks})", rows)
        con.execute("CREATE TABLE SHARD_NAME(NAME TEXT NOT NULL)")
        con.execute("INSERT INTO SHARD_NAME VALUES(?)", (shard_name,))
        con.commit()
    finally:
        con.close()
    os.chmod(tmp, 0o600)
    os.replace(tmp, path)


class ShardReader:
    """Reads the header and the records of one shard file; rows by index."""

    def __init__(self, path: str):
        self.path = path
        try:
            with open(path, "rb") as f:
                n = struct.unpack("<Q", f.read(8))[0]
                if not 0 < n < (1 << 30):
                    raise ValueError("bad header length")
                self.header = json.loads(f.read(n))
            self.schema = Schema.from_json(self.header["schema"][0])
        except FileNotFoundError:
            raise RuntimeError(f"Invalid file, failed to open MindRecord file: {path} does not "
                               f"exist.") from None
        except (ValueError, KeyError, IndexError, struct.error, UnicodeDecodeError):
            raise RuntimeError(f"Invalid file, {path} is not a MindRecord file (its header "
                               f"cannot be read).") from None
        self._locate_records()

    def _locate_records(self) -> None:
        """(offset, length) in the file of every row's raw and blob record."""
        size, page = self.header["header_size"], self.header["page_size"]
        spans: dict[str, list] = {"RAW_DATA": [], "BLOB_DATA": []}
        with open(self.path, "rb") as f:
            for p in sorted(self.header["page"], key=lambda p: (p["page_type"],
                                                                 p["page_type_id"])):
                start = size + p["page_id"] * page
                f.seek(start)
                data = f.read(p["page_size"])
                pos = 0
                while pos + 8 <= len(data):
                    n = struct.unpack_from("<Q", data, pos)[0]
                    spans[p["page_type"]].append((start + pos + 8, n))
                    pos += 8 + n
        if len(spans["RAW_DATA"]) != len(spans["BLOB_DATA"]):
            raise RuntimeError(f"Invalid file, {self.path} has {len(spans['RAW_DATA'])} raw "
                               f"records but {len(spans['BLOB_DATA'])} blob records.")
        self.raw, self.blob = spans["RAW_DATA"], spans["BLOB_DATA"]

    def __len__(self) -> int:
        return len(self.raw)

    def read(self, fd: int, index: int) -> dict:
        (ro, rn), (bo, bn) = self.raw[index], self.blob[index]
        return decode_row(self.schema, os.pread(fd, rn, ro), os.pread(fd, bn, bo))
