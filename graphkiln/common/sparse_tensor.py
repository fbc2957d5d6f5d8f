"""``RowTensor``: a sparse gradient of the rows ``indices`` of a ``dense_shape`` tensor,
holding ``values`` (one row each), as MindSpore's deprecated sparse-gradient type."""
from __future__ import annotations

import numpy as np

from .tensor import Tensor


class RowTensorInner:
    """Rows ``indices`` of a dense tensor of shape ``shape`` hold ``values``; every other
    row is zero. ``row_tensor=`` copies another one."""

    def __init__(self, indices=None, values=None, shape=None, row_tensor=None):
        if row_tensor is not None:
            if not isinstance(row_tensor, RowTensorInner):
                raise TypeError(f"Expect input `row_tensor` to be a RowTensor, but got "
                                f"{type(row_tensor)}")
            if not (indices is None and values is None and shape is None):
                raise TypeError("If input `row_tensor` is provided, `indices`, `values`, "
                                "`shapes` should all be `None`")
            indices, values, shape = (row_tensor.indices, row_tensor.values,
                                      row_tensor.dense_shape)
        self._indices = indices if isinstance(indices, Tensor) else Tensor(indices)
        self._values = values if isinstance(values, Tensor) else Tensor(values)
        self._shape = tuple(shape)

    @property
    def indices(self) -> Tensor:
        return self._indices

    @property
    def values(self) -> Tensor:
        return self._values

    @property
    def dense_shape(self) -> tuple:
        return self._shape

    def to_dense(self) -> Tensor:
        """The dense tensor (rows that appear more than once are summed)."""
        dense = np.zeros(self._shape, self._values.asnumpy().dtype)
        np.add.at(dense, self._indices.asnumpy(), self._values.asnumpy())
        return Tensor(dense, self._values.dtype)

    def __repr__(self) -> str:
        return (f"RowTensor(shape={list(self._shape)}, dtype={self._values.dtype}, "
                f"indices={self._indices!r}, values={self._values!r})")


class RowTensor(RowTensorInner):
    """MindSpore's public name (deprecated there in favour of dense gradients)."""
