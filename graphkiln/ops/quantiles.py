"""Order statistics and sample statistics: ``ops.quantile``/``ops.nanquantile`` (linear
interpolation between the sorted elements), ``kthvalue`` (``mint.kthvalue``), ``ops.cov``
(with frequency and reliability weights, as NumPy's) and ``ops.trapz`` (the trapezoidal
rule), composites with MindSpore 2.10's arguments."""
from __future__ import annotations

import graphkiln.ops.functional as F

from ..common import dtype as mstype
from ..common.tensor import Tensor
from .defs._infer import norm_axis

__all__ = ["quantile", "nanquantile", "cov", "trapz"]


def _quantile(name: str, input, q, axis, keepdims: bool, skip_nan: bool) -> Tensor:
    if not isinstance(input, Tensor):
        raise TypeError(f"For '{name}', the input must be a Tensor, but got "
                        f"{type(input).__name__}.")
    if input.dtype not in (mstype.float32, mstype.float64):
        raise TypeError(f"For '{name}', the dtype of input must be float32 or float64, but got "
                        f"{input.dtype}.")
    if axis is not None and (isinstance(axis, bool) or not isinstance(axis, int)):
        raise TypeError(f"For '{name}', the 'axis' must be int, but got {type(axis).__name__}.")
    scalar_q = not isinstance(q, Tensor)
    qt = F.cast(Tensor(q, input.dtype) if scalar_q else q, input.dtype)
    if qt.ndim > 1:
        raise ValueError(f"For '{name}', the input q must be a scalar or 1D tensor, but got "
                         f"{qt.ndim}D.")
    if not qt.is_symbolic:
        values = qt.asnumpy()
        if ((values < 0) | (values > 1)).any():
            raise ValueError(f"For '{name}', the values of q must be in [0, 1].")
    x = F.reshape(input, (-1,)) if axis is None else input
    a = x.ndim - 1 if axis is None else norm_axis(name, axis, x.ndim)
    x = F.transpose(x, tuple(i for i in range(x.ndim) if i != a) + (a,)) if x.ndim else x
    ordered = F.sort(x, -1)[0]  # NaN last
    nan = F.isnan(x)
    n = x.shape[-1]
    if skip_nan:
        count = F.reduce_sum(F.cast(F.logical_not(nan), input.dtype), -1, True)
    else:
        count = F.fill(input.dtype, tuple(x.shape[:-1]) + (1,), n)
    qs = F.reshape(qt, (-1,))
    pos = F.mul(F.sub(count, 1), qs)  # (..., len(q))
    pos = F.maximum(pos, 0)
    lo = F.floor(pos)
    frac = F.sub(pos, lo)
    lo_i = F.cast(lo, mstype.int64)
    last = F.cast(F.maximum(F.sub(count, 1), 0), mstype.int64)
    hi_i = F.minimum(F.add(lo_i, 1), last)
    below = F.gather_elements(ordered, -1, F.minimum(lo_i, n - 1))
    above = F.gather_elements(ordered, -1, hi_i)
    out = F.add(below, F.mul(F.sub(above, below), frac))
    bad = F.reduce_any(nan, -1, True) if not skip_nan else F.equal(count, 0)
    out = F.select(F.broadcast_to(bad, out.shape), F.fill(input.dtype, out.shape, float("nan")),
                   out)  # (..., len(q))
    out = F.transpose(out, (out.ndim - 1,) + tuple(range(out.ndim - 1)))
    if keepdims:
        kept = (1,) * input.ndim if axis is None else tuple(
            1 if i == a else d for i, d in enumerate(input.shape))
        out = F.reshape(out, (out.shape[0],) + kept)
    return out[0] if scalar_q or qt.ndim == 0 else out


def quantile(input, q, axis=None, keepdims: bool = False) -> Tensor:  # noqa: A002
    """The ``q``-th quantiles of ``input`` along ``axis`` (of all elements when None), NaN
    where a slice holds a NaN; a 1-D ``q`` adds a leading axis."""
    return _quantile("quantile", input, q, axis, keepdims, False)


def nanquantile(input, q, axis=None, keepdims: bool = False) -> Tensor:  # noqa: A002
    """:func:`quantile` leaving out NaNs (NaN for a slice of NaNs only)."""
    return _quantile("nanquantile", input, q, axis, keepdims, True)


