"""``SparseSegmentSqrtN(x, indices, segment_ids)``, as MindSpore's: row ``s`` of the result
is the sum of the rows ``x[indices[i]]`` with ``segment_ids[i] == s`` divided by the square
root of their count; ``segment_ids`` must start at 0 and go up by 0 or 1 (sorted, no
empty segment), so the result has ``segment_ids[-1] + 1`` rows (a number known when the
graph is built only for constant ids). ``SparseSegmentSqrtNGrad(dout, indices,
segment_ids, output_dim0)`` is its gradient in ``x`` (``output_dim0`` rows).
``SparseSegmentSqrtNWithNumSegments(x, indices, segment_ids, num_segments)`` has
``num_segments`` rows: the ids need only be sorted and below it (gaps are zero rows).

``SparseSegmentMean``, ``SparseSegmentMeanGrad`` and ``SparseSegmentMeanWithNumSegments``
divide by the count instead; ``SparseSegmentMean``'s ids need only be sorted (its kernel
reports bad ids as RuntimeError; gaps and ids before the first are zero rows)."""
from __future__ import annotations

import functools

import numpy as np

from ...common import dtype as mstype
from ...ir.abstract import UNKNOWN, AbstractScalar, AbstractTensor
from ...ir.primitive import OpDef
from ._infer import UNKNOWN_DIM, dims_match, require_dtype, tensor_type

_NAME = "SparseSegmentSqrtN"
_MEAN = "SparseSegmentMean"
_FLOATS = (mstype.float16, mstype.float32, mstype.float64)
_INDEX = (mstype.int32, mstype.int64)


def _ids(name: str, indices, segment_ids) -> None:
    require_dtype(name, "indices", tensor_type(name, "indices", indices), _INDEX)
    require_dtype(name, "segment_ids", tensor_type(name, "segment_ids", segment_ids), _INDEX)
    if len(indices.shape) != 1 or len(segment_ids.shape) != 1 or \
            not dims_match(indices.shape[0], segment_ids.shape[0]):
        raise ValueError(f"For '{name}', 'indices' and 'segment_ids' must be 1-D of the same "
                         f"length, but got shapes {list(indices.shape)} and "
                         f"{list(segment_ids.shape)}.")


def _infer(x, indices, segment_ids, name=_NAME):
    t = tensor_type(name, "x", x)
    require_dtype(name, "x", t, _FLOATS)
    _ids(name, indices, segment_ids)
    if name == _MEAN and indices.dtype != segment_ids.dtype:
        raise TypeError(f"For primitive[{name}], the input type must be same.")
    if len(x.shape) < 1:
        raise ValueError(f"For '{name}', the 'x' must be at least 1-D, but got a scalar.")
    seg = segment_ids.value
    rows = int(np.asarray(seg)[-1]) + 1 if seg is not None and np.size(seg) else UNKNOWN_DIM
    return AbstractTensor(t, (rows,) + tuple(x.shape[1:]))


def _segments(name: str, rows: int, indices, segment_ids, contiguous: bool = True):
    """The checked ids and each entry's ``1 / sqrt(count of its segment)`` (``1 / count``
    for the Mean ops)."""
    idx, seg = np.asarray(indices).astype(np.int64), np.asarray(segment_ids).astype(np.int64)
    error = RuntimeError if name in (_MEAN, f"{_MEAN}Grad") else ValueError
    if contiguous and seg.size and seg[0] != 0:
        raise error(f"For '{name}', indices in 'segment_ids' should be start from 0.")
    if contiguous and seg.size and np.any((np.diff(seg) < 0) | (np.diff(seg) > 1)):
        raise error(f"For '{name}', segment_ids should be sorted and contiguous.")
    if seg.size and (np.any(np.diff(seg) < 0) or seg[0] < 0):
        raise error(f"For '{name}', the input 'segment_ids' must be sorted.")
    if idx.size and (idx.min() < 0 or idx.max() >= rows):
        raise error(f"For '{name}', indices is out of range of x's first dimension.")
    counts = np.bincount(seg) if seg.size else np.zeros(0, np.int64)
    per_entry = counts[seg].astype(np.float64)
    return idx, seg, 1.0 / (per_entry if name.startswith(_MEAN) else np.sqrt(per_entry))


