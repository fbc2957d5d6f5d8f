"""The shared front end of function transformations that return a new function
(``jacfwd``, ``jacrev``, ``jet``...): traced in place inside a graph, compiled once per input
signature and run when called eagerly (as MindSpore wraps them in ``@jit``), so PYNATIVE
and GRAPH mode share one implementation.
"""
from __future__ import annotations

import weakref
from collections.abc import Callable

from ...common.lazy_inline import freeze
from ...compile.call_cache import CallCache
from ...compile.compile_cache import cell_fingerprint, function_identity
from ...ir import tracing_state as state


def callable_identity(fn) -> tuple:
    """What the compile cache keys on for a function or a Cell."""
    target = fn if hasattr(fn, "__code__") or hasattr(fn, "__gk_cache_identity__") \
        else type(fn).construct
    return (function_identity(target), type(fn).__qualname__, cell_fingerprint(fn))


class Transformed:
    """``rule(fn, options, *args)`` as a function of ``args``.

    ``kind`` names the transformation (in compile logs and cache keys); ``options`` are its
    settings (part of the cache key: constants of the compiled graph)."""

    def __init__(self, kind: str, rule: Callable, fn, options: tuple = (),
                 cache: CallCache | None = None):
        self.kind = kind
        self.rule = rule
        self.fn = fn
        self.options = options
        self.cache = CallCache() if cache is None else cache
        self.__name__ = f"{kind}_{getattr(fn, '__name__', type(fn).__name__)}"

    def __call__(self, *args):
        if state.current() is not None:
            return self._traced(*args)
        return self.cache.run(self, self._traced, self.__name__, args, {})

    def _traced(self, *args):
        return self.rule(self.fn, self.options, *args)

    def __gk_cache_identity__(self):
        return (self.kind, callable_identity(self.fn), freeze(self.options))


# the compiled calls of each function's transformations, weakly (they die with it: they
# hold no reference to it, unlike a Transformed): ``jacfwd(net)(x)`` in a loop compiles once
_BY_FN: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def transformed(kind: str, rule: Callable, fn, options: tuple = ()) -> Transformed:
    """The :class:`Transformed` of ``fn``, sharing the compiled calls of every one made
    for the same ``(kind, options)``."""
    key = (kind, options)
    try:
        hash(key)
        per_fn = _BY_FN.setdefault(fn, {})
    except TypeError:  # a bound method (not weak-referenceable) or unhashable options:
        return Transformed(kind, rule, fn, options)  # compiled per call
    cache = per_fn.get(key)
    if cache is None:
        cache = per_fn[key] = CallCache()
    return Transformed(kind, rule, fn, options, cache)


__all__ = ["Transformed", "callable_identity", "transformed"]
