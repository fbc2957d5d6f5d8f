"""``FileWriter``: write rows to MindRecord files that MindSpore reads (and ``MindDataset``)."""
from __future__ import annotations

import os

from .shard_format import (
    ARRAY_TYPES,
    HEADER_SIZE,
    PAGE_SIZE,
    TYPES,
    Schema,
    ShardReader,
    write_shard,
)

_MIN_HEADER, _MAX_HEADER = 1 << 14, 1 << 27
_MIN_PAGE, _MAX_PAGE = 1 << 15, 1 << 28


def _shard_paths(file_name: str, shard_num: int) -> list[str]:
    return [file_name] if shard_num == 1 else [f"{file_name}{i}" for i in range(shard_num)]


class FileWriter:
    """Collects a schema and rows, and writes ``shard_num`` MindRecord files on ``commit``."""

    def __init__(self, file_name: str, shard_num: int = 1, overwrite: bool = False):
        if not isinstance(file_name, str) or not file_name:
            raise ValueError("Parameter file_name should be a non-empty str.")
        if isinstance(shard_num, bool) or not isinstance(shard_num, int) or \
                not 1 <= shard_num <= 1000:
            raise ValueError("Parameter shard_num should be an int in [1, 1000].")
        self.paths = [os.path.abspath(p) for p in _shard_paths(file_name, shard_num)]
        existing = [p for p in self.paths if os.path.exists(p) or os.path.exists(p + ".db")]
        if existing and not overwrite:
            raise RuntimeError(f"Invalid file, mindrecord files already exist. Please check "
                               f"file path: {existing[0]}, or pass overwrite=True.")
        for p in existing:
            for f in (p, p + ".db"):
                if os.path.exists(f):
                    os.remove(f)
        for d in {os.path.dirname(p) for p in self.paths}:
            if not os.path.isdir(d):
                raise RuntimeError(f"Invalid file, the directory {d} does not exist.")
        self.schema: Schema | None = None
        self.index_fields: list[str] | None = None
        self.rows: list[dict] = []
        self.header_size = HEADER_SIZE
        self.page_size = PAGE_SIZE
        self.committed = False

    @classmethod
    def open_for_append(cls, file_name: str) -> FileWriter:
        """A writer holding the rows of an existing file set; ``commit`` rewrites it."""
        reader = ShardReader(file_name)
        base = os.path.dirname(os.path.abspath(file_name))
        addresses = reader.header["shard_addresses"]
        writer = object.__new__(cls)
        writer.paths = [os.path.join(base, a) for a in addresses]
        writer.schema = reader.schema
        writer.index_fields = [f["index_field"] for f in reader.header["index_fields"] or []]
        writer.header_size = reader.header["header_size"]
        writer.page_size = reader.header["page_size"]
        writer.rows = []
        for path in writer.paths:
            shard = ShardReader(path)
            fd = os.open(path, os.O_RDONLY)
            try:
                writer.rows.extend(shard.read(fd, i) for i in range(len(shard)))
            finally:
                os.close(fd)
        writer.committed = False
        return writer

    def add_schema(self, content: dict, desc: str | None = None) -> int:
        """Set the schema ({field: {"type": ..., "shape": [...]}}); returns its id, 0."""
        if self.schema is not None:
            raise RuntimeError("Only one schema can be added to a FileWriter.")
        if not isinstance(content, dict) or not content:
            raise ValueError("Invalid schema, the schema should be a non-empty dict.")
        for name, spec in content.items():
            if not isinstance(name, str) or not name.replace("_", "a").isalnum():
                raise ValueError(f"Invalid schema, field name {name!r} should be letters, "
                                 "digits and '_'.")
            if not isinstance(spec, dict) or spec.get("type") not in TYPES:
                raise ValueError(f"Invalid schema, field {name!r} needs a type in "
                                 f"{list(TYPES)}.")
            if "shape" in spec and (spec["type"] not in ARRAY_TYPES or not all(
                    isinstance(d, int) and (d > 0 or d == -1) for d in spec["shape"])):
                raise ValueError(f"Invalid schema, field {name!r}: a shape needs an array type "
                                 f"{list(ARRAY_TYPES)} and dimensions > 0 or -1.")
        self.schema = Schema(content, desc or "")
        return 0

    def add_index(self, index_fields: list[str]) -> None:
        """Fields to index (scalar fields; all of them by default)."""
        if self.schema is None:
            raise RuntimeError("add_schema must be called before add_index.")
        if not isinstance(index_fields, list) or not index_fields:
            raise ValueError("Parameter index_fields should be a non-empty list of str.")
        bad = [f for f in index_fields if f not in self.schema.raw_fields]
        if bad:
            raise ValueError(f"Invalid index field {bad[0]!r}: index fields should be scalar "
                             "fields of the schema.")
        self.index_fields = list(index_fields)

    def write_raw_data(self, raw_data: list[dict], parallel_writer: bool = False) -> None:
        """Add rows (dicts of field: value) to write at ``commit``."""
        if self.schema is None:
            raise RuntimeError("add_schema must be called before write_raw_data.")
        if not isinstance(raw_data, list) or not all(isinstance(r, dict) for r in raw_data):
            raise ValueError("Parameter raw_data should be a list of dict.")
        for row in raw_data:
            missing = [k for k in self.schema.fields if k not in row]
            if missing:
                raise ValueError(f"Invalid data, a row lacks the schema fields {missing}.")
        self.rows.extend(raw_data)

    def set_header_size(self, header_size: int) -> None:
        if not _MIN_HEADER <= header_size <= _MAX_HEADER:
            raise ValueError(f"Invalid header size, it should be in [{_MIN_HEADER}, "
                             f"{_MAX_HEADER}].")
        self.header_size = header_size

    def set_page_size(self, page_size: int) -> None:
        if not _MIN_PAGE <= page_size <= _MAX_PAGE:
            raise ValueError(f"Invalid page size, it should be in [{_MIN_PAGE}, {_MAX_PAGE}].")
        self.page_size = page_size

    def commit(self) -> None:
        """Write the shard files and their index files."""
        if self.schema is None:
            raise RuntimeError("add_schema must be called before commit.")
        if self.committed:
            raise RuntimeError("This FileWriter has already been committed.")
        index = self.index_fields if self.index_fields is not None else self.schema.raw_fields
        n, shards = len(self.rows), len(self.paths)
        per = -(-n // shards) if n else 0
        names = [os.path.basename(p) for p in self.paths]
        for i, path in enumerate(self.paths):
            write_shard(path, i, names, self.schema, index, self.rows[i * per:(i + 1) * per],
                        self.header_size, self.page_size)
        self.committed = True
