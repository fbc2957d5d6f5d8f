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
