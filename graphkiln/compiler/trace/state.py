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