def cov(input, *, correction: int = 1, fweights=None, aweights=None) -> Tensor:  # noqa: A002
    """The covariance matrix of the variables in the rows of ``input`` (a 1-D ``input``:
    the variance), observations in columns weighted by ``fweights``/``aweights``."""
    if not isinstance(input, Tensor):
        raise TypeError(f"For 'cov', 'input' must be a Tensor, but got {type(input)}.")
    if input.ndim > 2:
        raise ValueError(f"For 'cov', 'input' must be 1D or 2D, but got {input.ndim}D.")
    x = F.reshape(input, (1, -1)) if input.ndim < 2 else input
    x = x if x.dtype.is_float else F.cast(x, mstype.float32)
    n = x.shape[1]
    w = None
    for name, weight in (("fweights", fweights), ("aweights", aweights)):
        if weight is None:
            continue
        if not isinstance(weight, Tensor) or weight.ndim > 1 or (
                weight.ndim == 1 and weight.shape[0] != n):
            raise ValueError(f"For 'cov', '{name}' must be a 1D Tensor of {n} weights.")
        weight = F.cast(weight, x.dtype)
        w = weight if w is None else F.mul(w, weight)
    if w is None:
        mean = F.reduce_mean(x, 1, True)
        fact = F.fill(x.dtype, (), n - correction)
    else:
        total = F.reduce_sum(w)
        mean = F.div(F.reduce_sum(F.mul(x, w), 1, True), total)
        fact = F.sub(total, correction) if aweights is None else F.sub(
            total, F.div(F.mul(correction, F.reduce_sum(F.mul(w, F.cast(aweights, x.dtype)))),
                         total))
    xm = F.sub(x, mean)
    weighted = xm if w is None else F.mul(xm, w)
    out = F.div(F.matmul(weighted, F.transpose(xm, (1, 0))), F.maximum(fact, 0))
    return F.reshape(out, ()) if input.ndim < 2 else out


def trapz(y, x=None, *, dx: float = 1.0, dim: int = -1) -> Tensor:
    """The integral of ``y`` along ``dim`` by the trapezoidal rule, with sample points ``x``
    (1-D along ``dim``, or ``y``'s shape) or spacing ``dx``."""
    if not isinstance(y, Tensor):
        raise TypeError(f"For `trapz`, the input `y` must be Tensor, but get {type(y)}.")
    if not isinstance(dx, float):
        raise TypeError(f"For `trapz`, the input `dx` must be float, but get f{type(dx)}.")
    if isinstance(dim, bool) or not isinstance(dim, int):
        raise TypeError(f"For `trapz`, the input `dim` must be int, but get {type(dim)}.")
    y = y if y.dtype.is_float else F.cast(y, mstype.float32)
    d = norm_axis("trapz", dim, y.ndim, "dim")
    n = y.shape[d]
    head = F.narrow(y, d, 0, n - 1)
    tail = F.narrow(y, d, 1, n - 1)
    mid = F.mul(F.add(head, tail), 0.5)
    if x is None:
        return F.mul(F.reduce_sum(mid, d), dx)
    if not isinstance(x, Tensor):
        raise TypeError(f"For `trapz`, the input `x` must be Tensor, but get {type(x)}.")
    x = F.cast(x, mstype.float32)
    xd = d if x.ndim == y.ndim else x.ndim - 1
    gaps = F.sub(F.narrow(x, xd, 1, n - 1), F.narrow(x, xd, 0, n - 1))
    if x.ndim == 1:
        gaps = F.reshape(gaps, tuple(n - 1 if i == d else 1 for i in range(y.ndim)))
    return F.reduce_sum(F.mul(mid, gaps), d)


def kthvalue(input, k: int, dim: int = -1, keepdim: bool = False) -> tuple:  # noqa: A002
    """The ``k``-th smallest element along ``dim`` and its (int64) index."""
    if not 1 <= k <= (input.shape[dim] if input.ndim else 1):
        raise ValueError(f"For 'kthvalue', 'k' must be in [1, {input.shape[dim]}], but got "
                         f"{k}.")
    values, indices = F.sort(input, dim)
    pick = Tensor([k - 1], mstype.int64)
    value = F.gather(values, pick, dim % max(input.ndim, 1))
    index = F.cast(F.gather(indices, pick, dim % max(input.ndim, 1)), mstype.int64)
    if not keepdim:
        value, index = F.squeeze(value, dim), F.squeeze(index, dim)
    return value, index
