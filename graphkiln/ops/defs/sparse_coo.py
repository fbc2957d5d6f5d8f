"""Primitives on sparse tensors in coordinate form (``indices`` ``(N, R)``, ``values``
``(N,)``, dense ``shape`` ``(R,)``), as MindSpore's ``ops.operations.sparse_ops``:
``SparseReorder`` (the entries in row-major order of their indices, a stable sort) and
``SparseAddmm`` (``alpha * (sparse @ x2) + beta * x3`` for a 2-D sparse matrix) and
``SparseReshape`` (the indices of the same entries in a new dense shape) and
``SparseTensorDenseAdd`` (a dense ``x2`` plus the entries, repeated indices adding up) and
``SparseTensorToCSRSparseMatrix`` (the entries of a rank 2 or 3 tensor in CSR form). An
index outside ``shape`` is a ValueError when the kernel runs."""
from __future__ import annotations

import numpy as np

from ...common import dtype as mstype
from ...ir.abstract import AbstractTensor, AbstractTuple
from ...ir.primitive import OpDef
from ._infer import NUMBERS, UNKNOWN_DIM, dims_match, require_dtype, tensor_type

_INDEX = (mstype.int32, mstype.int64)


def _coo(name: str, indices, values, shape, rank: int | None = None):
    require_dtype(name, "indices", tensor_type(name, "indices", indices), _INDEX)
    require_dtype(name, "shape", tensor_type(name, "shape", shape), _INDEX)
    t = tensor_type(name, "values", values)
    require_dtype(name, "values", t, NUMBERS)
    if len(indices.shape) != 2 or len(values.shape) != 1 or len(shape.shape) != 1:
        raise ValueError(f"For '{name}', the 'indices' must be 2-D, the 'values' and 'shape' "
                         f"1-D, but got shapes {list(indices.shape)}, {list(values.shape)} "
                         f"and {list(shape.shape)}.")
    if not dims_match(indices.shape[0], values.shape[0]) or \
            not dims_match(indices.shape[1], shape.shape[0]) or \
            rank is not None and not dims_match(indices.shape[1], rank):
        raise ValueError(f"For '{name}', the 'indices' must be (N, R) with N values and R "
                         f"dense dimensions, but got shapes {list(indices.shape)}, "
                         f"{list(values.shape)} and {list(shape.shape)}.")
    return t


def _checked(name: str, indices, shape) -> tuple[np.ndarray, np.ndarray]:
    indices, shape = np.asarray(indices).astype(np.int64), np.asarray(shape).astype(np.int64)
    if indices.size and ((indices < 0).any() or (indices >= shape).any()):
        raise ValueError(f"For '{name}', every index must be within the dense shape "
                         f"{shape.tolist()}, but got {indices.tolist()}.")
    return indices, shape


def _reorder_infer(indices, values, shape):
    t = _coo("SparseReorder", indices, values, shape)
    return AbstractTuple([AbstractTensor(indices.dtype, tuple(indices.shape)),
                          AbstractTensor(t, tuple(values.shape))])


def _reorder(indices, values, shape):
    idx, _ = _checked("SparseReorder", indices, shape)
    order = np.lexsort(idx.T[::-1]) if idx.shape[1] else np.arange(len(idx))
    return np.asarray(indices)[order], np.asarray(values)[order]


SparseReorder = OpDef("SparseReorder", _reorder_infer, _reorder)


def _addmm_infer(indices, values, sparse_shape, x2, x3, alpha, beta):
    name = "SparseAddmm"
    t = _coo(name, indices, values, sparse_shape, rank=2)
    for arg, a in (("x2_dense", x2), ("x3_dense", x3), ("alpha", alpha), ("beta", beta)):
        if tensor_type(name, arg, a) is not t:
            raise TypeError(f"For '{name}', the '{arg}' must have the dtype of 'values' {t}, "
                            f"but got {a.dtype}.")
    if len(x2.shape) != 2 or len(x3.shape) != 2 or not dims_match(x2.shape[1], x3.shape[1]):
        raise ValueError(f"For '{name}', 'x2_dense' must be (P, M) and 'x3_dense' (Q, M), but "
                         f"got {list(x2.shape)} and {list(x3.shape)}.")
    if tuple(alpha.shape) not in ((1,), (-1,)) or tuple(beta.shape) not in ((1,), (-1,)):
        raise ValueError(f"For '{name}', 'alpha' and 'beta' must have shape (1,), but got "
                         f"{list(alpha.shape)} and {list(beta.shape)}.")
    return AbstractTensor(t, tuple(x3.shape))


