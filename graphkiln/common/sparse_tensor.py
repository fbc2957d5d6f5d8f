"""MindSpore's sparse tensors as data holders: ``COOTensor`` (``indices`` [nnz, 2] and
``values`` [nnz] of a 2-D ``shape``), ``CSRTensor`` (rows compressed by ``indptr``) and
``RowTensor`` (a sparse gradient of whole rows, MindSpore's deprecated type).

COO and CSR tensors flatten into their tensors (``shape`` is static) wherever structured
values do (``frontend/pytree.py``), so they cross ``@jit`` and control flow; their operators
and conversions are composed of primitives in ``ops/sparse_methods.py``."""
from __future__ import annotations

import numpy as np

import graphkiln.common.dtype as mstype

from .tensor import Tensor
from .tensor_format import tensor_graph_text

_INDEX_TYPES = (mstype.int16, mstype.int32, mstype.int64)


def _check_parts(kind: str, named: dict, values, shape) -> None:
    """MindSpore's constructor checks common to COO and CSR tensors."""
    for name, t in named.items():
        if not isinstance(t, Tensor):
            raise TypeError(f"For {kind}, '{name}' must be Tensor, but got {type(t)}.")
    if not isinstance(values, Tensor):
        raise TypeError(f"For {kind}, 'values' must be Tensor, but got {type(values)}.")
    if not isinstance(shape, tuple):
        raise TypeError(f"For {kind}, 'shape' must be tuple, but got {type(shape)}.")
    for name, t in named.items():
        if t.dtype not in _INDEX_TYPES:
            raise TypeError(f"For {kind}, {name} must have int16 or int32 or int64 data type, "
                            f"but got {t.dtype}.")


def _check_dense_shape(kind: str, shape: tuple, nnz: int) -> None:
    size = 1
    for item in shape:
        if not isinstance(item, (int, np.integer)) or isinstance(item, bool):
            raise TypeError(f"For {kind}, the element type of shape must be int, but got "
                            f"{type(item)}")
        if item <= 0:
            raise ValueError(f"For {kind}, the element of shape must be positive, but got "
                             f"{item}")
        size *= int(item)
    if size < nnz:
        raise ValueError(f"For {kind}, shape total size: {size} is too small to hold {nnz} "
                         f"non-zero values.")


def _part_text(t: Tensor) -> str:
    """A part of a sparse tensor's repr, as MindSpore writes it: the tensor's text without
    commas (``value=[0 1 2]``), not its ``repr`` (which a graph value keeps)."""
    if t._data is None or t.has_init:
        return repr(t)
    return tensor_graph_text(np.asarray(t._data), t.dtype)


class SparseBase:
    """What COO and CSR tensors share: static ``shape``, ``values`` and their metadata."""

    _PARTS: tuple = ()  # the tensor attributes, in constructor order
    # applied to the index tensors when built from parts: ops/sparse_methods.py installs
    # stop_gradient (indices carry no gradient, as in MindSpore)
    _freeze_index = staticmethod(lambda t: t)

    @property
    def values(self) -> Tensor:
        return self._values

    @property
    def shape(self) -> tuple:
        return self._shape

    @property
    def dtype(self) -> mstype.Type:
        return self._values.dtype

    @property
    def size(self) -> int:
        """The number of stored values."""
        return self._values.size

    @property
    def itemsize(self) -> int:
        return self._values.itemsize

    @property
    def ndim(self) -> int:
        return len(self._shape)

    def to_tuple(self) -> tuple:
        return (*(getattr(self, p) for p in self._PARTS), self._shape)

    # pytree protocol (frontend/pytree.py): the tensors are leaves, the shape is static
    def __gk_flatten__(self) -> tuple:
        return tuple(getattr(self, p) for p in self._PARTS), self._shape

    @classmethod
    def __gk_unflatten__(cls, shape: tuple, parts):
        obj = cls.__new__(cls)
        for name, t in zip(cls._PARTS, parts):
            object.__setattr__(obj, "_" + name, t)
        obj._shape = shape
        return obj

    def __repr__(self) -> str:
        parts = ", ".join(f"{p}={_part_text(getattr(self, p))}" for p in self._PARTS)
        return (f"{type(self).__name__}(shape={list(self._shape)}, dtype={self.dtype}, "
                f"{parts})")


class COOTensor(SparseBase):
    """A 2-D sparse tensor: ``values[k]`` sits at ``indices[k]``. ``coo_tensor=`` copies
    another one."""

    _PARTS = ("indices", "values")

    def __init__(self, indices=None, values=None, shape=None, coo_tensor=None):
        if coo_tensor is not None:
            if not isinstance(coo_tensor, COOTensor):
                raise TypeError(f"Expect input `coo_tensor` to be a COOTensor, but got "
                                f"{type(coo_tensor)}")
            if not (indices is None and values is None and shape is None):
                raise TypeError("If input `coo_tensor` is provided, `indices`, `values`, "
                                "`shapes` should all be `None`")
            indices, values, shape = coo_tensor.indices, coo_tensor.values, coo_tensor.shape
        else:
            _check_parts("COOTensor", {"indices": indices}, values, shape)
            _check_coo_shape(indices.shape, values.shape, shape)
            indices = self._freeze_index(indices)
        self._indices = indices
        self._values = values
        self._shape = tuple(int(d) for d in shape)

    @property
    def indices(self) -> Tensor:
        return self._indices


