"""``vmap(fn, in_axes=0, out_axes=0)``: the front end of the batching transformation.

Inside a graph (``@jit``, a GRAPH_MODE cell, another ``vmap`` or ``grad``) the batched
computation is traced in place; called eagerly it is compiled once per input signature
and run, so PYNATIVE and GRAPH mode share one implementation and neither loops over the
batch in Python.
"""
from __future__ import annotations

import hashlib
import types
import uuid

from ...compiler.jit import _CallCache
from ...compiler.trace import state
from ...compiler.vmap import VmapError, vmap_in_graph

_SIMPLE = (bool, int, float, str, type(None))


def _simple(v) -> bool:
    if isinstance(v, tuple):
        return all(_simple(e) for e in v)
    return isinstance(v, _SIMPLE)


def _stable_ident(fn) -> str | None:
    """A text naming ``fn`` identically in every process (its code and the constants it
    closes over), or None when there is no such text (objects, closures over tensors)."""
    if isinstance(fn, _Vectorized):
        inner = _stable_ident(fn.fn)
        return None if inner is None else \
            f"vmap({inner}, in_axes={fn.in_axes!r}, out_axes={fn.out_axes!r})"
    if type(fn) is not types.FunctionType:
        return None
    cells = []
    for c in fn.__closure__ or ():
        try:
            v = c.cell_contents
        except ValueError:
            return None
        if not _simple(v):
            return None
        cells.append(v)
    code = fn.__code__
    body = hashlib.sha256(repr((code.co_code, code.co_names, [
        c if _simple(c) else type(c).__name__ for c in code.co_consts])).encode())
    return (f"{code.co_filename}:{code.co_firstlineno}:{code.co_qualname}:"
            f"{body.hexdigest()[:16]}{tuple(cells)!r}")


def _traced_function(vec: _Vectorized):
    """The function the compiler traces for an eager call. The persistent compile cache
    names a compiled function by its code's (file, qualname, line), so each vmap gets its
    own qualname: the user's function and the axes, or a random token when that text would
    not identify the computation (then the disk cache is simply never hit for it)."""
    def traced(*args, **kwargs):
        return vmap_in_graph(vec.fn, args, kwargs, vec.in_axes, vec.out_axes)
    ident = _stable_ident(vec) or f"unshared-{uuid.uuid4().hex}"
    code = traced.__code__.replace(co_qualname=f"vmap[{ident}]")
    return types.FunctionType(code, traced.__globals__, "traced", None, traced.__closure__)


class _Vectorized:
    """``fn`` mapped over a batch axis of its inputs."""

    def __init__(self, fn, in_axes, out_axes):
        self.fn = fn
        self.in_axes = in_axes
        self.out_axes = out_axes
        self.cache = _CallCache()
        self.__name__ = f"vmap_{getattr(fn, '__name__', type(fn).__name__)}"
        self.__doc__ = getattr(fn, "__doc__", None)
        self._traced = None

    def __call__(self, *args, **kwargs):
        if state.current() is not None:
            return vmap_in_graph(self.fn, args, kwargs, self.in_axes, self.out_axes)
        if self._traced is None:
            self._traced = _traced_function(self)
        return self.cache.run(self, self._traced, self.__name__, args, kwargs)


def vmap(fn, in_axes=0, out_axes=0):
    """``fn`` vectorised over axis ``in_axes`` of its inputs (an int, None, or a tuple with
    one entry per argument, nested for tuple arguments); results are stacked along
    ``out_axes`` (an int, or a tuple with one entry per result)."""
    if not callable(fn):
        raise TypeError(f"For 'vmap', 'fn' must be a function or a Cell, but got "
                        f"{type(fn).__name__}.")
    return _Vectorized(fn, in_axes, out_axes)


__all__ = ["vmap", "VmapError"]
