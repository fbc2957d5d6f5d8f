"""``TFRecordDataset``: rows of ``tf.train.Example`` records in TFRecord files, typed by a
``Schema`` (or by the features of the first record)."""
from __future__ import annotations

import gzip
import io
import itertools
import os
import zlib

import numpy as np

from .datasets import as_list
from .example_proto import Example, index_records
from .process_files import ProcessFiles
from .readers import Shuffle, _expand_files, _shuffle_arg, file_shuffled
from .seeded_samplers import interleave
from .sources import RandomAccessDataset, Schema

_DEFAULT_TYPES = {"bytes_list": np.dtype(np.uint8), "float_list": np.dtype(np.float32),
                  "int64_list": np.dtype(np.int64)}
_NUMERIC = ("bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
            "float16", "float32", "float64")


def _column_value(name: str, feature, spec: dict | None, path: str) -> np.ndarray:
    """One feature as MindSpore gives it: bytes joined by spaces into uint8 (or a string array
    for ``string`` columns), numbers cast (C-style) to the schema type; reshaped to the
    schema shape."""
    kind = feature.WhichOneof("kind")
    values = getattr(feature, kind).value if kind else []
    type_name = spec["type_name"] if spec else None
    actual = {"bytes_list": "string", "int64_list": "int64"}.get(kind, "float32")
    allowed = {"bytes_list": ("string", "bytes", "uint8")}.get(
        kind, tuple(t for t in _NUMERIC if t != "bool"))
    if type_name is not None and type_name not in allowed:
        raise RuntimeError(f"Invalid data, the data file is: {path}. The data type loaded "
                           f"from the example for feature name: {name} does not match the "
                           f"predefined type in schema, the actual type: {actual}, but the "
                           f"predefined type: {type_name}")
    if kind == "bytes_list" and type_name in ("string", "bytes"):
        out = np.array([v.decode("utf-8", "surrogateescape") for v in values])
    elif kind == "bytes_list":
        out = np.frombuffer(b" ".join(values), dtype=np.uint8)  # MindSpore's separator
    else:
        out = np.array(values, dtype=_DEFAULT_TYPES.get(kind, np.float32))
        if type_name is not None:
            out = out.astype(type_name)
    shape = spec["shape"] if spec else None
    if shape is not None:
        if int(np.prod(shape)) != out.size:
            raise RuntimeError(f"Invalid data, the data file is: {path}. Column shape of {name} "
                               f"defined in schema does not match the shape actually load: "
                               f"{list(shape)} for {out.size} values.")
        out = out.reshape(shape)
    return out


