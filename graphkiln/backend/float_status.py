"""Emulated floating-point status register (what Ascend's NPU*FloatStatus ops read).

NumPy reports floating-point errors (overflow to inf, invalid results giving nan, division
by zero) through ``np.seterrcall``; while graphkiln runs kernels it routes those reports to
:func:`_record`, which sets the register instead of printing warnings.
"""
from __future__ import annotations

import numpy as np

_STATUS = np.zeros(8, np.float32)
_BITS = {"overflow": 0, "invalid": 1, "divide by zero": 2, "underflow": 3}


def _record(kind: str, flag: int) -> None:
    _STATUS[_BITS.get(kind, 4)] = 1.0


class fp_guard:
    """Context manager: kernels run with float errors recorded in the register, silently."""

    __slots__ = ("_err", "_call")

    def __enter__(self):
        self._call = np.seterrcall(_record)
        self._err = np.seterr(over="call", invalid="call", divide="call", under="ignore")
        return self

    def __exit__(self, *exc):
        np.seterr(**self._err)
        np.seterrcall(self._call)


def status() -> np.ndarray:
    """A copy of the register (8 float32 flags; non-zero means an error happened)."""
    return _STATUS.copy()


def clear() -> None:
    _STATUS[:] = 0.0
