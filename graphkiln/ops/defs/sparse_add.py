"""The sums of two sparse tensors, whose number of stored values depends on where both
store one (so, inside a graph, an unknown leading dimension, as ``Unique``'s):

``SparseAdd`` (MindSpore's ``ops.operations.sparse_ops.SparseAdd``, ``ops.coo_add``): two
COO tensors merged in the order of their indices; where both store a value the sum is
kept only if ``|sum| >= thresh``.

``SparseMatrixAdd`` (``csr_add``): ``alpha * A + beta * B`` of two CSR matrices (or batches
of them: ``batch_pointers`` delimit each matrix's values), the union of their stored
positions, columns ascending in each row."""
from __future__ import annotations

import numpy as np

from ...common import dtype as mstype
from ...ir.abstract import AbstractTensor, AbstractTuple
from ...ir.primitive import OpDef
from ._infer import INDEX_TYPES, NUMBERS, UNKNOWN_DIM, require_dtype, same_type, tensor_type


def _add_infer(x1_indices, x1_values, x1_shape, x2_indices, x2_values, x2_shape, thresh):
    name = "SparseAdd"
    index = same_type(name, {"x1_indices": x1_indices, "x2_indices": x2_indices})
    require_dtype(name, "x1_indices", index, INDEX_TYPES)
    shape_t = same_type(name, {"x1_shape": x1_shape, "x2_shape": x2_shape})
    require_dtype(name, "x1_shape", shape_t, INDEX_TYPES)
    t = same_type(name, {"x1_values": x1_values, "x2_values": x2_values})
    require_dtype(name, "x1_values", t, NUMBERS + (mstype.complex64, mstype.complex128))
    require_dtype(name, "thresh", tensor_type(name, "thresh", thresh), NUMBERS)
    for arg, a, rank in (("x1_indices", x1_indices, 2), ("x2_indices", x2_indices, 2),
                         ("x1_values", x1_values, 1), ("x2_values", x2_values, 1),
                         ("x1_shape", x1_shape, 1), ("x2_shape", x2_shape, 1)):
        if len(a.shape) != rank:
            raise ValueError(f"For '{name}', the '{arg}' must be {rank}-D, but got shape "
                             f"{list(a.shape)}.")
    if tuple(thresh.shape) not in ((), (1,)):
        raise ValueError(f"For '{name}', the 'thresh' must be a scalar, but got shape "
                         f"{list(thresh.shape)}.")
    rank = x1_indices.shape[1]
    return AbstractTuple([AbstractTensor(index, (UNKNOWN_DIM, rank)),
                          AbstractTensor(t, (UNKNOWN_DIM,)),
                          AbstractTensor(shape_t, tuple(x1_shape.shape))])


def _add(x1_indices, x1_values, x1_shape, x2_indices, x2_values, x2_shape, thresh):
    i1, i2 = np.asarray(x1_indices), np.asarray(x2_indices)
    v1, v2 = np.asarray(x1_values), np.asarray(x2_values)
    if not np.array_equal(np.asarray(x1_shape), np.asarray(x2_shape)):
        raise ValueError(f"For 'SparseAdd', the two dense shapes must be equal, but got "
                         f"{np.asarray(x1_shape).tolist()} and {np.asarray(x2_shape).tolist()}.")
    if len(i1) != len(v1) or len(i2) != len(v2):
        raise ValueError("For 'SparseAdd', each 'indices' must have one row per value.")
    limit = np.abs(np.asarray(thresh).reshape(()))

    def both(x, y):
        total = x + y
        return total if np.abs(total) >= limit else None
    indices, values = merge_sorted(i1, v1, i2, v2, both, lambda v: v)
    return indices, values, np.asarray(x1_shape).copy()


def merge_sorted(i1, v1, i2, v2, both, only) -> tuple[np.ndarray, np.ndarray]:
    """Two COO index lists merged as MindSpore's CPU kernels walk them (in step, assuming
    each is in index order): where both store a value ``both(v1, v2)`` is kept (``None``
    drops it), a value of one side only becomes ``only(v)``."""
    rows, values, a, b = [], [], 0, 0
    while a < len(i1) and b < len(i2):
        ka, kb = tuple(i1[a]), tuple(i2[b])
        if ka < kb:
            rows.append(i1[a])
            values.append(only(v1[a]))
            a += 1
        elif kb < ka:
            rows.append(i2[b])
            values.append(only(v2[b]))
            b += 1
        else:
            v = both(v1[a], v2[b])
            if v is not None:
                rows.append(i1[a])
                values.append(v)
            a, b = a + 1, b + 1
    rows += list(i1[a:]) + list(i2[b:])
    values += [only(v) for v in list(v1[a:]) + list(v2[b:])]
    return (np.asarray(rows, i1.dtype).reshape(len(rows), i1.shape[1]),
            np.asarray(values, v1.dtype))


