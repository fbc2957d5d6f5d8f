"""Searching and counting: ``ops.searchsorted``, ``ops.bucketize``, ``ops.bincount``,
``ops.aminmax``, ``ops.unique_consecutive`` and ``ops.unique_with_pad``, composites of
comparisons and reductions with MindSpore 2.10's arguments, result dtypes and errors. The
ones whose output size depends on the data (``bincount``, ``unique_consecutive``) need the
data: they run in PyNative."""
from __future__ import annotations

import numpy as np

import graphkiln.ops.functional as F

from ..common import dtype as mstype
from ..common.tensor import Tensor
from .defs.data_dependent import UniqueWithPad

__all__ = ["searchsorted", "bucketize", "bincount", "aminmax", "unique_consecutive",
           "unique_with_pad", "intopk"]


def _count_below(seq: Tensor, values: Tensor, right: bool) -> Tensor:
    """For each value, the number of ``seq`` elements (last axis) before which it goes."""
    if seq.ndim == 1:
        s, v = seq, F.expand_dims(values, -1)
    else:
        s, v = F.expand_dims(seq, -2), F.expand_dims(values, -1)
    below = F.less_equal(s, v) if right else F.less(s, v)
    return F.reduce_sum(F.cast(below, mstype.int32), -1)


def searchsorted(sorted_sequence, values, *, out_int32: bool = False, right: bool = False,
                 side=None, sorter=None) -> Tensor:
    """The index at which each of ``values`` would be inserted into ``sorted_sequence``
    (along its last axis) to keep it sorted: the first such place, or the last when
    ``right`` (``side="right"``)."""
    for name, flag in (("out_int32", out_int32), ("right", right)):
        if not isinstance(flag, bool):
            raise TypeError(f"For 'search_sorted', the '{name}' must be bool, but got "
                            f"{type(flag).__name__}.")
    if side == "right":
        right = True
    elif side == "left" and right:
        raise ValueError("For 'searchsorted', side and right can't be set to opposites, got "
                         "side of left while right was True.")
    elif side not in (None, "left"):
        raise ValueError(f"For 'searchsorted', the argument 'side' should be one of in "
                         f"[None, 'left', 'right'], but got {side}.")
    seq = sorted_sequence
    if seq.ndim > 1 and tuple(seq.shape[:-1]) != tuple(values.shape[:-1]):
        raise ValueError(f"For 'SearchSorted', the leading dimensions of 'sorted_sequence' "
                         f"and 'values' must be equal, but got {seq.shape} and "
                         f"{values.shape}.")
    if sorter is not None:
        seq = F.gather_elements(seq, -1, sorter)
    out = _count_below(seq, F.cast(values, seq.dtype), right)
    return F.cast(out, mstype.int32 if out_int32 else mstype.int64)


_BUCKET_TYPES = (mstype.int32, mstype.int64, mstype.float32, mstype.float64, mstype.int16,
                 mstype.float16)


def bucketize(input, boundaries, *, right: bool = False) -> Tensor:  # noqa: A002
    """The (int32) index of the bucket of each element of ``input``, buckets being bounded
    by the sorted list ``boundaries``."""
    if not isinstance(input, Tensor):
        raise TypeError(f"For 'bucketize', 'input' must be a Tensor, but got "
                        f"{type(input).__name__}.")
    if input.dtype not in _BUCKET_TYPES:
        raise TypeError(f"For 'bucketize', input data type must be in {_BUCKET_TYPES}, but got "
                        f"{input.dtype}.")
    seq_type = mstype.float64 if input.dtype == mstype.float64 else mstype.float32
    bounds = Tensor(np.asarray(boundaries, seq_type.np_dtype).reshape(-1), seq_type)
    return searchsorted(bounds, F.cast(input, seq_type), out_int32=True, right=right)


def bincount(input, weights=None, minlength: int = 0) -> Tensor:  # noqa: A002
    """How often each non-negative int occurs in the 1-D ``input`` (summing ``weights``
    instead of counting, when given): ``max(max(input) + 1, minlength)`` float32 values.
    The length depends on the data, so ``input`` must have its value (PyNative)."""
    if not isinstance(input, Tensor):
        raise TypeError("For math function 'bincount', 'input' must be Tensor.")
    if weights is not None and not isinstance(weights, Tensor):
        raise TypeError(f"For math function 'bincount', 'weights' must be Tensor, but got "
                        f"{type(weights)}.")
    if not isinstance(minlength, int) or isinstance(minlength, bool):
        raise TypeError(f"For math function 'bincount', 'minlength' must be int but got "
                        f"{type(minlength)}.")
    if input.ndim != 1:
        raise ValueError("For math function 'bincount', 'input' should be one-dimensional "
                         "tensor.")
    if minlength < 0:
        raise ValueError(f"For 'bincount', 'minlength' should be >= 0 but got {minlength}.")
    if input.is_symbolic:  # in a graph: as long as the values say when it runs
        length = F.maximum(F.add(F.reduce_max(input), 1), minlength)
        bins = F.cast(F.range(0, length, 1), input.dtype)
    else:
        data = input.asnumpy()
        length = max(int(data.max()) + 1 if data.size else 0, minlength)
        bins = Tensor(np.arange(length).astype(data.dtype))
    hits = F.cast(F.equal(F.expand_dims(input, 0), F.expand_dims(bins, 1)), mstype.float32)
    if weights is not None:
        if tuple(weights.shape) != tuple(input.shape):
            raise ValueError("for bincount `input` and `weights` must have the same length")
        hits = F.mul(hits, F.cast(weights, mstype.float32))
    return F.reduce_sum(hits, 1)


