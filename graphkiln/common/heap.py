"""Keep freed array memory in the C heap between compiled steps (glibc only).

A training step allocates and frees the same large intermediates every step. With glibc's
defaults, the heap top beyond a few MB is given back to the OS after each step and arrays
above the (dynamic) mmap threshold are mapped afresh, so every step page-faults its
intermediates in again: about 45% of a GPT block step's CPU time was spent there. Raising
the mmap threshold to glibc's maximum (32 MiB) and the trim threshold to 256 MiB keeps that
memory mapped for reuse, as PyTorch's advice to preload jemalloc/tcmalloc does.

Applied once, when the first weight is drawn by an initializer or the first graph is
compiled (a model's weight draws free large temporaries too); ``GRAPHKILN_HEAP_TUNING=0``
leaves the heap as it is. Other C libraries and platforms are left alone.
"""
from __future__ import annotations

import ctypes
import os
import sys

M_TRIM_THRESHOLD = -1
M_MMAP_THRESHOLD = -3
MMAP_THRESHOLD = 32 << 20  # glibc refuses more (half its 64 MiB arena size)
TRIM_THRESHOLD = 256 << 20

_applied: bool | None = None  # None: not tried yet


def tune_heap() -> bool:
    """Apply the thresholds once per process; True if glibc accepted them."""
    global _applied
    if _applied is None:
        _applied = _apply()
    return _applied


def _apply() -> bool:
    if os.environ.get("GRAPHKILN_HEAP_TUNING", "1") == "0" or not sys.platform.startswith("linux"):
        return False
    try:
        libc = ctypes.CDLL("libc.so.6")
        return bool(libc.mallopt(M_MMAP_THRESHOLD, MMAP_THRESHOLD)
                    and libc.mallopt(M_TRIM_THRESHOLD, TRIM_THRESHOLD))
    except (OSError, AttributeError):  # musl, or no libc.so.6
        return False
