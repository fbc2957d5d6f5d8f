"""``vmap(fn, in_axes=0, out_axes=0)``: the front end of the batching transformation.

Inside a graph (``@jit``, a GRAPH_MODE cell, another ``vmap`` or ``grad``) the batched
computation is traced in place; called eagerly it is compiled once per input signature
and run, so PYNATIVE and GRAPH mode share one implementation and neither loops over the
batch in Python.
"""
from __future__ import annotations

import graphkiln.ops.functional as F

from ...common.tensor import Tensor
from ...compile.call_cache import CallCache
from ...compile.compile_cache import function_identity
from ...ir import tracing_state as state
from ...transforms.vectorize import VmapError, vmap_in_graph


class _Vectorized:
    """``fn`` mapped over a batch axis of its inputs."""

    def __init__(self, fn, in_axes, out_axes):
        self.fn = fn
        self.in_axes = in_axes
        self.out_axes = out_axes
        self.cache = CallCache()
        self.__name__ = f"vmap_{getattr(fn, '__name__', type(fn).__name__)}"
        self.__doc__ = getattr(fn, "__doc__", None)

    def __call__(self, *args, **kwargs):
        if state.current() is not None:
            return vmap_in_graph(self.fn, args, kwargs, self.in_axes, self.out_axes)
        return self.cache.run(self, self._traced, self.__name__, args, kwargs)

    def _traced(self, *args, **kwargs):
        return vmap_in_graph(self.fn, args, kwargs, self.in_axes, self.out_axes)

    def __gk_cache_identity__(self):
        """What the compile cache keys on: the mapped function and the axes."""
        return ("vmap", function_identity(self.fn), repr(self.in_axes), repr(self.out_axes))


class _Ensembled:
    """A ``CellList`` mapped over a batch axis (model ensembling): cell ``k`` runs on example
    ``k`` of every batched input, with its own weights; the results are stacked."""

    def __init__(self, cells: list, in_axes, out_axes):
        self.cells = cells
        self.in_axes = in_axes
        self.out_axes = out_axes

    def _axes(self, args: tuple) -> tuple:
        if isinstance(self.in_axes, (tuple, list)):
            if len(self.in_axes) != len(args):
                raise ValueError(f"For 'vmap', 'in_axes' has {len(self.in_axes)} entries but "
                                 f"the CellList is called with {len(args)} arguments.")
            return tuple(self.in_axes)
        return (self.in_axes,) * len(args)

    def __call__(self, *args):
        n = len(self.cells)
        axes = self._axes(args)
        for a, axis in zip(args, axes):
            if axis is not None and (not isinstance(a, Tensor) or a.shape[axis] != n):
                raise ValueError(f"For 'vmap' over a CellList of {n} cells, each mapped input "
                                 f"must be a Tensor with {n} examples on axis {axis}, but got "
                                 f"{getattr(a, 'shape', type(a).__name__)}.")
        outs = [cell(*[a if axis is None else a[(slice(None),) * (axis % a.ndim) + (k,)]
                       for a, axis in zip(args, axes)])
                for k, cell in enumerate(self.cells)]
        if isinstance(outs[0], tuple):
            out_axes = self.out_axes if isinstance(self.out_axes, (tuple, list)) \
                else (self.out_axes,) * len(outs[0])
            return tuple(F.stack([o[i] for o in outs], ax) for i, ax in enumerate(out_axes))
        return F.stack(outs, self.out_axes)


def vmap(fn, in_axes=0, out_axes=0):
    """``fn`` vectorised over axis ``in_axes`` of its inputs (an int, None, or a tuple with
    one entry per argument, nested for tuple arguments); results are stacked along
    ``out_axes`` (an int, or a tuple with one entry per result). A ``CellList`` maps its
    cells over the batch, one example each (model ensembling)."""
    if getattr(fn, "__gk_cell_ensemble__", False):
        if not len(fn):
            raise ValueError("For 'vmap', the CellList must not be empty.")
        return _Ensembled(list(fn), in_axes, out_axes)
    if not callable(fn):
        raise TypeError(f"For 'vmap', 'fn' must be a function or a Cell, but got "
                        f"{type(fn).__name__}.")
    return _Vectorized(fn, in_axes, out_axes)


__all__ = ["vmap", "VmapError"]
