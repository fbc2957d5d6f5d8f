"""Per-thread workspaces of the window kernels (convolution and pooling).

A kernel asks for a temporary array by ``(role, shape, dtype)`` and gets the same array on
every call with that key from the same thread, so a steady training step does not allocate
its im2col columns, padded images or pooling masks again. Each thread has its own arrays
(two threads running one compiled step never share one). A workspace array never leaves
the kernel that asked for it: a kernel returns a fresh array or writes into its ``out=``.

A new array starts filled (zeros unless the role asks for another value) and keeps whatever
the kernels write into it; a kernel that relies on the fill (the padding of a padded image)
writes only the other elements, and uses a role of its own for that layout. The least
recently used arrays go once a thread holds more than ``BUDGET_BYTES``; one larger than the
budget is handed out but not kept.
"""
from __future__ import annotations

import threading

import numpy as np

BUDGET_BYTES = 64 << 20  # kept per thread


class Workspace(threading.local):
    """The arrays of one thread, keyed by ``(role, shape, dtype)``, least recently used
    first."""

    def __init__(self):
        self.buffers: dict = {}
        self.nbytes = 0
        self.sources: dict = {}  # key -> what the array's content was last derived from

    def get(self, role, shape: tuple, dtype, fill: float = 0) -> np.ndarray:
        key = (role, shape, np.dtype(dtype))
        buf = self.buffers.pop(key, None)
        if buf is None:
            # zeros come from calloc: pages are mapped when a kernel first writes them, not
            # written twice (a first call's im2col columns are megabytes)
            buf = np.zeros(shape, dtype) if fill == 0 else np.full(shape, fill, dtype)
            if buf.nbytes > BUDGET_BYTES:
                return buf
            self.nbytes += buf.nbytes
            while self.nbytes > BUDGET_BYTES:
                old = next(iter(self.buffers))
                self.nbytes -= self.buffers.pop(old).nbytes
                self.sources.pop(old, None)
        self.buffers[key] = buf  # most recently used last
        return buf


WORKSPACE = Workspace()


def workspace(role, shape: tuple, dtype, fill: float = 0) -> np.ndarray:
    """This thread's array for ``role`` (any hashable: a name, with the layout it implies)
    of ``shape`` and ``dtype``, filled with ``fill`` when new (a role must imply the fill)."""
    return WORKSPACE.get(role, shape, dtype, fill)


def source(role, shape: tuple, dtype):
    """What this thread's array for ``role`` holds (as :func:`set_source` recorded), or
    None."""
    return WORKSPACE.sources.get((role, shape, np.dtype(dtype)))


def set_source(role, shape: tuple, dtype, tag) -> None:
    """Record what the array for ``role`` now holds (None: nothing known)."""
    WORKSPACE.sources[(role, shape, np.dtype(dtype))] = tag


def result_array(out: np.ndarray | None, shape: tuple, dtype) -> np.ndarray:
    """The array a kernel writes its result into: ``out`` when it fits (C-contiguous, of
    ``shape`` and ``dtype``), else a new one."""
    if out is not None and out.shape == shape and out.dtype == dtype and \
            out.flags.c_contiguous:
        return out
    return np.empty(shape, dtype)


def deliver(result: np.ndarray, out: np.ndarray | None) -> np.ndarray:
    """``result``, or ``out`` holding it when the caller gave one (the memory plan's
    buffer of the result's shape and dtype)."""
    if out is None or out is result:
        return result
    np.copyto(out, result)
    return out
