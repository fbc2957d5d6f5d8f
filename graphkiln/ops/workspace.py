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

Arrays a kernel fully writes before it reads them and needs only while it runs (GEMM
products, cotangent columns, masks) are :func:`scratch` instead: views of one per-thread
arena, taken in a stack of frames (:func:`with_scratch` around each kernel, so a kernel that
calls another keeps its own). Every kernel reuses the same memory, so a step's kernels fault
in the pages of their largest frame, not of every role and shape (LeNet's first step: about
800 pages fewer), and the arena stays in the cache.
"""
from __future__ import annotations

import contextlib
import functools
import math
import mmap
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

SCRATCH_ALIGN = 64  # bytes: each scratch array starts on a cache line
# bytes of the first arena: pages are mapped when first written, so a generous arena costs
# nothing until used, and replacing it as a first step's frames grow would map them again
SCRATCH_FIRST = 8 << 20


def _arena(nbytes: int) -> np.ndarray:
    """``nbytes`` of an anonymous mapping, mapped in 4 KiB pages as they are first written
    (NumPy would advise huge pages for an array this large, and those fault in slowly on
    this kind of VM after another large process exits: docs/runtime.md, "Huge pages for
    first calls")."""
    # private: a forked child (a dataset worker) gets its own copy, not the parent's memory
    # (Windows has no fork and no MAP_PRIVATE: its anonymous maps are the process's own)
    private = {"flags": mmap.MAP_PRIVATE} if hasattr(mmap, "MAP_PRIVATE") else {}
    return np.frombuffer(mmap.mmap(-1, nbytes, **private), np.uint8)


class Scratch(threading.local):
    """This thread's scratch arena and the first free byte in it."""

    def __init__(self):
        self.arena = np.empty(0, np.uint8)
        self.top = 0


SCRATCH = Scratch()


def scratch(shape: tuple, dtype) -> np.ndarray:
    """An uninitialised array that stays the caller's until the innermost
    :func:`with_scratch` kernel returns. When the arena is full a larger one replaces it
    (the arrays already handed out keep the old one alive)."""
    dtype = np.dtype(dtype)
    s = SCRATCH
    start = -(-s.top // SCRATCH_ALIGN) * SCRATCH_ALIGN
    end = start + math.prod(shape) * dtype.itemsize
    if end > s.arena.size:
        s.arena = _arena(max(end, 2 * s.arena.size, SCRATCH_FIRST))
    s.top = end
    return s.arena[start:end].view(dtype).reshape(shape)


@contextlib.contextmanager
def scratch_frame():
    """A frame: what is taken from :func:`scratch` inside it is free again after it (a
    loop whose every turn takes new arrays runs each turn in one)."""
    s = SCRATCH
    saved = s.top
    try:
        yield
    finally:
        s.top = saved


def with_scratch(kernel):
    """``kernel`` run in a scratch frame of its own (as :func:`scratch_frame`, without a
    context manager's cost on every kernel call: 0.16 against 0.87 us)."""
    @functools.wraps(kernel)
    def run(*args, **kwargs):
        s = SCRATCH
        saved = s.top
        try:
            return kernel(*args, **kwargs)
        finally:
            s.top = saved
    return run


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
