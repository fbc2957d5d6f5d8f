"""``ops.inplace_add``, ``ops.inplace_sub`` and ``ops.inplace_update``: a copy of ``x`` with
rows ``indices`` (along axis 0) plus, minus or replaced by the rows of ``v`` (see
:mod:`.defs.row_updates`)."""
from __future__ import annotations

from ..common.tensor import Tensor
from .defs import row_updates as R

__all__ = ["inplace_add", "inplace_sub", "inplace_update"]


def inplace_add(x: Tensor, v: Tensor, indices) -> Tensor:
    """``x`` with ``v[k]`` added to row ``indices[k]`` (an int or a tuple of ints)."""
    return R.InplaceAdd(x, v, indices=indices)


def inplace_sub(x: Tensor, v: Tensor, indices) -> Tensor:
    """``x`` with ``v[k]`` subtracted from row ``indices[k]``."""
    return R.InplaceSub(x, v, indices=indices)


def inplace_update(x: Tensor, v: Tensor, indices) -> Tensor:
    """``x`` with row ``indices[k]`` replaced by ``v[k]``; ``indices`` an int, a tuple of ints
    or an int32/int64 Tensor."""
    if isinstance(indices, Tensor):
        return R.InplaceUpdateV2(x, indices, v)
    return R.InplaceUpdate(x, v, indices=indices)