class TFRecordDataset(RandomAccessDataset):
    """Rows of TFRecord files of ``tf.train.Example``; each column a feature, typed by the
    ``schema`` (a ``Schema`` or a schema JSON file) or, without one, by the first record's
    features (in name order: bytes as uint8, floats as float32, ints as int64).

    As in MindSpore: files are read in sorted order, each worker reading every
    ``num_parallel_workers``-th file and the workers' rows alternating; ``num_shards`` takes
    every ``num_shards``-th file, or with ``shard_equal_rows`` a contiguous block of rows.
    """

    cheap_reads = True  # one pread and a protobuf parse per row

    def __init__(self, dataset_files, schema=None, columns_list=None, num_samples=None,
                 num_parallel_workers=None, shuffle=Shuffle.GLOBAL, num_shards=None,
                 shard_id=None, shard_equal_rows=False, cache=None, compression_type=None):
        files = sorted(_expand_files(dataset_files))
        self.row_shard: tuple[int, int] | None = None
        if num_shards is not None:
            if shard_id is None or not 0 <= shard_id < num_shards:
                raise ValueError(f"Input shard_id is not within the required interval of "
                                 f"[0, {num_shards}).")
            if shard_equal_rows:
                self.row_shard = (num_shards, shard_id)
            else:
                files = files[shard_id::num_shards]
        num_shards = shard_id = None  # sharded here, by file or by row block
        if isinstance(schema, str):
            schema = Schema(schema)
        elif schema is not None and not isinstance(schema, Schema):
            raise TypeError("schema should be a Schema or the path of a schema JSON file.")
        if compression_type not in (None, "", "GZIP", "ZLIB"):
            raise ValueError(f"Input compression_type can only be either '' (no compression), "
                             f"'ZLIB', or 'GZIP', but got '{compression_type}'.")
        if num_samples is None and schema is not None and schema.num_rows:
            num_samples = schema.num_rows
        super().__init__(num_parallel_workers, _shuffle_arg(shuffle), None, num_samples,
                         num_shards, shard_id, cache=cache)
        self.files = files
        self.sampler = file_shuffled(self.sampler, shuffle, self._file_positions,
                                     self._workers())
        self.compression = compression_type or None
        self.specs = {c["name"]: c for c in schema.columns} if schema else None
        self.columns_list = as_list(columns_list, "columns_list")
        self._locations: list[tuple[int, int, int]] | None = None
        self._buffers: dict[int, bytes] = {}
        self._files = ProcessFiles(files)
        self._names: list[str] | None = None

    def _index(self) -> list[tuple[int, int, int]]:
        """(file, offset, length) of every record in MindSpore's unshuffled order, found on
        first use (see ``_reading_order``)."""
        if self._locations is None:
            per_file = []
            for number, path in enumerate(self.files):
                try:
                    if self.compression:
                        self._buffers[number] = self._decompress(path)
                        stream = io.BytesIO(self._buffers[number])
                    else:
                        stream = open(path, "rb")  # noqa: SIM115 - closed below
                    with stream:
                        per_file.append([(number, o, n) for o, n in index_records(stream, path)])
                except (OSError, EOFError, zlib.error) as exc:
                    raise RuntimeError(f"Invalid file. The following file either cannot be "
                                       f"opened, or is not a valid TFRecordDataset file: "
                                       f"{path} ({exc}).") from None
            self._locations = self._reading_order(per_file)
        return self._locations

    def _reading_order(self, per_file: list[list]) -> list:
        """MindSpore's order: each file (or, with ``shard_equal_rows``, each file's piece of
        this shard's contiguous block of rows) goes to worker ``i % workers``; the rows of
        the workers' streams then alternate one by one."""
        blocks = per_file
        if self.row_shard is not None:
            rows = [r for block in per_file for r in block]
            num_shards, shard_id = self.row_shard
            per_shard = -(-len(rows) // num_shards)
            mine = [rows[i % len(rows)] for i in range(shard_id * per_shard,
                                                       (shard_id + 1) * per_shard)] if rows else []
            blocks = [list(g) for _, g in itertools.groupby(mine, key=lambda r: r[0])]
        return interleave(blocks, max(1, self._workers()))

    def _file_positions(self) -> list[list[int]]:
        """Each file's rows as positions in the unshuffled order (for the shuffle)."""
        positions: list[list[int]] = [[] for _ in self.files]
        for p, (number, _, _) in enumerate(self._index()):
            positions[number].append(p)
        return positions

    def _decompress(self, path: str) -> bytes:
        with open(path, "rb") as f:
            raw = f.read()
        return gzip.decompress(raw) if self.compression == "GZIP" else zlib.decompress(raw)

    def _columns(self):
        if self._names is None:
            if self.columns_list:
                self._names = list(self.columns_list)
            elif self.specs is not None:
                self._names = list(self.specs)
            else:
                self._names = sorted(self._example(0).features.feature) if self._index() else []
            if self.columns_list and self._index():
                present = self._example(0).features.feature
                missing = [c for c in self._names if c not in present]
                if missing:
                    raise RuntimeError(f"Invalid columns_list, tfrecord file failed to find "
                                       f"column name: {missing[0]}")
        return list(self._names)

    def _length(self):
        return len(self._index())

    def _example(self, index: int):
        number, offset, length = self._index()[index]
        if self.compression:
            payload = self._buffers[number][offset:offset + length]
        else:
            payload = os.pread(self._files.descriptors()[number], length, offset)
        try:
            return Example.FromString(payload)
        except Exception as exc:  # protobuf's DecodeError
            raise RuntimeError(f"Invalid data, the data file is: {self.files[number]}. Record "
                               f"{index} is not a tf.train.Example ({exc}).") from None

    def _read(self, index):
        features = self._example(index).features.feature
        path = self.files[self._index()[index][0]]
        row = []
        for name in self._columns():
            if name not in features:
                raise RuntimeError(f"Invalid data, the data file is: {path}. Feature name: "
                                   f"{name} is required in schema but could not be found in "
                                   f"tfrecord file.")
            spec = self.specs.get(name) if self.specs else None
            row.append(_column_value(name, features[name], spec, path))
        return tuple(row)

    def __del__(self):
        if hasattr(self, "_files"):
            self._files.close()

