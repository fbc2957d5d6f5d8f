"""Segment reductions: ``UnsortedSegment{Sum,Max,Min,Prod}(x, segment_ids, num_segments)``.

Row ``k`` of the result combines every slice ``x[i...]`` whose ``segment_ids[i...] == k``;
``segment_ids`` indexes the leading ``segment_ids.ndim`` axes of ``x``, so the result has the
shape ``(num_segments,) + x.shape[segment_ids.ndim:]``. As MindSpore's CPU kernels: integers
(unsigned ones of every width too) and floats, complex numbers for Sum and Prod; an empty
segment holds 0 (sum), 1 (prod), the dtype's lowest (max) or highest (min) finite value;
an id outside ``[0, num_segments)`` is a RuntimeError.
"""
from __future__ import annotations

import numpy as np

from ...common import dtype as mstype
from ...ir.abstract import AbstractTensor
from ...ir.primitive import OpDef
from ._infer import (
    COMPLEX,
    INDEX_TYPES,
    NUMBERS,
    const_value,
    quiet,
    require_dtype,
    shapes_match,
    tensor_type,
)

KINDS = ("Sum", "Max", "Min", "Prod")
_REAL = NUMBERS + (mstype.uint16, mstype.uint32, mstype.uint64)
# (MindSpore's CPU Max/Min kernels accept complex inputs but log an error and return zeros)
_TYPES = {"Sum": _REAL + COMPLEX, "Max": _REAL, "Min": _REAL, "Prod": _REAL + COMPLEX}


def segment_count(name: str, num_segments) -> int:
    """``num_segments`` (an int, or a 0-d int Tensor; for UnsortedSegmentSum, as MindSpore,
    any one-element int Tensor) checked to be positive; -1 for a Tensor known only when the
    graph runs."""
    if isinstance(num_segments, AbstractTensor) and num_segments.value is None:
        # known when the graph runs: its dtype and size checked, the count unknown till then
        v = np.zeros(tuple(1 if d < 0 else d for d in num_segments.shape),
                     mstype.dtype_to_nptype(num_segments.dtype))
    else:
        v = np.asarray(num_segments if isinstance(num_segments, (int, np.integer)) else
                       const_value(name, "num_segments", num_segments))
    if name == "UnsortedSegmentSum" and v.size == 1:
        v = v.reshape(())
    if v.ndim or v.dtype.kind not in "iu":
        what = "one-element" if name == "UnsortedSegmentSum" else "0-D"
        raise TypeError(f"For '{name}', the 'num_segments' must be an int or a {what} int "
                        f"Tensor, but got {v!r}.")
    if isinstance(num_segments, AbstractTensor) and num_segments.value is None:
        return -1
    if int(v) <= 0:
        raise ValueError(f"For '{name}', the 'num_segments' must be positive, but got "
                         f"{int(v)}.")
    return int(v)


def _infer_for(name: str, kind: str):
    def infer(x, segment_ids, num_segments):
        t = tensor_type(name, "x", x)
        require_dtype(name, "x", t, _TYPES[kind])
        ti = tensor_type(name, "segment_ids", segment_ids)
        require_dtype(name, "segment_ids", ti, INDEX_TYPES)
        ids, shape = tuple(segment_ids.shape), tuple(x.shape)
        if len(ids) > len(shape) or not shapes_match(shape[:len(ids)], ids):
            raise ValueError(f"For '{name}', the shape of 'segment_ids' must be a prefix of "
                             f"the shape of 'x' {list(shape)}, but got {list(ids)}.")
        n = segment_count(name, num_segments)
        return AbstractTensor(t, (n,) + shape[len(ids):])
    return infer


def _fill(kind: str, dtype: np.dtype):
    if kind in ("Sum", "Prod"):
        return 0 if kind == "Sum" else 1
    info = np.finfo(dtype) if dtype.kind == "f" else np.iinfo(dtype)
    return info.min if kind == "Max" else info.max


_COMBINE = {"Sum": np.add, "Max": np.maximum, "Min": np.minimum, "Prod": np.multiply}


def _kernel_for(name: str, kind: str):
    @quiet
    def kernel(x, segment_ids, num_segments):
        n = int(np.asarray(num_segments).reshape(-1)[0])
        if n <= 0:
            raise ValueError(f"For '{name}', the 'num_segments' must be positive, but got {n}.")
        ids = np.asarray(segment_ids).reshape(-1)
        if ids.size and (ids.min() < 0 or ids.max() >= n):
            raise RuntimeError(f"For '{name}', segment_ids value should be [0, {n}), but got "
                               f"{int(ids[(ids < 0) | (ids >= n)][0])}.")
        rows = x.reshape((ids.size,) + x.shape[np.ndim(segment_ids):])
        out = np.full((n,) + rows.shape[1:], _fill(kind, x.dtype), x.dtype)
        _COMBINE[kind].at(out, ids, rows)
        return out
    kernel.__name__ = f"{name}_kernel"
    return kernel


SEGMENT_OPS = {f"UnsortedSegment{k}": OpDef(f"UnsortedSegment{k}",
                                             _infer_for(f"UnsortedSegment{k}", k),
                                             _kernel_for(f"UnsortedSegment{k}", k))
               for k in KINDS}
UnsortedSegmentSum = SEGMENT_OPS["UnsortedSegmentSum"]
UnsortedSegmentMax = SEGMENT_OPS["UnsortedSegmentMax"]
UnsortedSegmentMin = SEGMENT_OPS["UnsortedSegmentMin"]
UnsortedSegmentProd = SEGMENT_OPS["UnsortedSegmentProd"]
