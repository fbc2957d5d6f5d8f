"""``@lazy_inline``: compile each distinct block once and call it wherever it is reused.

Decorating a Cell's ``__init__`` records ``cell_init_args`` (the class and the values of
the init arguments). While tracing, the first call of such a cell with a given
(class, init arguments, non-weight attributes, input signature) traces ``construct`` into
a reusable graph whose extra inputs are the cell's weights; every other instance with the
same key calls that graph with its own weights. The graph stays a call through the passes
and at run time, so node counts and compile time grow with one block plus one call per use.

Beyond MindSpore: nested lazy-inline cells are reused at every level, and an instance whose
graph-relevant attributes changed after ``__init__`` gets its own graph (with a warning
naming the attribute) instead of silently sharing a wrong one.
"""
from __future__ import annotations

import functools
import hashlib
import warnings

import numpy as np

from .parameter import Parameter
from .tensor import Tensor

_SKIP_ATTRS = {"_params", "_cells", "_auto_prefix", "_flags", "_tuple_id", "requires_grad",
               "cell_init_args", "_gk_lazy_key", "_gk_lazy_attrs", "_gk_lazy_warned",
               "_names_checked"}  # (set by a cell's first call from Python: bookkeeping)


def _content_key(a: np.ndarray) -> bytes:
    """The bytes of a small array, a digest of a large one (stable across processes, so
    a cell holding an initializer tensor still finds its compile-cache entry)."""
    data = repr(a.tolist()).encode() if a.dtype.hasobject else np.ascontiguousarray(a).tobytes()
    return data if len(data) <= 512 else hashlib.sha256(data).digest()


def freeze(x, depth: int = 0):
    """A hashable, value-based key for ``x`` (configs, numbers, tuples...); objects may give
    their own with a ``__gk_freeze__()`` method (primitives: name and attributes). A
    Parameter keys by name, dtype and shape, not by its values (an optimizer's
    ParameterTuples would otherwise hash every weight on every compile)."""
    if x is None or isinstance(x, (bool, int, float, str, bytes, type)):
        return x
    own = getattr(type(x), "__gk_freeze__", None)
    if own is not None:
        return own(x)
    if isinstance(x, Parameter):  # a graph input: its values never fold into a graph
        return ("Parameter", x.name, x.dtype.name, x.shape)
    if isinstance(x, Tensor):
        if x.is_symbolic:
            return ("id", id(x))
        if x._data is None:  # a set_inputs / input_signature placeholder
            return ("Tensor", x.dtype.name, tuple(x._abs), None)
        return ("Tensor", x.dtype.name, x.shape, _content_key(x.asnumpy()))
    if isinstance(x, np.ndarray):
        return ("ndarray", x.dtype.str, x.shape, _content_key(x))
    if isinstance(x, (tuple, list)):
        return (type(x).__name__,) + tuple(freeze(e, depth + 1) for e in x)
    if isinstance(x, dict):
        return ("dict",) + tuple(sorted((str(k), freeze(v, depth + 1)) for k, v in x.items()))
    if depth < 4 and hasattr(x, "__dict__") and not callable(x):
        return (type(x).__qualname__,) + freeze(vars(x), depth + 1)
    return ("id", id(x))


def attribute_fingerprint(cell) -> dict:
    """The cell's own graph-relevant attributes (not weights, not sub-cells)."""
    return {k: freeze(v) for k, v in cell.__dict__.items()
            if k not in _SKIP_ATTRS and not isinstance(v, Parameter)}


def lazy_inline(fn=None, *, policy=None):
    """Decorate ``Cell.__init__`` so instances with equal init arguments share one graph."""
    def deco(init):
        @functools.wraps(init)
        def wrapper(self, *args, **kwargs):
            init(self, *args, **kwargs)
            if type(self).__init__ is not wrapper:
                return  # a subclass's decorated __init__ records its own arguments
            d = self.__dict__
            d["cell_init_args"] = f"{type(self).__name__}{_format_args(args, kwargs)}"
            d["_gk_lazy_key"] = (type(self), freeze(args), freeze(kwargs))
            d["_gk_lazy_attrs"] = attribute_fingerprint(self)
        wrapper.__gk_lazy_inline__ = True
        return wrapper
    return deco(fn) if fn is not None else deco


def _format_args(args, kwargs) -> str:
    parts = [repr(a) for a in args] + [f"{k}={v!r}" for k, v in kwargs.items()]
    return "(" + ", ".join(parts) + ")"


def reuse_key(cell):
    """The part of the reuse key that comes from the cell, or None if it is not lazy.

    Warns (once per instance) when attributes changed after ``__init__``; such an instance
    is keyed by its current attributes, so it never shares a graph built for other values.
    """
    base = cell.__dict__.get("_gk_lazy_key")
    if base is None:
        return None
    now = attribute_fingerprint(cell)
    then = cell.__dict__["_gk_lazy_attrs"]
    if now != then and not cell.__dict__.get("_gk_lazy_warned"):
        changed = sorted(k for k in set(now) | set(then) if now.get(k) != then.get(k))
        warnings.warn(f"lazy_inline: attribute(s) {', '.join(changed)} of "
                      f"{type(cell).__name__} changed after __init__; this instance gets "
                      f"its own graph instead of reusing the shared one.", stacklevel=4)
        cell.__dict__["_gk_lazy_warned"] = True
    return (base, tuple(sorted(now.items())))
