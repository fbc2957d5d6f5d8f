"""Running reductions along an axis: ``CumSum(x, axis)``, ``CumProd(x, axis)`` and
``CumulativeLogsumexp(x, axis)`` (``log(exp(a) + exp(b))`` one step at a time, so it stays
exact for elements far below the running maximum) (``exclusive``: each leaves out its own
element; ``reverse``: from the end), its gradient ``LogWeightedCumSum(v, a, b, axis)``
(``sum_{j <= i} v_j exp(a_j - b_i)``, linear in ``v``), and
``Cummin``/``Cummax(x, axis)``, the running minimum/maximum and the index where it was
reached (the latest one among equals; from the first NaN on, NaN and that NaN's index).
``axis`` is an int or a 0-d int Tensor constant.
"""
from __future__ import annotations

import numpy as np

from ...common import dtype as mstype
from ...ir.abstract import Abstract, AbstractTensor, AbstractTuple
from ...ir.primitive import OpDef
from ._infer import (
    COMPLEX,
    NUMBERS,
    const_value,
    describe,
    merge_dims,
    quiet,
    require_dtype,
    shapes_match,
    tensor_type,
)
from .math import _WIDE_UINTS

_SUM_TYPES = NUMBERS + _WIDE_UINTS + COMPLEX
_MINMAX_TYPES = NUMBERS + _WIDE_UINTS
_LOGSUMEXP_TYPES = (mstype.float16, mstype.float32, mstype.float64)
# MindSpore's index dtypes: int32 for Cummin, int64 for Cummax
_INDEX_TYPE = {"Cummin": mstype.int32, "Cummax": mstype.int64}


def check_axis(name: str, axis, ndim: int) -> int:
    """``axis`` (an int, a constant int Tensor or their abstract values) as a non-negative
    axis of ``ndim``."""
    if isinstance(axis, Abstract):
        axis = const_value(name, "axis", axis)
    elif hasattr(axis, "asnumpy"):
        axis = axis.asnumpy()
    value = np.asarray(axis)
    if value.ndim or value.dtype.kind not in "iu":
        raise TypeError(f"For primitive[{name}], the 'axis' must be an int, but got {value!r}.")
    rank = max(ndim, 1)
    a = int(value)
    if not -rank <= a < rank:
        raise ValueError(f"For primitive[{name}], the axis must be in [{-rank},{rank}), but "
                         f"got {a}.")
    return a % rank


def _infer_axis(name: str, axis, ndim: int) -> None:
    """A constant axis is checked now; a Tensor axis known only at run time, by the kernel."""
    if isinstance(axis, AbstractTensor) and axis.value is None:
        if not axis.dtype.is_int or axis.shape:
            raise TypeError(f"For primitive[{name}], the 'axis' must be an int or a 0-D int "
                            f"Tensor, but got {describe(axis)}.")
        return
    check_axis(name, axis, ndim)


def _running_infer(name: str, allowed=_SUM_TYPES):
    def infer(x, axis, exclusive=False, reverse=False):
        t = tensor_type(name, "x", x)
        require_dtype(name, "x", t, allowed)
        _infer_axis(name, axis, len(x.shape))
        return AbstractTensor(t, tuple(x.shape))
    return infer


def _running_kernel(name: str, accumulate, identity: int):
    """The kernel of a running sum/product: ``accumulate`` (``np.cumsum``...) along the axis,
    shifted by one ``identity`` element when ``exclusive``, from the end when ``reverse``."""
    @quiet
    def kernel(x, axis, exclusive=False, reverse=False):
        x = np.asarray(x)
        if x.ndim == 0:
            return np.full_like(x, identity) if exclusive else x.copy()
        a = check_axis(name, axis, x.ndim)
        v = np.flip(x, a) if reverse else x
        out = accumulate(v, axis=a, dtype=x.dtype)
        if exclusive:
            out = np.concatenate([np.full_like(np.take(out, [0], axis=a), identity),
                                  np.take(out, range(out.shape[a] - 1), axis=a)], axis=a)
        return np.flip(out, a) if reverse else out
    return kernel


def _minmax_infer(name: str):
    def infer(x, axis):
        t = tensor_type(name, "x", x)
        require_dtype(name, "x", t, _MINMAX_TYPES)
        _infer_axis(name, axis, len(x.shape))
        return AbstractTuple([AbstractTensor(t, tuple(x.shape)),
                              AbstractTensor(_INDEX_TYPE[name], tuple(x.shape))])
    return infer