def _addmm(indices, values, sparse_shape, x2, x3, alpha, beta):
    idx, shape = _checked("SparseAddmm", indices, sparse_shape)
    x2, x3 = np.asarray(x2), np.asarray(x3)
    if shape[1] != x2.shape[0] or shape[0] != x3.shape[0]:
        raise ValueError(f"For 'SparseAddmm', the sparse shape {shape.tolist()} does not fit "
                         f"'x2_dense' {list(x2.shape)} and 'x3_dense' {list(x3.shape)}.")
    product = np.zeros(x3.shape, np.result_type(values, x2))
    np.add.at(product, idx[:, 0], np.asarray(values)[:, None] * x2[idx[:, 1]])
    out = np.asarray(alpha).reshape(()) * product + np.asarray(beta).reshape(()) * x3
    return out.astype(x3.dtype)


# alpha * (sparse @ x2_dense) + beta * x3_dense (MindSpore defines no backward for it)
SparseAddmm = OpDef("SparseAddmm", _addmm_infer, _addmm, differentiable=False)


def _reshape_infer(indices, shape, new_shape):
    name = "SparseReshape"
    for arg, a in (("indices", indices), ("shape", shape), ("new_shape", new_shape)):
        require_dtype(name, arg, tensor_type(name, arg, a), (mstype.int64,))
    if len(indices.shape) != 2 or len(shape.shape) != 1 or len(new_shape.shape) != 1 or \
            not dims_match(indices.shape[1], shape.shape[0]):
        raise ValueError(f"For '{name}', the 'indices' must be (N, R), 'shape' (R,) and "
                         f"'new_shape' 1-D, but got shapes {list(indices.shape)}, "
                         f"{list(shape.shape)} and {list(new_shape.shape)}.")
    rank = new_shape.shape[0]
    return AbstractTuple([AbstractTensor(mstype.int64, (indices.shape[0], rank)),
                          AbstractTensor(mstype.int64, (rank,))])


def _reshape(indices, shape, new_shape):
    name = "SparseReshape"
    shape, new = np.asarray(shape, np.int64), np.array(new_shape, np.int64)
    size = int(np.prod(shape))
    unknown = np.flatnonzero(new == -1)
    if len(unknown) > 1:
        raise RuntimeError(f"For '{name}', 'new_shape' may hold at most one -1, but got "
                           f"{new.tolist()}.")
    known = int(np.prod(new[new != -1]))
    if len(unknown):
        new[unknown[0]] = size // known if known else 0
    if int(np.prod(new)) != size:
        raise RuntimeError(f"For '{name}', the 'new_shape' {new_shape.tolist()} must hold "
                           f"the {size} elements of 'shape' {shape.tolist()}.")
    flat = np.ravel_multi_index(tuple(np.asarray(indices, np.int64).T), tuple(shape))
    return np.stack(np.unravel_index(flat, tuple(new)), -1).astype(np.int64).reshape(
        -1, len(new)), new


# (indices, shape, new_shape) -> (the entries' indices in new_shape, new_shape with its -1
# resolved), as MindSpore's ``SparseReshape``
SparseReshape = OpDef("SparseReshape", _reshape_infer, _reshape, differentiable=False)


def _dense_add_infer(x1_indices, x1_values, x1_shape, x2):
    name = "SparseTensorDenseAdd"
    t = _coo(name, x1_indices, x1_values, x1_shape)
    if x1_indices.dtype != x1_shape.dtype or t != tensor_type(name, "x2", x2):
        raise TypeError(f"For primitive[{name}], 'x1_indices' and 'x1_shape' must have one "
                        f"dtype and 'x1_values' the dtype of 'x2', but got {x1_indices.dtype}, "
                        f"{x1_shape.dtype}, {t} and {x2.dtype}.")
    if not dims_match(x1_indices.shape[1], len(x2.shape)):
        raise ValueError(f"For '{name}', the 'x1_indices' must have one column per dimension "
                         f"of 'x2' {list(x2.shape)}, but got shape {list(x1_indices.shape)}.")
    return AbstractTensor(t, tuple(x2.shape))


def _dense_add(x1_indices, x1_values, x1_shape, x2):
    shape = np.asarray(x1_shape).astype(np.int64)
    if tuple(shape.tolist()) != x2.shape:
        raise RuntimeError(f"For 'SparseTensorDenseAdd', the 'x1_shape' {shape.tolist()} must "
                           f"be the shape of 'x2' {list(x2.shape)} (no broadcasting).")
    idx, _ = _checked("SparseTensorDenseAdd", x1_indices, shape)
    out = x2.copy()
    np.add.at(out, tuple(idx.T), np.asarray(x1_values))
    return out