def _sqrt_n(x, indices, segment_ids, name=_NAME):
    x = np.asarray(x)
    idx, seg, scale = _segments(name, x.shape[0], indices, segment_ids, name == _NAME)
    wide = x.astype(np.float32) if x.dtype == np.float16 else x
    out = np.zeros((int(seg[-1]) + 1 if seg.size else 0,) + x.shape[1:], wide.dtype)
    np.add.at(out, seg, wide[idx] * scale.reshape((-1,) + (1,) * (x.ndim - 1)).astype(wide.dtype))
    return out.astype(x.dtype)


SparseSegmentSqrtN = OpDef(_NAME, _infer, _sqrt_n)
SparseSegmentMean = OpDef(_MEAN, functools.partial(_infer, name=_MEAN),
                          functools.partial(_sqrt_n, name=_MEAN))

_NUM = f"{_NAME}WithNumSegments"


def _num_infer(x, indices, segment_ids, num_segments, name=_NUM):
    t = tensor_type(name, "x", x)
    require_dtype(name, "x", t, _FLOATS)
    _ids(name, indices, segment_ids)
    tn = tensor_type(name, "num_segments", num_segments)
    if not tn == indices.dtype == segment_ids.dtype:
        raise TypeError(f"For '{name}', 'indices', 'segment_ids' and 'num_segments' must have "
                        f"one dtype, but got {indices.dtype}, {segment_ids.dtype} and {tn}.")
    if len(x.shape) < 1 or len(num_segments.shape) > 1:
        raise ValueError(f"For '{name}', the 'x' must be at least 1-D and 'num_segments' a "
                         f"scalar or 1-D, but got shapes {list(x.shape)} and "
                         f"{list(num_segments.shape)}.")
    n = num_segments.value
    rows = int(np.asarray(n).reshape(-1)[0]) if n is not None else UNKNOWN_DIM
    return AbstractTensor(t, (rows,) + tuple(x.shape[1:]))


def _sqrt_n_num(x, indices, segment_ids, num_segments, name=_NUM):
    x = np.asarray(x)
    n = int(np.asarray(num_segments).reshape(-1)[0])
    idx, seg, scale = _segments(name, x.shape[0], indices, segment_ids, contiguous=False)
    if seg.size and seg[-1] >= n:
        raise ValueError(f"For '{name}', num_segments must be bigger than the largest id of "
                         f"segment_ids.")
    wide = x.astype(np.float32) if x.dtype == np.float16 else x
    out = np.zeros((n,) + x.shape[1:], wide.dtype)
    np.add.at(out, seg, wide[idx] * scale.reshape((-1,) + (1,) * (x.ndim - 1)).astype(wide.dtype))
    return out.astype(x.dtype)


# (x, indices, segment_ids, num_segments) -> num_segments rows (see the module docstring)
SparseSegmentSqrtNWithNumSegments = OpDef(_NUM, _num_infer, _sqrt_n_num)
SparseSegmentMeanWithNumSegments = OpDef(
    f"{_MEAN}WithNumSegments", functools.partial(_num_infer, name=f"{_MEAN}WithNumSegments"),
    functools.partial(_sqrt_n_num, name=f"{_MEAN}WithNumSegments"))


def _grad_infer(dout, indices, segment_ids, output_dim0, name=f"{_NAME}Grad"):
    t = tensor_type(name, "x", dout)
    require_dtype(name, "x", t, _FLOATS)
    _ids(name, indices, segment_ids)
    dim = output_dim0.value if isinstance(output_dim0, AbstractScalar) else (
        None if output_dim0.value is None else np.asarray(output_dim0.value).reshape(-1)[0])
    rows = UNKNOWN_DIM if dim is None or dim is UNKNOWN else int(dim)
    return AbstractTensor(t, (rows,) + tuple(dout.shape[1:]))


def _sqrt_n_grad(dout, indices, segment_ids, output_dim0, name=f"{_NAME}Grad"):
    dout = np.asarray(dout)
    rows = int(np.asarray(output_dim0).reshape(-1)[0])
    idx, seg, scale = _segments(name, rows, indices, segment_ids, name == f"{_NAME}Grad")
    out = np.zeros((rows,) + dout.shape[1:], np.float64)
    np.add.at(out, idx, dout[seg] * scale.reshape((-1,) + (1,) * (dout.ndim - 1)))
    return out.astype(dout.dtype)


# (dout, indices, segment_ids, output_dim0) -> d x
SparseSegmentSqrtNGrad = OpDef(f"{_NAME}Grad", _grad_infer, _sqrt_n_grad)
SparseSegmentMeanGrad = OpDef(f"{_MEAN}Grad", functools.partial(_grad_infer, name=f"{_MEAN}Grad"),
                              functools.partial(_sqrt_n_grad, name=f"{_MEAN}Grad"))
