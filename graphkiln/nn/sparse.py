"""``nn.SparseTensorDenseMatmul`` and ``nn.SparseToDense`` (MindSpore's ``nn.sparse``):
cells over ``ops.SparseTensorDenseMatmul`` and ``COOTensor.to_dense``."""
from __future__ import annotations

import graphkiln.ops as ops

from .cell import Cell

__all__ = ["SparseToDense", "SparseTensorDenseMatmul"]


class SparseToDense(Cell):
    """A ``COOTensor`` as the dense Tensor it stands for (``COOTensor.to_dense``)."""

    def construct(self, sparse_tensor):
        return sparse_tensor.to_dense()


class SparseTensorDenseMatmul(Cell):
    """The sparse matrix ``(indices, values, sparse_shape)`` times the dense matrix
    ``dense``, each transposed first when ``adjoint_st``/``adjoint_dt``."""

    def __init__(self, adjoint_st: bool = False, adjoint_dt: bool = False):
        super().__init__()
        self.adj_st = adjoint_st
        self.adj_dt = adjoint_dt
        self.sparse_dense_matmul = ops.SparseTensorDenseMatmul(adjoint_st=adjoint_st,
                                                               adjoint_dt=adjoint_dt)

    def construct(self, indices, values, sparse_shape, dense):
        return self.sparse_dense_matmul(indices, values, sparse_shape, dense)
