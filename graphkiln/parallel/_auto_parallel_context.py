"""``mindspore.parallel._auto_parallel_context``: the ``auto_parallel_context()`` object
that model code reads (``auto_parallel_context().get_parallel_mode()``)."""
from __future__ import annotations

from . import context


class _AutoParallelContext:
    """``get_<key>()`` / ``set_<key>(value)`` for every auto-parallel context key."""

    def __getattr__(self, name: str):
        verb, _, key = name.partition("_")
        if verb == "get" and key:
            return lambda: context.get_auto_parallel_context(key)
        if verb == "set" and key:
            return lambda value: context.set_auto_parallel_context(**{key: value})
        raise AttributeError(name)

    def reset(self) -> None:
        context.reset_auto_parallel_context()


_CONTEXT = _AutoParallelContext()


def auto_parallel_context() -> _AutoParallelContext:
    return _CONTEXT
