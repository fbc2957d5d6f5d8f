"""``CSRTensor``: a 2-D (or batched) sparse tensor in compressed sparse row form: row ``i``'s
non-zeros are ``values[indptr[i]:indptr[i + 1]]`` at columns ``indices[...]``. graphkiln
stores it and turns it dense (``to_dense``); sparse kernels are not implemented."""
from __future__ import annotations

import numpy as np

from .tensor import Tensor


class CSRTensor:
    """``CSRTensor(indptr, indices, values, shape)``, or ``csr_tensor=`` to copy one."""

    def __init__(self, indptr=None, indices=None, values=None, shape=None, csr_tensor=None):
        if csr_tensor is not None:
            if not isinstance(csr_tensor, CSRTensor):
                raise TypeError(f"Expect input `csr_tensor` to be a CSRTensor, but got "
                                f"{type(csr_tensor)}")
            indptr, indices, values, shape = (csr_tensor.indptr, csr_tensor.indices,
                                              csr_tensor.values, csr_tensor.shape)
        if shape is None or len(tuple(shape)) < 2:
            raise ValueError(f"For CSRTensor, 'shape' must have at least 2 dimensions, but "
                             f"got {shape}.")
        self._indptr, self._indices, self._values = (
            v if isinstance(v, Tensor) else Tensor(v) for v in (indptr, indices, values))
        self._shape = tuple(int(s) for s in shape)
        if self._indptr.shape[0] != self._shape[0] + 1:
            raise ValueError(f"For CSRTensor, 'indptr' must have {self._shape[0] + 1} "
                             f"elements for shape {self._shape}, but got "
                             f"{self._indptr.shape[0]}.")

    indptr = property(lambda self: self._indptr)
    indices = property(lambda self: self._indices)
    values = property(lambda self: self._values)
    shape = property(lambda self: self._shape)
    dtype = property(lambda self: self._values.dtype)
    size = property(lambda self: self._values.shape[0])
    ndim = property(lambda self: len(self._shape))

    def to_dense(self) -> Tensor:
        """The dense Tensor of ``shape`` (the listed values, zeros elsewhere)."""
        indptr = self._indptr.asnumpy()
        rows = np.repeat(np.arange(self._shape[0]), np.diff(indptr))
        dense = np.zeros(self._shape, self._values.asnumpy().dtype)
        dense[rows, self._indices.asnumpy()] = self._values.asnumpy()
        return Tensor(dense, self._values.dtype)

    def astype(self, dtype) -> CSRTensor:
        return CSRTensor(self._indptr, self._indices, self._values.astype(dtype), self._shape)

    def __repr__(self) -> str:
        return (f"CSRTensor(shape={list(self._shape)}, dtype={self.dtype}, "
                f"indptr={self._indptr}, indices={self._indices}, values={self._values})")