def _minmax_kernel(name: str, better):
    @quiet
    def kernel(x, axis):
        x = np.asarray(x)
        index_type = _INDEX_TYPE[name].np_dtype
        if x.ndim == 0:
            return x.copy(), np.zeros((), index_type)
        a = check_axis(name, axis, x.ndim)
        v = np.moveaxis(x, a, -1)
        values, indices = np.empty_like(v), np.empty(v.shape, index_type)
        cur, at = v[..., 0].copy(), np.zeros(v.shape[:-1], index_type)
        values[..., 0], indices[..., 0] = cur, at
        floating = v.dtype.kind == "f"
        for i in range(1, v.shape[-1]):
            new = v[..., i]
            take = better(new, cur)
            if floating:  # the first NaN wins and stays
                take = (take | np.isnan(new)) & ~np.isnan(cur)
            cur = np.where(take, new, cur)
            at = np.where(take, i, at).astype(index_type)
            values[..., i], indices[..., i] = cur, at
        return np.moveaxis(values, -1, a), np.moveaxis(indices, -1, a)
    return kernel


def _log_weighted_infer(v, a, b, axis, exclusive=False, reverse=False):
    name = "LogWeightedCumSum"
    t = tensor_type(name, "v", v)
    require_dtype(name, "v", t, _LOGSUMEXP_TYPES)
    for arg, x in (("a", a), ("b", b)):
        require_dtype(name, arg, tensor_type(name, arg, x), (t,))
        if not shapes_match(tuple(x.shape), tuple(v.shape)):
            raise ValueError(f"For '{name}', '{arg}' must have the shape of 'v' "
                             f"{list(v.shape)}, but got {list(x.shape)}.")
    _infer_axis(name, axis, len(v.shape))
    shape = tuple(v.shape)
    for x in (a, b):
        shape = tuple(merge_dims(p, q) for p, q in zip(shape, x.shape))
    return AbstractTensor(t, shape)


@quiet
def _log_weighted(v, a, b, axis, exclusive=False, reverse=False):
    """``reverse=False``: ``y_i = sum_{j <= i} v_j exp(a_j - b_i)``; ``reverse=True``:
    ``y_j = sum_{i >= j} v_i exp(a_j - b_i)`` (``<``, ``>`` when ``exclusive``). The
    running sum is kept scaled by the largest ``a`` (the smallest ``b``) summed so far, so
    no term overflows or underflows while ``a_j <= b_i`` for the pairs summed, as when
    ``b`` is the running log-sum-exp of ``a``."""
    v = np.asarray(v)
    out_type, shape = v.dtype, v.shape
    k = check_axis("LogWeightedCumSum", axis, max(v.ndim, 1))
    v, a, b = (np.moveaxis(np.atleast_1d(np.asarray(t, np.float64)), k, -1) for t in (v, a, b))
    y = np.zeros_like(v)
    total = np.zeros(v.shape[:-1])
    ref = np.full(v.shape[:-1], np.inf if reverse else -np.inf)
    for i in (range(v.shape[-1] - 1, -1, -1) if reverse else range(v.shape[-1])):
        if exclusive:
            y[..., i] = _rescaled(total, ref, a[..., i], b[..., i], reverse)
        new = b[..., i] if reverse else a[..., i]
        moved = np.minimum(ref, new) if reverse else np.maximum(ref, new)
        gap = moved - new if reverse else new - moved  # <= 0
        shrink = np.where(ref == moved, 1.0, np.exp(-np.abs(ref - moved)))
        total = (np.where(total == 0, 0.0, total * shrink)
                 + v[..., i] * np.exp(np.where(np.isnan(gap), 0.0, gap)))
        ref = moved
        if not exclusive:
            y[..., i] = _rescaled(total, ref, a[..., i], b[..., i], reverse)
    return np.moveaxis(y, -1, k).reshape(shape).astype(out_type)


def _rescaled(total, ref, a, b, reverse: bool):
    """The running sum (scaled by ``exp(-ref)`` or ``exp(ref)``) at one output."""
    gap = a - ref if reverse else ref - b  # <= 0 for the pairs summed
    return np.where(total == 0, 0.0, total * np.exp(np.where(np.isnan(gap), 0.0, gap)))


LogWeightedCumSum = OpDef("LogWeightedCumSum", _log_weighted_infer, _log_weighted,
                          attrs={"exclusive": False, "reverse": False})
CumSum = OpDef("CumSum", _running_infer("CumSum"), _running_kernel("CumSum", np.cumsum, 0),
               attrs={"exclusive": False, "reverse": False})
CumProd = OpDef("CumProd", _running_infer("CumProd"), _running_kernel("CumProd", np.cumprod, 1),
                attrs={"exclusive": False, "reverse": False})
CumulativeLogsumexp = OpDef(
    "CumulativeLogsumexp", _running_infer("CumulativeLogsumexp", _LOGSUMEXP_TYPES),
    _running_kernel("CumulativeLogsumexp", np.logaddexp.accumulate, -np.inf),
    attrs={"exclusive": False, "reverse": False})
Cummin = OpDef("Cummin", _minmax_infer("Cummin"), _minmax_kernel("Cummin", np.less_equal))
Cummax = OpDef("Cummax", _minmax_infer("Cummax"), _minmax_kernel("Cummax", np.greater_equal))