SparseAdd = OpDef("SparseAdd", _add_infer, _add, differentiable=False)


def _matrix_add_infer(x1_dense_shape, x1_batch_pointers, x1_row_pointers, x1_col_indices,
                      x1_values, x2_dense_shape, x2_batch_pointers, x2_row_pointers,
                      x2_col_indices, x2_values, alpha, beta):
    name = "SparseMatrixAdd"
    index = same_type(name, {
        "x1_dense_shape": x1_dense_shape, "x1_batch_pointers": x1_batch_pointers,
        "x1_row_pointers": x1_row_pointers, "x1_col_indices": x1_col_indices,
        "x2_dense_shape": x2_dense_shape, "x2_batch_pointers": x2_batch_pointers,
        "x2_row_pointers": x2_row_pointers, "x2_col_indices": x2_col_indices})
    require_dtype(name, "x1_row_pointers", index, INDEX_TYPES)
    t = same_type(name, {"x1_values": x1_values, "x2_values": x2_values, "alpha": alpha,
                         "beta": beta})
    require_dtype(name, "x1_values", t, NUMBERS + (mstype.complex64, mstype.complex128))
    return AbstractTuple([AbstractTensor(index, tuple(x1_dense_shape.shape)),
                          AbstractTensor(index, tuple(x1_batch_pointers.shape)),
                          AbstractTensor(index, tuple(x1_row_pointers.shape)),
                          AbstractTensor(index, (UNKNOWN_DIM,)),
                          AbstractTensor(t, (UNKNOWN_DIM,))])


def _matrix_add(x1_dense_shape, x1_batch_pointers, x1_row_pointers, x1_col_indices,
                x1_values, x2_dense_shape, x2_batch_pointers, x2_row_pointers,
                x2_col_indices, x2_values, alpha, beta):
    shape = np.asarray(x1_dense_shape)
    if not np.array_equal(shape, np.asarray(x2_dense_shape)):
        raise RuntimeError(f"For 'SparseMatrixAdd': The inputs dense shape should be same, "
                           f"but got {shape.tolist()} and "
                           f"{np.asarray(x2_dense_shape).tolist()}.")
    a, b = np.asarray(alpha).reshape(()), np.asarray(beta).reshape(())
    batches = (np.asarray(x1_batch_pointers), np.asarray(x2_batch_pointers))
    rows_ptr = (np.asarray(x1_row_pointers), np.asarray(x2_row_pointers))
    cols = (np.asarray(x1_col_indices), np.asarray(x2_col_indices))
    vals = (np.asarray(x1_values), np.asarray(x2_values))
    n_rows = int(shape[-2])
    out_batch, out_rows, out_cols, out_vals = [0], [], [], []
    for k in range(len(batches[0]) - 1):
        out_rows.append(0)
        for r in range(n_rows):
            row = {}
            for side, scale in ((0, a), (1, b)):
                base = batches[side][k]
                ptr = rows_ptr[side][k * (n_rows + 1):(k + 1) * (n_rows + 1)]
                for j in range(base + ptr[r], base + ptr[r + 1]):
                    row[int(cols[side][j])] = row.get(int(cols[side][j]), 0) + \
                        scale * vals[side][j]
            out_cols += sorted(row)
            out_vals += [row[c] for c in sorted(row)]
            out_rows.append(len(out_cols) - out_batch[-1])  # this matrix's offsets
        out_batch.append(len(out_cols))
    index = rows_ptr[0].dtype
    return (shape.copy(), np.asarray(out_batch, index), np.asarray(out_rows, index),
            np.asarray(out_cols, index), np.asarray(out_vals, vals[0].dtype))


SparseMatrixAdd = OpDef("SparseMatrixAdd", _matrix_add_infer, _matrix_add,
                        differentiable=False)
