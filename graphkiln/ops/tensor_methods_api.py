"""Tensor methods of the functional APIs that ``test_api_*`` check (``x.cumprod``,
``x.logit``, ``x.addcdiv``, ``x.rot90``, ``x.top_k``, ``x.expand``, ``x.clone``...): each
calls the ``ops`` function of the same name with ``self`` first."""
from __future__ import annotations

import graphkiln.ops.array_ops as A
import graphkiln.ops.cumulative as C
import graphkiln.ops.diagonals as DG
import graphkiln.ops.elementwise as E
import graphkiln.ops.elementwise_ops as EO
import graphkiln.ops.functional as F
import graphkiln.ops.index_put as IP
import graphkiln.ops.linalg_ops as LA
import graphkiln.ops.products as P
import graphkiln.ops.quantiles as Q
import graphkiln.ops.searching as SE
import graphkiln.ops.stacking as S
import graphkiln.ops.unfold as UF

from ..common import dtype as mstype
from ..common.tensor import Tensor
from .inplace_methods import _write


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


def addr(self, vec1, vec2, beta=1, alpha=1) -> Tensor:
    return P.addr(self, vec1, vec2, beta=beta, alpha=alpha)


def softmax(self, axis, dtype=None) -> Tensor:
    return F.softmax(self, axis, dtype=dtype)


def bitwise_not(self) -> Tensor:
    return F.invert(self)


def diag(self, diagonal: int = 0) -> Tensor:
    """The diagonal Tensor of ``self`` (MindSpore's method takes only ``diagonal=0``)."""
    if diagonal != 0:
        raise ValueError(f"For 'Tensor.diag', the argument 'diagonal' should be '0', but got "
                         f"{diagonal}.")
    return A.diag(self)


def triangular_solve(self, A, upper=True, transpose=False,  # noqa: N803 - MindSpore's name
                     unitriangular=False) -> tuple:
    return LA.triangular_solve(self, A, upper, transpose, unitriangular)


# the functions whose arguments after ``input`` are the method's
_SAME = (C.cumprod, C.logcumsumexp, C.cummax, C.cummin, E.logit, E.gcd, E.lcm,
         E.bitwise_left_shift, E.bitwise_right_shift, E.nextafter, E.mvlgamma, P.cross, F.bmm,
         S.rot90, A.top_k, A.index_fill, A.ravel, A.reverse, EO.erfinv, EO.inv,
         EO.invert, Q.quantile, Q.nanquantile, Q.cov, Q.kthvalue, SE.bincount,
         SE.unique_consecutive, SE.unique_with_pad, SE.aminmax, UF.fold, UF.col2im,
         DG.diagonal_scatter, F.conj, F.imag, F.gather_elements, F.xdivy, F.renorm,
         F.reverse_sequence, IP.index_put)


def remainder_(self, other) -> Tensor:
    """``self`` set to ``remainder(self, other)`` (the sign of ``other``), in place."""
    return _write(self, F.remainder(self, other))


def approximate_equal(self, other, tolerance: float = 1e-05) -> Tensor:
    """Whether ``|self - other| < tolerance``, elementwise (see ``ops.approximate_equal``)."""
    if not isinstance(tolerance, float):  # the method's own check, as MindSpore's
        raise ValueError(f"The parameter 'tolerance' must be isinstance of <class 'float'>, "
                         f"but got {tolerance}.")
    return E.approximate_equal(self, other, tolerance)


def install() -> None:
    """Attach the methods to :class:`Tensor`."""
    for fn in (expand, clone, new_empty, addcdiv, addcmul, searchsorted, addr, softmax,
               bitwise_not, diag, triangular_solve, remainder_, approximate_equal):
        setattr(Tensor, fn.__name__, fn)
    for fn in _SAME:
        setattr(Tensor, fn.__name__, fn)
    Tensor.soft_shrink = F.soft_shrink
    Tensor.unique = SE.unique_ext


install()