def aminmax(input, *, axis=0, keepdims: bool = False) -> tuple:  # noqa: A002
    """The minimum and the maximum along ``axis`` (of all elements when None); a 0-d input
    gives 0-d results whatever ``keepdims`` says, as MindSpore's ArgMinWithValue does."""
    if input.ndim == 0 and axis is not None:
        if axis not in (0, -1):
            raise ValueError(f"For ArgMinWithValue with 0d input tensor, axis must be one of 0 "
                             f"or -1, but got {axis}.")
        axis, keepdims = None, False
    if axis is None:
        lo, hi = F.reduce_min(input), F.reduce_max(input)
        if keepdims:
            shape = (1,) * input.ndim
            lo, hi = F.reshape(lo, shape), F.reshape(hi, shape)
        return lo, hi
    return F.reduce_min(input, axis, keepdims), F.reduce_max(input, axis, keepdims)


def intopk(x1, x2, k: int) -> Tensor:
    """Whether each row's target ``x2[i]`` scores among the ``k`` largest of ``x1[i]``
    (ties with the ``k``-th count as in)."""
    if not isinstance(x1, Tensor) or x1.ndim != 2 or not isinstance(x2, Tensor) or \
            x2.ndim != 1 or x2.shape[0] != x1.shape[0]:
        raise ValueError("For 'InTopK', 'x1' must be (N, C) and 'x2' (N,).")
    if isinstance(k, bool) or not isinstance(k, int):
        raise TypeError(f"For 'InTopK', 'k' must be an int, but got {type(k).__name__}.")
    target = F.gather_elements(x1, 1, F.expand_dims(F.cast(x2, mstype.int64), 1))
    above = F.reduce_sum(F.cast(F.greater(x1, target), mstype.int32), 1)
    return F.less(above, k)


def _data(name: str, x) -> np.ndarray:
    if not isinstance(x, Tensor):
        raise TypeError(f"For '{name}', the input must be a Tensor, but got "
                        f"{type(x).__name__}.")
    if x.is_symbolic:
        raise ValueError(f"For '{name}', the output size depends on the values of the input, "
                         f"which a graph does not know.")
    return x.asnumpy()


def unique_consecutive(input, return_inverse: bool = False,  # noqa: A002
                       return_counts: bool = False, dim=None):
    """``input`` with each run of equal consecutive elements (slices along ``dim``; of the
    flattened input when None) kept once, with each element's run number (int64) and each
    run's length (int64) when asked."""
    data = _data("unique_consecutive", input)
    if dim is None:
        flat = data.reshape(-1)
        change = np.concatenate([[True], flat[1:] != flat[:-1]]) if flat.size else \
            np.zeros(0, bool)
        runs = np.cumsum(change) - 1
        output, inverse = flat[change], runs.reshape(data.shape)
    else:
        ax = dim % max(data.ndim, 1)
        moved = np.moveaxis(data, ax, 0)
        change = np.concatenate([[True], (moved[1:] != moved[:-1]).reshape(
            len(moved) - 1, -1).any(1)]) if len(moved) else np.zeros(0, bool)
        runs = np.cumsum(change) - 1
        output, inverse = np.moveaxis(moved[change], 0, ax), runs
    counts = np.diff(np.flatnonzero(np.concatenate([change, [True]])))
    out = (Tensor(output, input.dtype),)
    if return_inverse:
        out += (Tensor(inverse.astype(np.int64)),)
    if return_counts:
        out += (Tensor(counts.astype(np.int64)),)
    return out[0] if len(out) == 1 else out


def unique_with_pad(x, pad_num):
    """The distinct elements of the 1-D ``x`` in order of first appearance, padded with
    ``pad_num`` to ``x``'s length, and each element's index among them."""
    return UniqueWithPad(x, pad_num)


def unique_ext(input, sorted=True, return_inverse=False, return_counts=False,  # noqa: A002
               dim=None):
    """The distinct elements of ``input`` (flattened; sorted, or in order of first
    appearance), with the index of each element in them and each one's count when asked
    (the counts only in PyNative: their number is known only when the data is)."""
    if dim is not None:
        raise ValueError("For 'unique', graphkiln supports only dim=None.")
    values, inverse = F.unique(F.reshape(input, (-1,)))  # in order of first appearance
    inverse = F.cast(inverse, mstype.int64)
    if sorted:
        values, order = F.sort(values)
        rank = F.sort(F.cast(order, mstype.float32))[1]  # the inverse permutation
        inverse = F.gather(F.cast(rank, mstype.int64), inverse, 0)
    inverse = F.reshape(inverse, tuple(input.shape))
    out = (values,)
    if return_inverse:
        out += (inverse,)
    if return_counts:
        if values.is_symbolic:
            raise RuntimeError("For 'unique', 'return_counts' needs the data (PyNative).")
        ones = F.ones(tuple(input.shape), mstype.int64)
        out += (F.unsorted_segment_sum(ones, inverse, values.shape[0]),)
    return out[0] if len(out) == 1 else out
