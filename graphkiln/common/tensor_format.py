"""Tensor text exactly as MindSpore prints it (``print(t)`` and ``repr(t)``)."""
from __future__ import annotations

import numpy as np


def tensor_str(a: np.ndarray, dtype) -> str:
    """``print(t)``: NumPy's text of the values."""
    return np.array2string(np.asarray(a), separator=" ") if a.ndim else str(a.item()) \
        if a.dtype.kind != "b" else str(bool(a))


def tensor_repr(a: np.ndarray, dtype) -> str:
    """``repr(t)``: ``Tensor(shape=[...], dtype=..., value=...)``."""
    body = np.array2string(a, separator=", ")
    sep = "\n" if a.ndim > 1 else " "
    return f"Tensor(shape={list(a.shape)}, dtype={dtype}, value={sep}{body})"
