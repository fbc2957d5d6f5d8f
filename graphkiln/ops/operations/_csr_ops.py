"""``mindspore.ops.operations._csr_ops``: MindSpore's CSR primitives, which take a CSR
tensor as its parts (``indptr, indices, values, dense_shape``). Each is composed of the
CSRTensor functions of ``ops/sparse_methods.py`` (so it traces, differentiates and vmaps
through their primitives)."""
from __future__ import annotations

import graphkiln.ops.functional as F
import graphkiln.ops.sparse_methods as S

from ...common.sparse_tensor import CSRTensor
from ...common.tensor import Tensor
from ..searching import searchsorted


class _CSRPrimitive:
    """A callable with the primitive methods user code calls on an instance."""

    def add_prim_attr(self, name: str, value):
        self.__dict__.setdefault("attrs", {})[name] = value
        return self

    def set_device(self, device_target: str):
        return self


class CSRReduceSum(_CSRPrimitive):
    """The sum of each row of a CSR tensor, as ``[rows, 1, ...]``."""

    def __call__(self, indptr, indices, values, dense_shape, axis) -> Tensor:
        return S.csr_reduce_sum(CSRTensor(indptr, indices, values, dense_shape), axis)


class CSRMV(_CSRPrimitive):
    """The product of a CSR matrix and a dense ``[columns, 1]`` vector."""

    def __call__(self, indptr, indices, values, dense_shape, dense) -> Tensor:
        return S.csr_mv(CSRTensor(indptr, indices, values, dense_shape), dense)


class CSRMM(_CSRPrimitive):
    """The product of a CSR matrix and a dense matrix."""

    def __call__(self, indptr, indices, values, dense_shape, dense) -> Tensor:
        return S.csr_matmul(CSRTensor(indptr, indices, values, dense_shape), dense)


class CSRMul(_CSRPrimitive):
    """The stored values times the dense tensor (broadcast) at their positions."""

    def __call__(self, indptr, indices, values, dense_shape, dense) -> Tensor:
        return S.csr_mul(CSRTensor(indptr, indices, values, dense_shape), dense).values


class CSRDiv(_CSRPrimitive):
    """The stored values divided by the dense tensor (broadcast) at their positions."""

    def __call__(self, indptr, indices, values, dense_shape, dense) -> Tensor:
        return S.csr_div(CSRTensor(indptr, indices, values, dense_shape), dense).values


class CSRGather(_CSRPrimitive):
    """The dense tensor read at the positions a CSR tensor stores values."""

    def __call__(self, indptr, indices, dense, dense_shape) -> Tensor:
        rows = S.csr_rows_of(indptr, indices)
        return F.gather_nd(F.broadcast_to(dense, dense_shape), F.stack((rows, indices), 1))


class CSR2COO(_CSRPrimitive):
    """The row of each of the ``nnz`` stored values of ``indptr``."""

    def __call__(self, indptr, nnz) -> Tensor:
        positions = F.cast(F.range(0, nnz, 1), indptr.dtype)
        return searchsorted(indptr[1:], positions, right=True)


class COO2CSR(_CSRPrimitive):
    """``indptr`` of sorted ``row_indices`` of a matrix of ``height`` rows."""

    def __call__(self, row_indices, height) -> Tensor:
        starts = F.cast(F.range(0, height + 1, 1), row_indices.dtype)
        return F.cast(searchsorted(row_indices, starts), row_indices.dtype)
