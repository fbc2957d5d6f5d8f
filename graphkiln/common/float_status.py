"""Emulated floating-point status register (what Ascend's NPU*FloatStatus ops read).

NumPy reports floating-point errors (overflow to inf, invalid results giving nan, division
by zero) to an error callback; while graphkiln runs kernels it routes those reports to
:func:`_record`, which sets the register instead of printing warnings. Switching NumPy's
error state costs well under a microsecond: :class:`fp_guard` sets NumPy's error-state
context variable directly (NumPy >= 2), falling back to ``np.errstate`` otherwise.
"""
from __future__ import annotations

import numpy as np

_STATUS = np.zeros(8, np.float32)
_BITS = {"overflow": 0, "invalid": 1, "divide by zero": 2, "underflow": 3}


def _record(kind: str, flag: int) -> None:
    _STATUS[_BITS.get(kind, 4)] = 1.0


_ERRORS = {"over": "call", "invalid": "call", "divide": "call", "under": "ignore"}
try:
    from numpy._core._multiarray_umath import _make_extobj
    from numpy._core._ufunc_config import _extobj_contextvar

    _EXTOBJ = _make_extobj(call=_record, **_ERRORS)
except (ImportError, AttributeError, TypeError):  # an older or different NumPy
    _extobj_contextvar = None


class fp_guard:
    """Context manager: kernels run with float errors recorded in the register, silently."""

    __slots__ = ("_token", "_ctx")

    def __enter__(self):
        if _extobj_contextvar is not None:
            self._token = _extobj_contextvar.set(_EXTOBJ)
        else:
            self._ctx = np.errstate(call=_record, **_ERRORS)
            self._ctx.__enter__()
        return self

    def __exit__(self, *exc):
        if _extobj_contextvar is not None:
            _extobj_contextvar.reset(self._token)
        else:
            self._ctx.__exit__(*exc)


def enter():
    """Start routing float errors to the register; returns what :func:`exit` restores."""
    if _extobj_contextvar is not None:
        return _extobj_contextvar.set(_EXTOBJ)
    ctx = np.errstate(call=_record, **_ERRORS)
    ctx.__enter__()
    return ctx


def exit(token) -> None:  # noqa: A001 - pairs with enter()
    if _extobj_contextvar is not None:
        _extobj_contextvar.reset(token)
    else:
        token.__exit__(None, None, None)


def active() -> bool:
    """True while float errors go to the register (inside :class:`fp_guard` or
    :func:`enter`): kernels then keep the error state as it is."""
    if _extobj_contextvar is not None:
        return _extobj_contextvar.get() is _EXTOBJ
    return np.geterrcall() is _record


def status() -> np.ndarray:
    """A copy of the register (8 float32 flags; non-zero means an error happened)."""
    return _STATUS.copy()


def clear() -> None:
    _STATUS[:] = 0.0
