"""Text helpers (``mindspore.dataset.text.utils``): ``NormalizeForm``, conversions between
bytes and str arrays, ``Vocab`` and ``Vectors`` (defined in vocab.py and vectors.py)."""
from __future__ import annotations

from enum import IntEnum

import numpy as np

from .vectors import FastText, GloVe, Vectors
from .vocab import Vocab

__all__ = ["Vocab", "Vectors", "GloVe", "FastText", "NormalizeForm", "to_str", "to_bytes"]


class NormalizeForm(IntEnum):
    """Unicode normalization forms for ``NormalizeUTF8``."""

    NONE = 0
    NFC = 1
    NFKC = 2
    NFD = 3
    NFKD = 4


def to_str(array: np.ndarray, encoding: str = "utf8") -> np.ndarray:
    """A bytes array (dtype ``S``) decoded to str."""
    if not isinstance(array, np.ndarray):
        raise TypeError(f"input should be a NumPy array, got {type(array)}.")
    return np.char.decode(array, encoding)


def to_bytes(array: np.ndarray, encoding: str = "utf8") -> np.ndarray:
    """A str array encoded to bytes (dtype ``S``)."""
    if not isinstance(array, np.ndarray):
        raise TypeError(f"input should be a NumPy array, got {type(array)}.")
    return np.char.encode(array, encoding)
