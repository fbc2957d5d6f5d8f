"""Whether the trace running now is a bytecode capture (``jit(capture_mode='bytecode')``).

A bytecode capture promises PyNative's result for any Python, so Python a trace would get
wrong raises :class:`GraphBreak` there, and the capture runs the call as Python instead
(compile/pijit.py): reading what a graph value cannot give while tracing (its text:
``str(x)``, ``repr(x)``, an f-string), or advancing a generator (``next(g)``: the trace
would run it once, the graph never again). A bytecode capture runs ``try`` statements as
Python while it traces (:func:`python_try`): they catch what raises while tracing, and a
raise that would happen only when the graph runs breaks the capture instead. Other traces
keep their behaviour. Per thread.
"""
from __future__ import annotations

import contextlib
import threading

from .nesting import Nesting

_local = threading.local()


class GraphBreak(RuntimeError):
    """Python a bytecode capture cannot put in a graph (the capture breaks there)."""


def bytecode_capture() -> bool:
    """True while a bytecode capture traces on this thread."""
    return getattr(_local, "on", False)


@contextlib.contextmanager
def capturing():
    """Mark the trace inside the block as a bytecode capture."""
    prev = bytecode_capture()
    _local.on = True
    try:
        yield
    finally:
        _local.on = prev


def refuse(what: str) -> None:
    """Break a bytecode capture at ``what`` (no-op for other traces)."""
    if bytecode_capture():
        raise GraphBreak(what)


_TRIES = Nesting()


def python_try():
    """Around a ``try`` statement a bytecode capture runs while tracing."""
    return _TRIES.block()


def inside_python_try() -> bool:
    """True inside :func:`python_try` (a run-time raise there could not be caught)."""
    return _TRIES.active()
