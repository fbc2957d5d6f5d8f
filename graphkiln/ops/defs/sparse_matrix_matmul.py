"""``SparseMatrixMatMul`` (MindSpore's ``ops.operations.sparse_ops.SparseMatrixMatMul``): a
CSR matrix (or a batch of them: ``batch_pointers`` delimit each matrix's values) times a
dense matrix, either side transposed or adjointed first, the product transposed and/or
conjugated after. The product's rows come from the CSR dense shape, a run-time value
inside a graph unless it is a constant."""
from __future__ import annotations

import numpy as np

from ...common import dtype as mstype
from ...ir.abstract import AbstractTensor
from ...ir.primitive import OpDef
from ._infer import INDEX_TYPES, UNKNOWN_DIM, quiet, require_dtype, same_type

_NAME = "SparseMatrixMatMul"
_VALUES = (mstype.float32, mstype.float64, mstype.complex64, mstype.complex128)
_FLAGS = ("transpose_x1", "transpose_x2", "adjoint_x1", "adjoint_x2", "transpose_output",
          "conjugate_output")


def _check_attrs(attrs: dict) -> None:
    for flag in _FLAGS:
        if not isinstance(attrs[flag], bool):
            raise TypeError(f"For '{_NAME}', the type of '{flag}' should be 'bool', but got "
                            f"type '{type(attrs[flag]).__name__}'.")
    for side in ("x1", "x2"):
        if attrs[f"adjoint_{side}"] and attrs[f"transpose_{side}"]:
            raise ValueError(f"For {_NAME}, only one of adjoint_{side} and transpose_{side} "
                             f"may be true, but got adjoint_{side} = 1, and transpose_{side} "
                             f"= 1.")


def _swapped(attrs: dict, side: str) -> bool:
    return attrs[f"transpose_{side}"] or attrs[f"adjoint_{side}"]


def _infer(x1_dense_shape, x1_batch_pointers, x1_row_pointers, x1_col_indices, x1_values,
           x2_dense, **attrs):
    attrs = {flag: False for flag in _FLAGS} | attrs
    index = same_type(_NAME, {"x1_dense_shape": x1_dense_shape,
                              "x1_batch_pointers": x1_batch_pointers,
                              "x1_row_pointers": x1_row_pointers,
                              "x1_col_indices": x1_col_indices})
    require_dtype(_NAME, "x1_dense_shape", index, INDEX_TYPES)
    t = same_type(_NAME, {"x1_values": x1_values, "x2_dense": x2_dense})
    require_dtype(_NAME, "x1_values", t, _VALUES)
    for arg, a in (("x1_dense_shape", x1_dense_shape), ("x1_batch_pointers", x1_batch_pointers),
                   ("x1_row_pointers", x1_row_pointers), ("x1_col_indices", x1_col_indices),
                   ("x1_values", x1_values)):
        if len(a.shape) != 1:
            raise ValueError(f"For {_NAME}, the '{arg}' must be 1-D, but got shape "
                             f"{list(a.shape)}.")
    rank = len(x2_dense.shape)
    if rank not in (2, 3) or x1_dense_shape.shape[0] not in (UNKNOWN_DIM, rank):
        raise ValueError(f"For {_NAME}, the rank of 'x2_dense' must be 2 or 3 and match the "
                         f"length of 'x1_dense_shape', but got {rank} and "
                         f"{x1_dense_shape.shape[0]}.")
    dense = None if x1_dense_shape.value is None else \
        np.asarray(x1_dense_shape.value).reshape(-1).tolist()
    rows = UNKNOWN_DIM if dense is None else dense[-1 if _swapped(attrs, "x1") else -2]
    cols = x2_dense.shape[-2 if _swapped(attrs, "x2") else -1]
    out = (rows, cols)[::-1] if attrs["transpose_output"] else (rows, cols)
    return AbstractTensor(t, tuple(x2_dense.shape[:-2]) + out)


def _op(m: np.ndarray, transpose: bool, adjoint: bool) -> np.ndarray:
    m = np.swapaxes(m, -1, -2) if transpose or adjoint else m
    return np.conj(m) if adjoint else m


@quiet
def _kernel(x1_dense_shape, x1_batch_pointers, x1_row_pointers, x1_col_indices, x1_values,
            x2_dense, transpose_x1=False, transpose_x2=False, adjoint_x1=False,
            adjoint_x2=False, transpose_output=False, conjugate_output=False):
    """The CSR matrices made dense (a repeated position adds up), then the products."""
    shape = [int(d) for d in np.asarray(x1_dense_shape).reshape(-1)]
    if len(shape) == 2:
        shape = [1] + shape
        x2 = x2_dense[None]
    else:
        x2 = x2_dense
    batches, rows, cols = shape
    if len(x1_batch_pointers) != batches + 1 or len(x1_row_pointers) != batches * (rows + 1) \
            or x2.shape[0] != batches:
        raise ValueError(f"For {_NAME}, the batch pointers, row pointers and 'x2_dense' must "
                         f"describe {batches} matrices of {rows} rows, but got "
                         f"{len(x1_batch_pointers)} batch pointers, {len(x1_row_pointers)} row "
                         f"pointers and 'x2_dense' of shape {list(x2_dense.shape)}.")
    x1 = np.zeros((batches, rows, cols), x1_values.dtype)
    for b in range(batches):
        start = int(x1_batch_pointers[b])
        pointers = np.asarray(x1_row_pointers[b * (rows + 1):(b + 1) * (rows + 1)], np.int64)
        row_of = np.repeat(np.arange(rows), np.diff(pointers))
        at = slice(start, start + row_of.size)
        columns = np.asarray(x1_col_indices[at], np.int64)
        if columns.size and (columns.min() < 0 or columns.max() >= cols):
            raise ValueError(f"For {_NAME}, the column indices of batch {b} must be in [0, "
                             f"{cols}), but got {columns.tolist()}.")
        np.add.at(x1[b], (row_of, columns), x1_values[at])
    a, c = _op(x1, transpose_x1, adjoint_x1), _op(x2, transpose_x2, adjoint_x2)
    if a.shape[-1] != c.shape[-2]:
        raise ValueError(f"For {_NAME}, x1's col and x2's row must be the same, but got x1_col "
                         f"= {a.shape[-1]}, and x2_row = {c.shape[-2]}.")
    y = np.matmul(a, c)
    y = np.swapaxes(y, -1, -2) if transpose_output else y
    y = np.conj(y) if conjugate_output else y
    return np.ascontiguousarray(y if len(x1_dense_shape) == 3 else y[0])


SparseMatrixMatMul = OpDef(_NAME, _infer, _kernel, differentiable=False,
                           attrs={flag: False for flag in _FLAGS}, check_attrs=_check_attrs)
