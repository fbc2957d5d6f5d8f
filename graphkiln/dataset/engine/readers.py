"""Readers for files users already have: MNIST idx, CIFAR-10/100 binary batches, image
folders, CSV and text files."""
from __future__ import annotations

import csv
import enum
import glob
import os

import numpy as np

from ..vision.transforms import Decode
from .samplers import BufferShuffleSampler, RandomSampler
from .seeded_samplers import interleave
from .sources import RandomAccessDataset

_MNIST_FILES = {"train": ("train-images-idx3-ubyte", "train-labels-idx1-ubyte"),
                "test": ("t10k-images-idx3-ubyte", "t10k-labels-idx1-ubyte")}
_IDX_IMAGES, _IDX_LABELS = 2051, 2049


class Shuffle(str, enum.Enum):
    """Shuffle levels of file readers (FILES and INFILE shuffle globally here)."""

    FALSE = "false"
    ADAPTIVE = "adaptive"
    GLOBAL = "global"
    PARTIAL = "partial"
    FILES = "files"
    INFILE = "infile"


def _check_dir(path, what: str) -> str:
    if not isinstance(path, (str, os.PathLike)):
        raise TypeError(f"dataset_dir should be a str, but got {type(path).__name__}.")
    if not os.path.isdir(path):
        raise ValueError(f"The folder {path} does not exist or is not a directory or "
                         f"permission denied! ({what})")
    return os.fspath(path)


def _check_usage(usage, allowed: tuple) -> str:
    usage = "all" if usage is None else usage
    if usage not in (*allowed, "all"):
        raise ValueError(f"Input usage is not within the valid set of {[*allowed, 'all']}.")
    return usage


def _read_idx(path: str, magic: int) -> np.ndarray:
    """The array in an idx file (big-endian header: magic, dimension sizes)."""
    if not os.path.isfile(path):
        raise RuntimeError(f"Invalid file, failed to open MNIST file: {path} does not exist.")
    raw = np.fromfile(path, dtype=np.uint8)
    ndim = 3 if magic == _IDX_IMAGES else 1
    header = 4 * (1 + ndim)
    if raw.size < header or int.from_bytes(raw[:4].tobytes(), "big") != magic:
        raise RuntimeError(f"Invalid file, {path} is not an MNIST idx file: expected magic "
                           f"number {magic}.")
    dims = [int.from_bytes(raw[4 + 4 * i:8 + 4 * i].tobytes(), "big") for i in range(ndim)]
    body = raw[header:]
    if body.size != int(np.prod(dims)):
        raise RuntimeError(f"Invalid file, {path} holds {body.size} bytes of data where its "
                           f"header announces {dims}.")
    return body.reshape(dims)


def _rows_by_label(labels, column: str, columns: list) -> dict:
    """label -> its rows, for a ``PKSampler`` over the ``column`` of these labels."""
    if column not in columns:
        raise RuntimeError(f"Invalid column name, {column} does not exist in the dataset's "
                           f"columns {columns}.")
    rows: dict = {}
    for i, label in enumerate(np.asarray(labels).tolist()):
        rows.setdefault(label, []).append(i)
    return rows


