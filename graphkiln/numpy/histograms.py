"""Binning and counting in ``mindspore.numpy``: searchsorted, digitize, bincount, histogram,
histogramdd, histogram2d. Bin counts are static; each element's bin is found with ops and the
counts are sums of one-hot comparisons, so they work eagerly and inside graphs."""
from __future__ import annotations

import builtins

import numpy as onp

import graphkiln.ops as ops

from ..common import dtype as mstype
from ..common.tensor import Tensor
from ._base import as_float, int_const, to_tensor


def searchsorted(a, v, side="left", sorter=None) -> Tensor:
    """Indices where ``v``'s elements would be inserted into the sorted 1-D ``a``."""
    if side not in ("left", "right"):
        raise ValueError(f"side must be 'left' or 'right', but got {side!r}.")
    a = to_tensor(a)
    if a.ndim != 1:
        raise ValueError("`a` should be 1-D array")
    v = to_tensor(v)
    if sorter is not None:
        a = ops.gather(a, to_tensor(sorter, mstype.int32), 0)
    scalar = v.ndim == 0
    v = ops.reshape(v, (1,)) if scalar else v
    out = ops.searchsorted(a, ops.cast(v, a.dtype), out_int32=True, right=side == "right")
    return ops.reshape(out, ()) if scalar else out


def digitize(x, bins, right=False) -> Tensor:
    """The index of the bin each element of ``x`` falls in (``bins`` increasing or
    decreasing, checked when it runs)."""
    x = to_tensor(x)
    bins = to_tensor(bins)
    n = bins.shape[0]
    increasing = searchsorted(bins, x, "left" if right else "right")
    if n < 2:
        return increasing
    decreasing = n - searchsorted(ops.reverse(bins, (0,)), x, "left" if right else "right")
    is_decreasing = ops.gather(bins, int_const(0), 0) > ops.gather(bins, int_const(n - 1), 0)
    return ops.select(ops.broadcast_to(is_decreasing, tuple(increasing.shape)), decreasing,
                      increasing)


def bincount(x, weights=None, minlength=0, length=None) -> Tensor:
    """How many times each integer occurs in the 1-D ``x`` (negatives count as 0; weighted
    by ``weights``), as Float32 like MindSpore's; ``length`` fixes the output size, which a
    graph input needs."""
    x = to_tensor(x)
    if x.ndim != 1:
        raise ValueError("`x` should be one-dimensional")
    if x.dtype.np_dtype.kind not in "iu":
        raise TypeError("`x` should be an array of ints")
    x = ops.maximum(x, ops.zeros_like(x))
    if length is None:
        if x.is_symbolic:
            raise ValueError("argument `length` must be provided in graph mode")
        values = x.asnumpy()
        length = builtins.max(builtins.int(values.max()) if values.size else 0,
                              minlength - 1) + 1
    hits = ops.cast(ops.equal(ops.reshape(x, (-1, 1)),
                              int_const(onp.arange(length)[None, :], x.dtype)), mstype.float32)
    if weights is not None:
        w = to_tensor(weights)
        if tuple(w.shape) != tuple(x.shape):
            raise ValueError("`x` and `weights` must have the same length")
        hits = hits * ops.reshape(ops.cast(w, mstype.float32), (-1, 1))
    return ops.reduce_sum(hits, (0,))


def _edges(a: Tensor, bins, range_) -> Tensor:
    if not isinstance(bins, (builtins.int, onp.integer)):
        return as_float(to_tensor(bins))
    if range_ is None:
        lo, hi = ops.reduce_min(a), ops.reduce_max(a)
    else:
        if range_[0] > range_[1]:
            raise ValueError("max must be larger than min in range parameter.")
        lo, hi = (Tensor(onp.float32(v)) for v in range_)
    same = hi == lo
    lo = ops.select(same, lo - 0.5, lo)
    hi = ops.select(same, hi + 0.5, hi)
    frac = Tensor(onp.linspace(0, 1, builtins.int(bins) + 1).astype(onp.float32))
    return lo + frac * (hi - lo)


