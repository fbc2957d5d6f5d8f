"""Tensor methods that MindSpore's tests/st/tensor use beyond ``tensor_methods_ext``:
``x.gather`` with both of MindSpore's overloads (``gather(dim, index)``, PyTorch's, and
``gather(input_indices, axis, batch_dims=0)``), ``x.histc``, ``x.nanmedian``, ``x.unfold``,
``x.multinomial``, ``x.log_normal``, ``x.cauchy``, ``x.fill_diagonal``, ``x.ptp``,
``x.index_add``, ``x.inplace_update``, ``x.i0()`` and ``x.real()``."""
from __future__ import annotations

import graphkiln.ops.array_ops as A
import graphkiln.ops.composed_api_primitives as CAP
import graphkiln.ops.composed_inner_primitives as CIP
import graphkiln.ops.composed_primitives as CP
import graphkiln.ops.elementwise as E
import graphkiln.ops.functional as F
import graphkiln.ops.histogram as histogram
import graphkiln.ops.row_updates as row_updates
import graphkiln.ops.sampling as sampling
import graphkiln.ops.unfold as unfold

from ..common.tensor import Tensor

_MISSING = object()


def gather(self, *args, dim=_MISSING, index=_MISSING, input_indices=_MISSING, axis=_MISSING,
           batch_dims=0):
    """``gather(dim, index)`` picks elements along ``dim`` (``GatherD``); otherwise
    ``gather(input_indices, axis, batch_dims=0)`` takes slices (``Gather``)."""
    if dim is not _MISSING or index is not _MISSING or (
            len(args) == 2 and isinstance(args[0], int) and isinstance(args[1], Tensor)
            and axis is _MISSING):
        pos = list(args) + [None] * (2 - len(args))
        d = dim if dim is not _MISSING else pos[0]
        i = index if index is not _MISSING else pos[1 if dim is _MISSING else 0]
        return F.gather_elements(self, d, i)
    pos = list(args)
    if input_indices is not _MISSING:
        pos.insert(0, input_indices)
    if axis is not _MISSING:
        pos.insert(1, axis)
    return F.gather(self, *pos, batch_dims=batch_dims)


def histc(self, bins=100, min=0., max=0.):  # noqa: A002
    return histogram.histc(self, bins, min, max)


def nanmedian(self, axis=-1, keepdims=False, *, dim=_MISSING, keepdim=_MISSING):
    return A.nanmedian(self, axis if dim is _MISSING else dim,
                       keepdims if keepdim is _MISSING else keepdim)


def unfold_(self, kernel_size, dilation=1, padding=0, stride=1):
    return unfold.unfold(self, kernel_size, dilation, padding, stride)


def ptp(self, axis=None, keepdims=False):
    """The range (max - min) along ``axis`` (of all elements by default)."""
    return F.sub(F.amax(self, axis, keepdims), F.amin(self, axis, keepdims))


def index_add(self, dim, index, source, *, alpha=1):
    """A new Tensor with ``alpha * source`` added at ``index`` along ``dim``."""
    scaled = source if alpha == 1 else F.mul(source, alpha)
    return CP.index_added(self, index, scaled, dim % max(self.ndim, 1))


def inplace_update(self, v, indices):
    """A copy with rows ``indices`` replaced by the rows of ``v`` (``ops.inplace_update``)."""
    return row_updates.inplace_update(self, v, indices)


def multinomial(self, num_samples, replacement=True, seed=None):
    return sampling.multinomial(self, num_samples, replacement, seed)


def log_normal(self, mean=1.0, std=2.0):
    return sampling.log_normal(self, mean, std)


def cauchy(self, median=0.0, sigma=1.0):
    """Cauchy draws (``ops.Cauchy``) of this Tensor's shape, cast to its dtype."""
    return F.cast(CIP.Cauchy(list(self.shape), median, sigma)(), self.dtype)


def fill_diagonal(self, fill_value, wrap=False):
    """A copy with the main diagonal set to ``fill_value`` (``ops.FillDiagonal``)."""
    return CAP.FillDiagonal(fill_value, wrap)(self)


def install() -> None:
    """Attach the methods to :class:`Tensor`."""
    for fn in (gather, histc, nanmedian, multinomial, log_normal, cauchy, fill_diagonal, ptp,
               index_add, inplace_update):
        setattr(Tensor, fn.__name__, fn)
    Tensor.unfold = unfold_
    Tensor.i0 = lambda self: E.i0(self)
    if not isinstance(getattr(Tensor, "real", None), property):
        Tensor.real = lambda self: F.real(self)


install()