class MnistDataset(RandomAccessDataset):
    """MNIST from idx files: ``image`` (28, 28, 1) uint8 and ``label`` uint32."""

    cheap_reads = True

    def __init__(self, dataset_dir, usage=None, num_samples=None, num_parallel_workers=None,
                 shuffle=None, sampler=None, num_shards=None, shard_id=None, cache=None):
        super().__init__(num_parallel_workers, shuffle, sampler, num_samples, num_shards,
                         shard_id, cache=cache)
        self.dataset_dir = _check_dir(dataset_dir, type(self).__name__)
        self.usage = _check_usage(usage, ("train", "test"))
        self._data: tuple | None = None

    def _columns(self):
        return ["image", "label"]

    def _load(self) -> tuple:
        if self._data is None:
            parts = [self.usage] if self.usage != "all" else [
                p for p in ("test", "train")
                if os.path.exists(os.path.join(self.dataset_dir, _MNIST_FILES[p][0]))] or [
                "train"]  # 'all' reads the parts present (a folder may hold one of them)
            images, labels = [], []
            for part in parts:
                img_file, lbl_file = (os.path.join(self.dataset_dir, f)
                                      for f in _MNIST_FILES[part])
                imgs, lbls = _read_idx(img_file, _IDX_IMAGES), _read_idx(lbl_file, _IDX_LABELS)
                if len(imgs) != len(lbls):
                    raise RuntimeError(f"Invalid data, {img_file} has {len(imgs)} images but "
                                       f"{lbl_file} has {len(lbls)} labels.")
                images.append(imgs[..., None])
                labels.append(lbls.astype(np.uint32))
            if len(parts) == 1:  # the arrays as read: no concatenating copy
                self._data = (images[0], labels[0])
            else:
                self._data = (np.concatenate(images), np.concatenate(labels))
        return self._data

    def _length(self):
        return len(self._load()[1])

    def _read(self, index):
        images, labels = self._load()
        return images[index], labels[index, ...]

    def _class_rows(self, column):
        return _rows_by_label(self._load()[1], column, ["label"])

    def _read_many(self, indices):
        images, labels = self._load()
        return images[indices], labels[indices]


class FashionMnistDataset(MnistDataset):
    """Fashion-MNIST: MNIST's idx files, names and columns, other pictures."""


class KMnistDataset(MnistDataset):
    """Kuzushiji-MNIST: MNIST's idx files, names and columns, other pictures."""


class _BinaryRecords(RandomAccessDataset):
    """Fixed-size records: ``label_bytes`` label bytes then a 3x32x32 CHW RGB image."""

    cheap_reads = True
    label_bytes = 1
    markers: dict = {}  # usage -> what the names of its files hold

    def __init__(self, dataset_dir, usage=None, num_samples=None, num_parallel_workers=None,
                 shuffle=None, sampler=None, num_shards=None, shard_id=None, cache=None):
        super().__init__(num_parallel_workers, shuffle, sampler, num_samples, num_shards,
                         shard_id, cache=cache)
        self.dataset_dir = _check_dir(dataset_dir, type(self).__name__)
        self.usage = _check_usage(usage, ("train", "test"))
        self._data: tuple | None = None

    def _load(self) -> tuple:
        if self._data is None:
            parts = ["train", "test"] if self.usage == "all" else [self.usage]
            size = self.label_bytes + 3 * 32 * 32
            chunks = []
            for path in self._paths(parts):
                raw = np.fromfile(path, dtype=np.uint8)
                if raw.size % size:
                    raise RuntimeError(f"Invalid file, {path} is not a CIFAR binary batch: "
                                       f"its size is not a multiple of {size} bytes.")
                chunks.append(raw.reshape(-1, size))
            records = np.concatenate(chunks)
            images = records[:, self.label_bytes:].reshape(-1, 3, 32, 32).transpose(0, 2, 3, 1)
            labels = records[:, :self.label_bytes].astype(np.uint32)
            self._data = (np.ascontiguousarray(images), labels)
        return self._data

    def _paths(self, parts: list) -> list[str]:
        """As MindSpore's: the ``.bin`` files of the folder whose names hold a part's
        marker (``data_batch``, ``test_batch``...), in name order."""
        names = sorted(n for n in os.listdir(self.dataset_dir) if n.endswith(".bin")
                       and os.path.isfile(os.path.join(self.dataset_dir, n)))
        if not names:
            raise RuntimeError(f"Invalid cifar folder, cifar(.bin) files are missing under "
                               f"{self.dataset_dir}")
        chosen = [n for n in names if any(self.markers[p] in n for p in parts)]
        if not chosen:
            raise RuntimeError(f"Invalid data, {type(self).__name__} API can't read the data "
                               f"file (interface mismatch or no data found). Check file in "
                               f"directory:{self.dataset_dir}")
        return [os.path.join(self.dataset_dir, n) for n in chosen]

    def _length(self):
        return len(self._load()[1])

    def _read(self, index):
        images, labels = self._load()
        return (images[index], *(labels[index, k, ...] for k in range(self.label_bytes)))

    def _class_rows(self, column):
        names = self._columns()[1:]
        k = names.index(column) if column in names else 0
        return _rows_by_label(self._load()[1][:, k], column, names)

    def _read_many(self, indices):
        images, labels = self._load()
        return (images[indices], *(labels[indices, k] for k in range(self.label_bytes)))


