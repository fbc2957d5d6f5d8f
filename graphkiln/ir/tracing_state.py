"""The tracer that is currently recording, if any (one per thread)."""
from __future__ import annotations

import threading

_local = threading.local()


def current():
    """The innermost active graph builder, or None in eager (PyNative) execution."""
    return getattr(_local, "builder", None)


def set_current(builder):
    """Make ``builder`` the active one; returns the previous so callers can restore it."""
    prev = getattr(_local, "builder", None)
    _local.builder = builder
    return prev


# Graph-time Tensors that stand for Python numbers: the join of two Python ints (or two
# floats) by a tensor ``if``, and arithmetic of such with Python numbers. MindSpore keeps
# them scalars, so the graph returns them as Python numbers (as PyNative gives).
# Per thread: id -> (tensor, int or float), emptied around each outermost compile.


def mark_number(tensor, kind: type) -> None:
    """Record that the graph-time ``tensor`` stands for a Python number of ``kind``."""
    numbers = getattr(_local, "numbers", None)
    if numbers is None:
        numbers = _local.numbers = {}
    numbers[id(tensor)] = (tensor, kind)


def number_kind(x) -> type | None:
    """``int`` or ``float`` when ``x`` stands for a Python number (see ``mark_number``)."""
    numbers = getattr(_local, "numbers", None)
    entry = numbers.get(id(x)) if numbers else None
    return entry[1] if entry is not None and entry[0] is x else None


def clear_numbers() -> None:
    _local.numbers = None


def begin_files() -> set:
    """Start recording the source files traced code comes from (for the compile cache)."""
    files: set = set()
    _local.files = files
    return files


def end_files() -> None:
    _local.files = None


def note_file(filename: str) -> None:
    files = getattr(_local, "files", None)
    if files is not None:
        files.add(filename)


class RunTimeWrites:
    """What the graph being traced writes when it runs: the ids of global dicts (never
    guarded: the graph itself changes them) and the ``(object, attribute)`` pairs it sets,
    with each attribute's value before the trace (the value the trace read)."""

    def __init__(self):
        self.ids: set[int] = set()
        self.attributes: dict = {}
        self.python_calls = False  # it calls a user function of this process (a pyfunc)


def begin_functions():
    """Start recording the Python functions a trace converts (for guards on the globals
    and closure cells they read) and what its graph writes when it runs; returns ``(the
    functions, the RunTimeWrites, the token for end_functions)``."""
    functions: list = []
    written = RunTimeWrites()
    prev = (getattr(_local, "functions", None), getattr(_local, "run_time_writes", None))
    _local.functions, _local.run_time_writes = functions, written
    return functions, written, prev


def end_functions(prev) -> None:
    _local.functions, _local.run_time_writes = prev


def note_function(fn) -> None:
    functions = getattr(_local, "functions", None)
    if functions is not None:
        functions.append(fn)


def note_run_time_write(obj) -> None:
    """``obj`` (a global dict) is written by the graph when it runs."""
    written = getattr(_local, "run_time_writes", None)
    if written is not None:
        written.ids.add(id(obj))


def note_python_call(fn) -> None:
    """The graph calls the user's Python function ``fn`` when it runs (a pyfunc ``Custom``
    op): it needs this process's function object, so it is not written to the compile
    cache."""
    written = getattr(_local, "run_time_writes", None)
    if written is not None:
        written.python_calls = True


def note_attribute_write(obj, name: str, before) -> None:
    """The graph sets ``obj.<name>`` when it runs; ``before`` is its value now."""
    written = getattr(_local, "run_time_writes", None)
    if written is not None:
        written.attributes.setdefault((id(obj), name), (obj, name, before))


def replaying_forward() -> bool:
    """True while a trace replays a compiled call's forward pass for its backward graph (a
    PyNative gradient's step): the forward ran already, so its run-time attribute writes
    are not made again."""
    return getattr(_local, "replaying", False)


def set_replaying_forward(on: bool) -> bool:
    """Set :func:`replaying_forward`; returns the previous value to restore."""
    prev = replaying_forward()
    _local.replaying = on
    return prev
