"""Tensor methods of the functional APIs that ``test_api_*`` check (``x.cumprod``,
``x.logit``, ``x.addcdiv``, ``x.rot90``, ``x.top_k``, ``x.expand``, ``x.clone``...): each
calls the ``ops`` function of the same name with ``self`` first."""
from __future__ import annotations

import graphkiln.ops.array_ops as A
import graphkiln.ops.cumulative as C
import graphkiln.ops.elementwise as E
import graphkiln.ops.elementwise_ops as EO
import graphkiln.ops.functional as F
import graphkiln.ops.products as P
import graphkiln.ops.quantiles as Q
import graphkiln.ops.searching as SE
import graphkiln.ops.stacking as S

from ..common import dtype as mstype
from ..common.tensor import Tensor


def expand(self, *size) -> Tensor:
    """``self`` broadcast to ``size`` (ints or one tuple; -1 keeps a dimension)."""
    if len(size) == 1 and isinstance(size[0], (tuple, list)):
        size = tuple(size[0])
    if len(size) == 1 and isinstance(size[0], Tensor):
        return A.expand(self, size[0])
    lead = len(size) - self.ndim
    shape = tuple(self.shape[i - lead] if d == -1 and i >= lead else d
                  for i, d in enumerate(size))
    return F.broadcast_to(self, shape)


def clone(self) -> Tensor:
    """A copy of ``self``."""
    return F.tensor_move(self)


def new_empty(self, size, dtype=None) -> Tensor:
    """A Tensor of ``size`` (zeros: graphkiln has no uninitialised memory), of ``self``'s
    dtype unless ``dtype`` is given."""
    shape = (size,) if isinstance(size, int) else tuple(size)
    return F.zeros(shape, self.dtype if dtype is None else mstype.to_type(dtype))


def addcdiv(self, tensor1, tensor2, *, value=1) -> Tensor:
    return E.addcdiv(self, tensor1, tensor2, value)


def addcmul(self, tensor1, tensor2, *, value=1) -> Tensor:
    return E.addcmul(self, tensor1, tensor2, value)


def searchsorted(self, v, side="left", sorter=None) -> Tensor:
    """Where ``v``'s elements go in ``self`` (sorted) to keep it sorted, as int32."""
    return SE.searchsorted(self, v, out_int32=True, side=side, sorter=sorter)


def install() -> None:
    """Attach the methods to :class:`Tensor`."""
    for fn in (expand, clone, new_empty, addcdiv, addcmul, searchsorted):
        setattr(Tensor, fn.__name__, fn)
    for fn in (C.cumprod, C.logcumsumexp, E.logit, E.gcd, E.lcm, P.cross, S.rot90, A.top_k,
               A.diag, EO.erfinv, Q.quantile, Q.nanquantile, SE.bincount,
               SE.unique_consecutive, E.nextafter, E.mvlgamma):
        setattr(Tensor, fn.__name__, fn)
    Tensor.unique = SE.unique_ext


install()
