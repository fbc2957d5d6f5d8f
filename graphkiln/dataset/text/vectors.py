"""``Vectors`` (pre-trained word embeddings read from a text file) and ``ToVectors``."""
from __future__ import annotations

import fnmatch
import os

import numpy as np

from ..transforms.transforms import TensorOperation
from .checks import check_bool

__all__ = ["Vectors", "GloVe", "FastText", "ToVectors"]


class Vectors:
    """Word vectors: one ``word v1 ... vn`` line per word (a ``count dim`` header line, as in
    FastText's .vec files, is skipped)."""

    def __init__(self, table: dict, dim: int):
        self.table, self.dim = table, dim

    @classmethod
    def from_file(cls, file_path: str, max_vectors: int | None = None) -> Vectors:
        """The first ``max_vectors`` vectors of ``file_path`` (all when ``None``)."""
        if not isinstance(file_path, str):
            raise TypeError(f"Argument file_path with value {file_path!r} is not of type "
                            "[<class 'str'>].")
        if max_vectors is not None:
            if isinstance(max_vectors, bool) or not isinstance(max_vectors, int):
                raise TypeError(f"Argument max_vectors with value {max_vectors!r} is not of "
                                "type [<class 'int'>].")
            if max_vectors < 0:
                raise ValueError("Input max_vectors is not within the required interval of "
                                 "[0, 2147483647].")
        if not os.path.isfile(file_path):
            raise RuntimeError(f"Vectors: file {file_path!r} does not exist or is not "
                               "accessible.")
        table: dict = {}
        dim = None
        with open(file_path, encoding="utf-8") as f:
            for number, line in enumerate(f):
                fields = line.rstrip("\r\n").split(" ")
                if number == 0 and len(fields) == 2 and all(x.isdigit() for x in fields):
                    continue
                if max_vectors and len(table) == max_vectors:
                    break
                if dim is None:
                    dim = len(fields) - 1
                if len(fields) - 1 != dim or dim < 1:
                    raise RuntimeError(f"Vectors: line {number + 1} of {file_path!r} has "
                                       f"{len(fields) - 1} values, expected {dim}.")
                table.setdefault(fields[0], np.array(fields[1:], np.float32))
        return cls(table, dim or 0)


class _NamedVectors(Vectors):
    """Vectors whose file name must follow a pattern (MindSpore checks it)."""

    pattern = "*"

    @classmethod
    def from_file(cls, file_path: str, max_vectors: int | None = None) -> Vectors:
        if isinstance(file_path, str) and not fnmatch.fnmatch(os.path.basename(file_path),
                                                              cls.pattern):
            raise RuntimeError(f"{cls.__name__}: invalid file, can not find file "
                               f"'{cls.pattern}', but got: {file_path}")
        return super().from_file(file_path, max_vectors)


class GloVe(_NamedVectors):
    """GloVe's vectors, from a ``glove.6B.*.txt`` file."""

    pattern = "glove.6B.*.txt"


class FastText(_NamedVectors):
    """FastText's vectors, from a ``*.vec`` file."""

    pattern = "*.vec"


class ToVectors(TensorOperation):
    """Each token's vector (float32, one row per token); unknown tokens get ``unk_init``
    (zeros when ``None``); ``lower_case_backup`` retries a token in lower case."""

    def __init__(self, vectors: Vectors, unk_init=None, lower_case_backup: bool = False):
        if not isinstance(vectors, Vectors):
            raise TypeError(f"Argument vectors with value {vectors!r} is not of type "
                            "[<class 'Vectors'>].")
        if unk_init is not None:
            if not isinstance(unk_init, (list, tuple)):
                raise TypeError(f"Argument unk_init with value {unk_init!r} is not of type "
                                "[<class 'list'>, <class 'tuple'>].")
            for value in unk_init:
                if isinstance(value, bool) or not isinstance(value, (int, float)):
                    raise TypeError(f"unk_init should hold ints or floats, got {value!r}.")
        self.vectors = vectors
        self.unk_init = list(unk_init or [])
        self.lower_case_backup = check_bool(lower_case_backup, "lower_case_backup")

    def _vector(self, token: str) -> np.ndarray:
        found = self.vectors.table.get(token)
        if found is None and self.lower_case_backup:
            found = self.vectors.table.get(token.lower())
        if found is not None:
            return found
        if self.unk_init and len(self.unk_init) != self.vectors.dim:
            raise RuntimeError(f"ToVectors: unk_init has {len(self.unk_init)} values, the "
                               f"vectors have {self.vectors.dim}.")
        return np.array(self.unk_init or [0.0] * self.vectors.dim, np.float32)

    def _apply(self, x):
        x = np.asarray(x)
        if x.dtype.kind not in "US" or x.ndim > 1:
            raise RuntimeError(f"ToVectors: the input should be a string scalar or 1-D array, "
                               f"got dtype {x.dtype} and shape {list(x.shape)}.")
        tokens = [t.decode("utf-8") if isinstance(t, bytes) else t for t in x.ravel().tolist()]
        out = np.stack([self._vector(t) for t in tokens]) if tokens else \
            np.empty((0, self.vectors.dim), np.float32)
        return out[0] if x.ndim == 0 else out