def _check_coo_shape(indices_shape: tuple, values_shape: tuple, shape: tuple) -> None:
    if len(shape) != 2:
        raise ValueError(f"For COOTensor, the length of 'shape' must be 2, but got {shape}.")
    if indices_shape == (0,) and values_shape == (0,):
        return
    if len(values_shape) != 1:
        raise ValueError(f"For COOTensor, 'values' must be a 1-dimensional tensor, but got a "
                         f"{len(values_shape)}-dimensional tensor.")
    _check_dense_shape("COOTensor", shape, values_shape[0])
    if len(indices_shape) != 2:
        raise ValueError(f"For COOTensor, 'indices' must be a 2-dimensional tensor, but got a "
                         f"{len(indices_shape)}-dimensional tensor.")
    if indices_shape[0] != values_shape[0]:
        raise ValueError(f"For COOTensor, 'indices.shape[0]' must be equal to "
                         f"'values.shape[0]', but got 'indices.shape[0]' = {indices_shape[0]} "
                         f"and 'values.shape[0]' = {values_shape[0]}.")
    if indices_shape[1] != 2:
        raise ValueError(f"For COOTensor, 'indices.shape[1]' must be 2, but got "
                         f"{indices_shape[1]}.")


class CSRTensor(SparseBase):
    """A sparse tensor with compressed rows: row ``i`` holds ``values[indptr[i]:indptr[i+1]]``
    at columns ``indices[indptr[i]:indptr[i+1]]``; ``values`` may carry trailing dense dims.
    ``csr_tensor=`` copies another one."""

    _PARTS = ("indptr", "indices", "values")

    def __init__(self, indptr=None, indices=None, values=None, shape=None, csr_tensor=None):
        if csr_tensor is not None:
            if not isinstance(csr_tensor, CSRTensor):
                raise TypeError(f"Expect input `csr_tensor` to be a CSRTensor, but got "
                                f"{type(csr_tensor)}")
            if not (indptr is None and indices is None and values is None and shape is None):
                raise TypeError("If input `csr_tensor` is provided, `indptr`, `indices`, "
                                "`values`, `shapes` should all be `None`")
            indptr, indices, values = csr_tensor.indptr, csr_tensor.indices, csr_tensor.values
            shape = csr_tensor.shape
        else:
            _check_parts("CSRTensor", {"indptr": indptr, "indices": indices}, values, shape)
            _check_csr_shape(indptr.shape, indices.shape, values.shape, shape)
            indptr, indices = self._freeze_index(indptr), self._freeze_index(indices)
        self._indptr = indptr
        self._indices = indices
        self._values = values
        self._shape = tuple(int(d) for d in shape)

    @property
    def indptr(self) -> Tensor:
        return self._indptr

    @property
    def indices(self) -> Tensor:
        return self._indices


def _check_csr_shape(indptr_shape: tuple, indices_shape: tuple, values_shape: tuple,
                     shape: tuple) -> None:
    if indptr_shape == (0,) and indices_shape == (0,) and values_shape == (0,):
        return
    nnz = int(np.prod(values_shape)) if values_shape else 1
    _check_dense_shape("CSRTensor", shape, nnz)
    if len(indices_shape) != 1:
        raise ValueError(f"For CSRTensor, indices must be a 1-dimensional tensor, but got a "
                         f"{len(indices_shape)} dimension tensor.")
    if len(indptr_shape) != 1:
        raise ValueError(f"For CSRTensor, indptr must be a 1-dimensional tensor, but got a "
                         f"{len(indptr_shape)} dimension tensor.")
    if shape[0] + 1 != indptr_shape[0]:
        raise ValueError(f"For CSRTensor, indptr must have length (1 + shape[0]), but got: "
                         f"{indptr_shape[0]}")
    if indices_shape[0] != values_shape[0]:
        raise ValueError(f"For CSRTensor, indices and values must equal in their shape, but "
                         f"got indices shape: {indices_shape[0]}, values shape: "
                         f"{values_shape[0]}.")
    if len(values_shape) + 1 != len(shape):
        raise ValueError(f"Values' dimension should equal to CSRTensor's dimension - 1, but got "
                         f"Values' dimension: {len(values_shape)} , CSRTensor's dimension: "
                         f"{len(shape)}")
    if tuple(values_shape[1:]) != tuple(shape[2:]):
        raise ValueError(f"CSRTensor's shape[2: ] must be equal to value's shape[1: ], but "
                         f"CSRTensor's shape[2: ] got: {shape[2:]} and value's shape[1: ] got: "
                         f"{values_shape[1:]}")


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
                f"indices={_part_text(self._indices)}, values={_part_text(self._values)})")


class RowTensor(RowTensorInner):
    """MindSpore's public name (deprecated there in favour of dense gradients)."""


SPARSE_TYPES = (COOTensor, CSRTensor)  # a Tensor's operators leave these to their own