SparseTensorDenseAdd = OpDef("SparseTensorDenseAdd", _dense_add_infer, _dense_add)


_CSR_VALUES = (mstype.float32, mstype.float64, mstype.complex64, mstype.complex128)


def _to_csr_infer(x_indices, x_values, x_dense_shape):
    name = "SparseTensorToCSRSparseMatrix"
    ti = tensor_type(name, "x_indices", x_indices)
    require_dtype(name, "x_indices", ti, _INDEX)
    t = tensor_type(name, "x_values", x_values)
    if t not in _CSR_VALUES:
        allowed = ", ".join(f"Tensor[{v}]" for v in sorted(_CSR_VALUES, key=str))
        raise TypeError(f"For primitive[{name}], the input argument[x_values] must be a type "
                        f"of {{{allowed}}}, but got Tensor[{t}].")
    ts = tensor_type(name, "x_dense_shape", x_dense_shape)
    require_dtype(name, "x_dense_shape", ts, _INDEX)
    if len(x_indices.shape) != 2 or len(x_values.shape) != 1 or len(x_dense_shape.shape) != 1:
        raise ValueError(f"For {name}, input x_indices should be a 2-D tensor, but got "
                         f"{len(x_indices.shape)}-D, input x_values should be a 1-D tensor, but "
                         f"got {len(x_values.shape)}-D, input x_dense_shape should be a 1-D "
                         f"tensor, but got {len(x_dense_shape.shape)}-D")
    if not dims_match(x_indices.shape[0], x_values.shape[0]):
        raise ValueError(f"For primitive[{name}], the x_indices.shape[0] and x_values.shape[0] "
                         f"must be equal, but got {x_indices.shape[0]} and "
                         f"{x_values.shape[0]}.")
    rank = x_dense_shape.shape[0]
    if not dims_match(x_indices.shape[1], rank) or rank not in (2, 3, UNKNOWN_DIM):
        raise ValueError(f"For '{name}', the x_indices.shape[1] and x_dense_shape.shape[0] must "
                         f"be equal to 2 or 3, but got {x_indices.shape[1]} and {rank}.")
    rows = batch = UNKNOWN_DIM
    if x_dense_shape.value is not None:
        shape = np.asarray(x_dense_shape.value).reshape(-1).tolist()
        batch, rows = (shape[0] if len(shape) == 3 else 1), shape[-2]
    count = x_indices.shape[0]
    return AbstractTuple([
        AbstractTensor(ts, (rank,)),
        AbstractTensor(ti, (UNKNOWN_DIM if batch == UNKNOWN_DIM else batch + 1,)),
        AbstractTensor(ti, (UNKNOWN_DIM if UNKNOWN_DIM in (batch, rows)
                            else batch * (rows + 1),)),
        AbstractTensor(ti, (count,)), AbstractTensor(t, (count,))])


def _to_csr(x_indices, x_values, x_dense_shape):
    """The entries (in the given order, assumed row-major as MindSpore's kernel does) as a
    batched CSR matrix: per-batch entry offsets, per-row offsets within each batch."""
    idx, shape = np.asarray(x_indices), np.asarray(x_dense_shape).astype(np.int64)
    batch, rows = (int(shape[0]) if shape.size == 3 else 1), int(shape[-2])
    b = idx[:, 0].astype(np.int64) if shape.size == 3 else np.zeros(len(idx), np.int64)
    counts = np.zeros((batch, rows), np.int64)
    np.add.at(counts, (b, idx[:, -2].astype(np.int64)), 1)
    batch_ptr = np.concatenate([[0], np.cumsum(counts.sum(1))])
    row_ptr = np.concatenate([np.zeros((batch, 1), np.int64), np.cumsum(counts, 1)], 1)
    it = idx.dtype
    return (np.asarray(x_dense_shape).copy(), batch_ptr.astype(it), row_ptr.reshape(-1).astype(it),
            idx[:, -1].copy(), np.asarray(x_values).copy())


# (x_indices, x_values, x_dense_shape) -> (dense_shape, batch_pointers, row_pointers,
# col_indices, values): a COO tensor of rank 2 or 3 as MindSpore's CSR sparse matrix
SparseTensorToCSRSparseMatrix = OpDef("SparseTensorToCSRSparseMatrix", _to_csr_infer, _to_csr)