class Cifar10Dataset(_BinaryRecords):
    """CIFAR-10 binary batches: ``image`` (32, 32, 3) uint8 and ``label`` uint32."""

    markers = {"train": "data_batch", "test": "test_batch"}

    def _columns(self):
        return ["image", "label"]


class Cifar100Dataset(_BinaryRecords):
    """CIFAR-100 binary files: ``image``, ``coarse_label`` and ``fine_label``."""

    label_bytes = 2
    markers = {"train": "train", "test": "test"}

    def _columns(self):
        return ["image", "coarse_label", "fine_label"]


class ImageFolderDataset(RandomAccessDataset):
    """One class per sub-folder: ``image`` (the file's bytes, or decoded RGB with ``decode``)
    and ``label`` int32 (sorted folder order, or ``class_indexing``)."""

    def __init__(self, dataset_dir, num_samples=None, num_parallel_workers=None, shuffle=None,
                 sampler=None, extensions=None, class_indexing=None, decode=False,
                 num_shards=None, shard_id=None, cache=None, decrypt=None):
        super().__init__(num_parallel_workers, shuffle, sampler, num_samples, num_shards,
                         shard_id, cache=cache)
        root = _check_dir(dataset_dir, "ImageFolderDataset")
        folders = sorted(d for d in os.listdir(root) if os.path.isdir(os.path.join(root, d)))
        if class_indexing is None:
            class_indexing = {d: i for i, d in enumerate(folders)}
        elif not isinstance(class_indexing, dict):
            raise TypeError("class_indexing should be a dict of folder name: label.")
        exts = None if extensions is None else tuple(e.lower() for e in extensions)
        self.files: list[tuple[str, int]] = []
        for folder in folders:
            if folder not in class_indexing:
                continue
            for name in sorted(os.listdir(os.path.join(root, folder))):
                if exts is None or name.lower().endswith(exts):
                    self.files.append((os.path.join(root, folder, name),
                                       class_indexing[folder]))
        self.class_indexing = dict(class_indexing)
        self.decode = decode

    def _columns(self):
        return ["image", "label"]

    def _length(self):
        return len(self.files)

    def _read(self, index):
        path, label = self.files[index]
        data = np.fromfile(path, dtype=np.uint8)
        if self.decode:
            data = Decode()(data)
        return data, np.array(label, dtype=np.int32)

    def _class_rows(self, column):
        return _rows_by_label([label for _, label in self.files], column, ["label"])

    def num_classes(self):
        return len(self.class_indexing)

    def get_class_indexing(self):
        return dict(self.class_indexing)


def _expand_files(dataset_files) -> list[str]:
    if isinstance(dataset_files, (str, os.PathLike)):
        files = sorted(glob.glob(os.fspath(dataset_files)))
    elif isinstance(dataset_files, (list, tuple)):
        files = [os.fspath(f) for f in dataset_files]
    else:
        raise TypeError("dataset_files should be a str (a glob pattern) or a list of str.")
    if not files:
        raise ValueError(f"The following patterns did not match any files: {dataset_files}.")
    for f in files:
        if not os.path.isfile(f):
            raise ValueError(f"The file {f} does not exist or permission denied!")
    return files


def _shuffle_arg(shuffle):
    if isinstance(shuffle, Shuffle):
        return shuffle is not Shuffle.FALSE
    if isinstance(shuffle, bool):
        return shuffle
    raise TypeError("shuffle should be a bool or a Shuffle level.")


def file_shuffled(sampler, shuffle, file_positions, workers: int):
    """A file reader's sampler as MindSpore shuffles: ``Shuffle.GLOBAL`` (or ``True``)
    shuffles the files and the rows, ``Shuffle.FILES`` the files only
    (``BufferShuffleSampler``); other samplers stay."""
    if type(sampler) is not RandomSampler or shuffle in (Shuffle.INFILE, Shuffle.PARTIAL):
        return sampler
    return BufferShuffleSampler(sampler.num_samples, file_positions, workers,
                                shuffle_rows=shuffle is not Shuffle.FILES)