def _bin_index(a: Tensor, edges: Tensor) -> tuple:
    """Each element's bin (``n_edges - 1`` bins, the last one closed) and whether it lies
    inside the edges."""
    n = edges.shape[0]
    idx = ops.cast(ops.searchsorted(edges, a, out_int32=True, right=True), mstype.int32) - 1
    last = ops.gather(edges, int_const(n - 1), 0)
    first = ops.gather(edges, int_const(0), 0)
    idx = ops.select(a == last, ops.fill(mstype.int32, tuple(a.shape), n - 2), idx)
    inside = ops.logical_and(a >= first, a <= last)
    return idx, inside


def histogramdd(sample, bins=10, range=None, weights=None, density=False):  # noqa: A002
    """Counts of ``sample`` (N points of D coordinates) in a D-dimensional grid of bins,
    and the edges along each coordinate."""
    sample = as_float(to_tensor(sample))
    if sample.ndim == 1:
        sample = ops.reshape(sample, (-1, 1))
    d = sample.shape[1]
    bins = [bins] * d if isinstance(bins, (builtins.int, onp.integer)) else list(bins)
    ranges = [None] * d if range is None else list(range)
    edges, flat = [], None
    inside = None
    sizes = []
    for i in builtins.range(d):
        col = ops.gather(sample, int_const(i), 1)
        e = _edges(col, bins[i], ranges[i])
        idx, ok = _bin_index(col, e)
        edges.append(e)
        sizes.append(e.shape[0] - 1)
        flat = idx if flat is None else flat * sizes[-1] + idx
        inside = ok if inside is None else ops.logical_and(inside, ok)
    total = builtins.int(onp.prod(sizes))
    hits = ops.logical_and(ops.equal(ops.reshape(flat, (-1, 1)),
                                     int_const(onp.arange(total)[None, :])),
                           ops.reshape(inside, (-1, 1)))
    w = ops.ones((sample.shape[0],), mstype.float32) if weights is None else \
        as_float(to_tensor(weights))
    hist = ops.reduce_sum(ops.cast(hits, w.dtype) * ops.reshape(w, (-1, 1)), (0,))
    hist = ops.reshape(hist, tuple(sizes))
    if density:
        widths = None
        for i, e in enumerate(edges):
            de = e[1:] - e[:-1]
            view = [1] * d
            view[i] = sizes[i]
            de = ops.reshape(de, tuple(view))
            widths = de if widths is None else widths * de
        hist = hist / widths / ops.reduce_sum(hist)
    return hist, edges


def histogram(a, bins=10, range=None, weights=None, density=False):  # noqa: A002
    """Counts (Float32, as MindSpore's) of ``a``'s values in ``bins`` bins (or between the
    given edges, returned as given) and the edges; ``density`` normalises to a probability
    density."""
    a = ops.reshape(as_float(to_tensor(a)), (-1,))
    w = None if weights is None else ops.reshape(as_float(to_tensor(weights)), (-1,))
    hist, edges = histogramdd(a, [bins], None if range is None else [range], w, density)
    if not isinstance(bins, (builtins.int, onp.integer)):
        return hist, to_tensor(bins)
    return hist, edges[0]


def histogram2d(x, y, bins=10, range=None, weights=None, density=False):  # noqa: A002
    """Counts of the points ``(x, y)`` in a 2-D grid of bins, and the x and y edges."""
    x = ops.reshape(as_float(to_tensor(x)), (-1,))
    y = ops.reshape(as_float(to_tensor(y)), (-1,))
    if isinstance(bins, (list, tuple)) and len(bins) != 2:
        bins = [bins, bins]
    hist, edges = histogramdd(ops.stack((x, y), 1), bins, range, weights, density)
    return hist, edges[0], edges[1]
