"""Count NumPy's array-data allocations: a counting NumPy memory handler (NEP 49,
``PyDataMem_SetHandler``) that forwards to libc and counts each malloc, calloc and realloc.
For benchmarks only (every allocation calls into Python while it is set)."""
from __future__ import annotations

import ctypes
from contextlib import contextmanager

try:
    from numpy._core import _multiarray_umath
except ImportError:  # NumPy 1.x
    from numpy.core import _multiarray_umath

_SET_HANDLER = 304  # PyDataMem_SetHandler in NumPy's C-API table (1.22+ and 2.x)
_libc = ctypes.CDLL(None)
_libc.malloc.restype = _libc.calloc.restype = _libc.realloc.restype = ctypes.c_void_p
_libc.malloc.argtypes = [ctypes.c_size_t]
_libc.calloc.argtypes = [ctypes.c_size_t, ctypes.c_size_t]
_libc.realloc.argtypes = [ctypes.c_void_p, ctypes.c_size_t]
_libc.free.argtypes = [ctypes.c_void_p]

_MALLOC = ctypes.CFUNCTYPE(ctypes.c_void_p, ctypes.c_void_p, ctypes.c_size_t)
_CALLOC = ctypes.CFUNCTYPE(ctypes.c_void_p, ctypes.c_void_p, ctypes.c_size_t, ctypes.c_size_t)
_REALLOC = ctypes.CFUNCTYPE(ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_size_t)
_FREE = ctypes.CFUNCTYPE(None, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_size_t)


class _Allocator(ctypes.Structure):
    _fields_ = [("ctx", ctypes.c_void_p), ("malloc", _MALLOC), ("calloc", _CALLOC),
                ("realloc", _REALLOC), ("free", _FREE)]


class _Handler(ctypes.Structure):
    _fields_ = [("name", ctypes.c_char * 127), ("version", ctypes.c_uint8),
                ("allocator", _Allocator)]


class Counts:
    """Allocations and bytes asked for while counting."""

    def __init__(self):
        self.allocations = 0
        self.bytes = 0


_counts = Counts()


def _malloc(ctx, size):
    _counts.allocations += 1
    _counts.bytes += size
    return _libc.malloc(size)


def _calloc(ctx, n, size):
    _counts.allocations += 1
    _counts.bytes += n * size
    return _libc.calloc(n, size)


def _realloc(ctx, ptr, size):
    _counts.allocations += 1
    _counts.bytes += size
    return _libc.realloc(ptr, size)


def _free(ctx, ptr, size):
    _libc.free(ptr)


# kept alive for the life of the process: arrays made under the handler free through it
_callbacks = (_MALLOC(_malloc), _CALLOC(_calloc), _REALLOC(_realloc), _FREE(_free))
_handler = _Handler(b"counting_handler", 1, _Allocator(None, *_callbacks))
ctypes.pythonapi.PyCapsule_New.restype = ctypes.py_object
ctypes.pythonapi.PyCapsule_New.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p]
ctypes.pythonapi.PyCapsule_GetPointer.restype = ctypes.c_void_p
ctypes.pythonapi.PyCapsule_GetPointer.argtypes = [ctypes.py_object, ctypes.c_char_p]
_name = ctypes.create_string_buffer(b"mem_handler")  # the capsule keeps only its address
_capsule = ctypes.pythonapi.PyCapsule_New(ctypes.addressof(_handler), ctypes.addressof(_name),
                                          None)


def _set_handler():
    table = ctypes.pythonapi.PyCapsule_GetPointer(_multiarray_umath._ARRAY_API, None)
    address = ctypes.cast(table, ctypes.POINTER(ctypes.c_void_p))[_SET_HANDLER]
    return ctypes.PYFUNCTYPE(ctypes.py_object, ctypes.py_object)(address)


@contextmanager
def count_numpy_allocations():
    """``with count_numpy_allocations() as c:`` ... ``c.allocations``, ``c.bytes``."""
    set_handler = _set_handler()
    counts = Counts()
    old = set_handler(_capsule)
    start = (_counts.allocations, _counts.bytes)
    try:
        yield counts
    finally:
        counts.allocations = _counts.allocations - start[0]
        counts.bytes = _counts.bytes - start[1]
        set_handler(old)