def reading_order(sizes: list[int], workers: int) -> list[tuple[int, int]]:
    """(file, row) of every row in MindSpore's unshuffled reading order."""
    return interleave([[(f, j) for j in range(n)] for f, n in enumerate(sizes)], workers)


class _LineRecords(RandomAccessDataset):
    """Records held in memory after one read of the files, in MindSpore's reading order;
    shuffled globally by default."""

    cheap_reads = True

    def __init__(self, num_samples, num_parallel_workers, shuffle, num_shards, shard_id,
                 cache=None):
        super().__init__(num_parallel_workers, _shuffle_arg(shuffle), None, num_samples,
                         num_shards, shard_id, cache=cache)
        self.records: list = []
        self._positions: list[list[int]] = []
        self.sampler = file_shuffled(self.sampler, shuffle, lambda: self._positions,
                                     self._workers())

    def _keep(self, per_file: list[list]) -> None:
        """Hold the files' rows in MindSpore's reading order (workers' rows alternating)."""
        order = reading_order([len(rows) for rows in per_file], self._workers())
        self.records = [per_file[f][j] for f, j in order]
        self._positions = [[] for _ in per_file]
        for p, (f, _) in enumerate(order):
            self._positions[f].append(p)

    def _length(self):
        return len(self.records)

    def _read(self, index):
        return self.records[index]


class TextFileDataset(_LineRecords):
    """One row per line: ``text`` (a string scalar)."""

    def __init__(self, dataset_files, num_samples=None, num_parallel_workers=None,
                 shuffle=Shuffle.GLOBAL, num_shards=None, shard_id=None, cache=None):
        super().__init__(num_samples, num_parallel_workers, shuffle, num_shards, shard_id,
                         cache)
        per_file = []
        for path in _expand_files(dataset_files):
            with open(path, encoding="utf-8") as f:
                per_file.append([(np.array(line.rstrip("\r\n")),)
                                 for line in f if line.strip("\r\n")])
        self._keep(per_file)

    def _columns(self):
        return ["text"]


class CSVDataset(_LineRecords):
    """One row per CSV record, one scalar column per field; ``column_defaults`` give the
    type (int, float or str) and the value of empty fields."""

    def __init__(self, dataset_files, field_delim=",", column_defaults=None, column_names=None,
                 num_samples=None, num_parallel_workers=None, shuffle=Shuffle.GLOBAL,
                 num_shards=None, shard_id=None, cache=None):
        super().__init__(num_samples, num_parallel_workers, shuffle, num_shards, shard_id,
                         cache)
        files = _expand_files(dataset_files)
        header = column_names is None  # then every file starts with one, as in MindSpore
        per_file = []
        for path in files:
            with open(path, encoding="utf-8", newline="") as f:
                lines = [(n, r) for n, r in enumerate(csv.reader(f, delimiter=field_delim), 1)
                         if r]
            if header:
                if not lines:
                    raise RuntimeError(f"Invalid file, {path} is empty: no header.")
                column_names = column_names or lines[0][1]
                lines = lines[1:]
            per_file.append([self._record(r, path, n, column_names, column_defaults)
                             for n, r in lines])
        self._keep(per_file)
        self.names = list(column_names)

    @staticmethod
    def _record(fields, path, line, names, defaults) -> tuple:
        """One record's fields typed by ``column_defaults`` (int32, float32 or str)."""
        if len(fields) != len(names):
            raise RuntimeError(f"Invalid csv, csv file: {path} parse failed at line {line}: "
                               f"{len(fields)} fields for {len(names)} columns.")
        out = []
        for i, field in enumerate(fields):
            kind = type(defaults[i]) if defaults is not None else str
            if kind is str:
                out.append(np.array(field))
                continue
            try:
                out.append(np.array(kind(field), dtype=np.int32 if kind is int else np.float32))
            except ValueError:
                raise RuntimeError(f"Invalid csv, csv file: {path} parse failed at line {line}, "
                                   f"type does not match.") from None
        return tuple(out)

    def _columns(self):
        return list(self.names)
