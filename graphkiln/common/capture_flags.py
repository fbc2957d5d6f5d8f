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
    prev, prev_made = bytecode_capture(), getattr(_local, "generators", None)
    _local.on, _local.generators = True, []
    try:
        yield
    finally:
        _local.on, _local.generators = prev, prev_made


def note_generator(gen) -> None:
    """``gen`` was made by a call inside the bytecode capture tracing now."""
    _local.generators.append(gen)


def refuse_outside_generator(gen) -> None:
    """Break a bytecode capture that advances a generator it did not make (each call of
    Python advances it again; a trace would read it once)."""
    if bytecode_capture() and not any(g is gen for g in _local.generators):
        raise GraphBreak("advancing a generator made outside the capture: it runs once in "
                         "a trace, on every call in Python")


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


NO_VALUE = object()  # a global without a value (before a capture wrote it)


def note_global_writes(namespace: dict, names: tuple) -> None:
    """Converted code of a bytecode capture: the function starting now writes the globals
    ``names`` of ``namespace``; their values before the first such write are kept (the
    trace's writes are undone when it ends, the graph's run writes the final values)."""
    seen = getattr(_local, "globals", None)
    if seen is None:
        return
    for name in names:
        if (id(namespace), name) not in seen:
            seen[(id(namespace), name)] = (namespace, name, namespace.get(name, NO_VALUE))


@contextlib.contextmanager
def recording_global_writes():
    """Around a bytecode capture's trace: yields ``{key: (namespace, name, value before)}``
    of the globals it writes, and puts the values before back at the end."""
    prev = getattr(_local, "globals", None)
    seen = _local.globals = {}
    try:
        yield seen
    finally:
        _local.globals = prev
        for namespace, name, value in seen.values():
            if value is NO_VALUE:
                namespace.pop(name, None)
            else:
                namespace[name] = value
