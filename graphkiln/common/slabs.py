"""Arrays carved from large allocations, so that a first call faults their memory in as
huge pages.

NumPy asks Linux for transparent huge pages (``madvise``) for every allocation of 4 MiB or
more, and only for those. An array of a few hundred KiB is faulted in 4 KiB at a time the
first time it is written, and a fault costs a microsecond or two (measured: 1 MiB written
fresh 0.43 ms, 257 faults; 26 MiB in huge pages 2.2 ms, 525 faults). A compiled step's
buffers and its kernels' workspaces are many such arrays, written for the first time by
the first call: carved from one allocation per pool and from 8 MiB slabs, most of their
memory comes in huge pages. (Over-allocating so that each slab starts on a 2 MiB boundary
faulted fewer pages still, but made first calls 2x slower right after another large
process had exited: docs/runtime.md.) Where the system gives no huge pages the slabs behave
as ordinary memory.
"""
from __future__ import annotations

import math

import numpy as np

ALIGN = 64  # bytes: every carved array starts on a cache line
SLAB_BYTES = 8 << 20  # NumPy advises huge pages from 4 MiB on
MIN_CARVED = 64 << 10  # smaller arrays come from the C heap's free lists anyway


def _padded(nbytes: int) -> int:
    return -(-nbytes // ALIGN) * ALIGN


def _view(slab: np.ndarray, at: int, shape: tuple, dtype: np.dtype) -> np.ndarray:
    n = math.prod(shape) * dtype.itemsize
    return slab[at:at + n].view(dtype).reshape(shape)


def _new_slab(nbytes: int) -> tuple[np.ndarray, int]:
    """A fresh slab of at least ``nbytes`` usable bytes and the offset of its first
    cache-line-aligned byte."""
    slab = np.empty(nbytes + ALIGN, np.uint8)
    return slab, -slab.ctypes.data % ALIGN


def carve(specs: list) -> list[np.ndarray]:
    """Uninitialised C-contiguous arrays of ``specs`` (``(shape, numpy dtype)`` pairs), views
    of one allocation, each on its own cache lines."""
    sizes = [_padded(math.prod(shape) * dtype.itemsize) for shape, dtype in specs]
    slab, at = _new_slab(sum(sizes))
    arrays = []
    for (shape, dtype), size in zip(specs, sizes):
        arrays.append(_view(slab, at, shape, dtype))
        at += size
    return arrays


class SlabAllocator:
    """Arrays of ``MIN_CARVED`` bytes up to half a slab, carved one after another from
    ``SLAB_BYTES`` slabs (others are allocated on their own). The owner says when it lets an
    array go (:meth:`release`); a slab none of whose arrays is kept is dropped (its memory
    goes once the last view of it does). Holes are not reused: while the slabs hold more
    than twice the bytes kept in them plus one slab, new arrays are allocated on their own,
    so the waste stays bounded whatever the pattern of releases."""

    def __init__(self):
        self.slab: np.ndarray | None = None
        self.used = self.end = 0
        self.kept: dict[int, list] = {}  # id(slab) -> [slab, arrays kept, bytes kept]
        self.slab_bytes = 0
        self.kept_bytes = 0

    def empty(self, shape: tuple, dtype) -> tuple[np.ndarray, int | None]:
        """An uninitialised array and the token to :meth:`release` it with (None: it was
        allocated on its own)."""
        dtype = np.dtype(dtype)
        nbytes = math.prod(shape) * dtype.itemsize
        if not MIN_CARVED <= nbytes <= SLAB_BYTES // 2 or \
                self.slab_bytes > 2 * self.kept_bytes + SLAB_BYTES:
            return np.empty(shape, dtype), None
        size = _padded(nbytes)
        if self.slab is None or self.used + size > self.end:
            if self.slab is not None and self.kept[id(self.slab)][1] == 0:
                del self.kept[id(self.slab)]
                self.slab_bytes -= SLAB_BYTES
            self.slab, self.used = _new_slab(SLAB_BYTES)
            self.end = self.used + SLAB_BYTES
            self.kept[id(self.slab)] = [self.slab, 0, 0]
            self.slab_bytes += SLAB_BYTES
        entry = self.kept[id(self.slab)]
        entry[1] += 1
        entry[2] += size
        self.kept_bytes += size
        array = _view(self.slab, self.used, shape, dtype)
        self.used += size
        return array, id(self.slab)

    def release(self, token: int | None, array: np.ndarray) -> None:
        """The owner no longer keeps ``array`` (given with ``token``)."""
        if token is None:
            return
        entry = self.kept[token]
        size = _padded(array.nbytes)
        entry[1] -= 1
        entry[2] -= size
        self.kept_bytes -= size
        if entry[1] == 0 and entry[0] is not self.slab:
            del self.kept[token]
            self.slab_bytes -= SLAB_BYTES


__all__ = ["ALIGN", "MIN_CARVED", "SLAB_BYTES", "SlabAllocator", "carve"]
