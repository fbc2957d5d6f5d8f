"""The operators, conversions and functions of ``COOTensor`` and ``CSRTensor``
(``common/sparse_tensor.py``), composed of primitives so that they trace into graphs and
differentiate as MindSpore's: ``to_dense``, ``to_csr``/``to_coo``, ``astype``, ``abs``,
``-x``, ``x + y`` and ``x - y`` with a dense tensor, ``x * dense`` and ``x / dense`` (the
dense tensor read at the stored positions), ``csr_reduce_sum``, ``csr_mv``, ``csr.mm``.

The element-wise functions ``ops.csr_cos``, ``ops.coo_relu``... apply the dense function
to the stored values (``sparse_unary.py``)."""
from __future__ import annotations

import graphkiln.ops.functional as F

from ..common import dtype as mstype
from ..common.sparse_tensor import COOTensor, CSRTensor, SparseBase
from ..common.tensor import Tensor
from .clip_ops import stop_gradient
from .defs.sparse_add import SparseAdd, SparseMatrixAdd
from .searching import searchsorted
from .segments import unsorted_segment_sum

__all__ = ["coo_add", "coo_concat", "coo_to_csr", "coo_to_dense", "csr_add", "csr_div",
           "csr_mul", "csr_mv", "csr_reduce_sum", "csr_to_coo", "csr_to_dense",
           "dense_to_sparse_coo", "dense_to_sparse_csr"]


def _same_shape(x, other, op: str) -> None:
    if x.shape != other.shape:
        raise ValueError(f"For '{op}', input tensors should have the same shape, but got "
                         f"{x.shape} and {other.shape}.")


# ------------------------------------------------------------------------------ CSR
def csr_rows_of(indptr: Tensor, indices: Tensor) -> Tensor:
    """The row of each stored value: how many row ends ``indptr[1:]`` are at or before it
    (in the dtype of ``indices``)."""
    positions = F.cast(F.range(0, indices.shape[0], 1), indptr.dtype)
    return F.cast(searchsorted(indptr[1:], positions, right=True), indices.dtype)


def csr_rows(x: CSRTensor) -> Tensor:
    """The row of each stored value of ``x``."""
    return csr_rows_of(x.indptr, x.indices)


def csr_to_coo(x: CSRTensor) -> COOTensor:
    """The same tensor with one ``(row, column)`` index per stored value."""
    if not isinstance(x, CSRTensor):
        raise TypeError(f"For 'csr_to_coo', the input must be CSRTensor, but got "
                        f"{type(x).__name__}.")
    indices = F.stack((csr_rows(x), x.indices), 1)
    return COOTensor(indices, x.values, x.shape)


def _coo_indices(x: CSRTensor) -> Tensor:
    return F.stack((csr_rows(x), x.indices), 1)


def csr_to_dense(x: CSRTensor) -> Tensor:
    """The dense tensor (values at repeated positions are summed)."""
    if not isinstance(x, CSRTensor):
        raise TypeError(f"For 'csr_to_dense', the input must be CSRTensor, but got "
                        f"{type(x).__name__}.")
    return F.tensor_scatter_add(F.zeros(x.shape, x.values.dtype), _coo_indices(x), x.values)


def _dense_at_stored(x: CSRTensor, dense: Tensor, op: str) -> Tensor:
    """``dense`` broadcast to the shape of ``x``, read at its stored positions."""
    if not isinstance(dense, Tensor):
        raise TypeError(f"For '{op}', the second input must be Tensor, but got "
                        f"{type(dense).__name__}.")
    return F.gather_nd(F.broadcast_to(dense, x.shape), _coo_indices(x))


def csr_mul(x: CSRTensor, y: Tensor) -> CSRTensor:
    """``x`` times the dense ``y`` (broadcast to ``x.shape``) where ``x`` stores values."""
    values = x.values * _dense_at_stored(x, y, "csr_mul")
    return CSRTensor(x.indptr, x.indices, values, x.shape)


def csr_div(x: CSRTensor, y: Tensor) -> CSRTensor:
    """``x`` divided by the dense ``y`` (broadcast to ``x.shape``) where ``x`` stores
    values."""
    values = x.values / _dense_at_stored(x, y, "csr_div")
    return CSRTensor(x.indptr, x.indices, values, x.shape)


def csr_reduce_sum(csr_tensor: CSRTensor, axis: int) -> Tensor:
    """The sum over the columns (``axis`` 1 or -ndim+1), kept as a dimension of size 1."""
    if not isinstance(csr_tensor, CSRTensor):
        raise TypeError(f"For 'csr_reduce_sum', the input must be CSRTensor, but got "
                        f"{type(csr_tensor).__name__}.")
    ndim = len(csr_tensor.shape)
    if not isinstance(axis, int) or axis % ndim != 1:
        raise ValueError(f"For 'csr_reduce_sum', only the reduction along axis 1 is "
                         f"supported, but got axis {axis}.")
    sums = unsorted_segment_sum(csr_tensor.values, csr_rows(csr_tensor), csr_tensor.shape[0])
    return F.expand_dims(sums, 1)


def csr_mv(csr_tensor: CSRTensor, dense: Tensor) -> Tensor:
    """The matrix-vector product with ``dense`` of shape ``[columns, 1]``."""
    if not isinstance(csr_tensor, CSRTensor) or not isinstance(dense, Tensor):
        raise TypeError("For 'csr_mv', the inputs must be a CSRTensor and a Tensor.")
    return csr_matmul(csr_tensor, dense)


def csr_matmul(x: CSRTensor, dense: Tensor) -> Tensor:
    """``x @ dense`` for a 2-D ``x`` and a 2-D dense matrix."""
    if len(dense.shape) != 2 or dense.shape[0] != x.shape[1]:
        raise ValueError(f"For 'CSRTensor.mm', the dense matrix must have shape "
                         f"[{x.shape[1]}, k], but got {list(dense.shape)}.")
    products = F.expand_dims(x.values, 1) * F.gather(dense, x.indices, 0)
    return unsorted_segment_sum(products, csr_rows(x), x.shape[0])


def csr_add(a: CSRTensor, b: CSRTensor, alpha: Tensor, beta: Tensor) -> CSRTensor:
    """``alpha * a + beta * b`` of two CSR matrices of one shape (the union of their stored
    positions)."""
    if not isinstance(a, CSRTensor) or not isinstance(b, CSRTensor):
        raise TypeError(f"For 'csr_add', the inputs 'a' and 'b' must be CSRTensor, but got "
                        f"{type(a).__name__} and {type(b).__name__}.")
    if not isinstance(alpha, Tensor) or not isinstance(beta, Tensor):
        raise TypeError("For 'csr_add', 'alpha' and 'beta' must be Tensors.")
    index = a.indptr.dtype

    def parts(x: CSRTensor) -> tuple:
        # one matrix: its values are [0, nnz) (nnz: indptr[-1], known when a graph runs)
        batch = F.concat((x.indptr[:1] * 0, x.indptr[-1:]))
        return (Tensor(list(x.shape), index), batch, x.indptr, x.indices, x.values)
    out = SparseMatrixAdd(*parts(a), *parts(b), alpha, beta)
    return CSRTensor(out[2], out[3], out[4], a.shape)


def _csr_add_method(self: CSRTensor, b: CSRTensor, alpha: Tensor, beta: Tensor) -> CSRTensor:
    return csr_add(self, b, alpha, beta)


def _csr_sum_of(sign: int, op: str):
    """``csr ± csr`` (MindSpore has no CSR ± dense)."""
    def method(self: CSRTensor, other):
        if not isinstance(other, CSRTensor):
            raise TypeError(f"CSRTensor {op} with {type(other)} is not supported.")
        _same_shape(self, other, f"CSRTensor.__{op}__")
        one = Tensor(1, self.values.dtype)
        return csr_add(self, other, one, Tensor(sign, self.values.dtype))
    return method


def _csr_mm(self: CSRTensor, matrix):
    if isinstance(matrix, CSRTensor):
        raise TypeError("For 'CSRTensor.mm', a CSRTensor right operand is supported on GPU "
                        "only (MindSpore CPU has no kernel for it).")
    return csr_matmul(self, matrix)


def _csr_sum(self: CSRTensor, axis: int) -> Tensor:
    return csr_reduce_sum(self, axis)


def _csr_mul(self: CSRTensor, other):
    return csr_mul(self, other)


def _csr_div(self: CSRTensor, other):
    return csr_div(self, other)


def _csr_neg(self: CSRTensor) -> CSRTensor:
    return CSRTensor(self.indptr, self.indices, -self.values, self.shape)


def _csr_astype(self: CSRTensor, dtype) -> CSRTensor:
    return CSRTensor(self.indptr, self.indices, self.values.astype(dtype), self.shape)


def _csr_abs(self: CSRTensor) -> CSRTensor:
    return CSRTensor(self.indptr, self.indices, F.abs(self.values), self.shape)


# ------------------------------------------------------------------------------ COO
def coo_to_dense(x: COOTensor) -> Tensor:
    """The dense tensor (values at repeated positions are summed)."""
    return F.tensor_scatter_add(F.zeros(x.shape, x.values.dtype), x.indices, x.values)


def coo_to_csr(x: COOTensor) -> CSRTensor:
    """The same tensor with its values ordered by row and the rows compressed."""
    rows, order = F.sort(F.cast(x.indices[:, 0], mstype.float32))
    rows = F.cast(rows, x.indices.dtype)
    columns = F.gather(x.indices[:, 1], order, 0)
    values = F.gather(x.values, order, 0)
    starts = F.cast(F.range(0, x.shape[0] + 1, 1), rows.dtype)
    indptr = F.cast(searchsorted(rows, starts), x.indices.dtype)
    return CSRTensor(indptr, columns, values, x.shape)


def _coo_binary(op: str, sign: int, reflected: bool = False):
    """``coo ± dense`` (and ``dense ± coo``): a dense tensor with the values added."""
    def method(self: COOTensor, other):
        if isinstance(other, Tensor):
            _same_shape(self, other, op)
            base = -other if sign < 0 and not reflected else other
            values = -self.values if sign < 0 and reflected else self.values
            return F.tensor_scatter_add(base, self.indices, values)
        if isinstance(other, COOTensor) and not reflected:
            _same_shape(self, other, op)
            return coo_add(self, other if sign > 0 else -other,
                           Tensor(0, self.values.dtype))
        return NotImplemented
    return method


def coo_add(x1: COOTensor, x2: COOTensor, thresh: Tensor) -> COOTensor:
    """The sum of two COO tensors of one shape: where both store a value, the sum is kept
    only if ``|sum| >= thresh``."""
    if not isinstance(x1, COOTensor) or not isinstance(x2, COOTensor):
        raise TypeError(f"For 'coo_add', the inputs 'x1' and 'x2' must be COOTensor, but got "
                        f"{type(x1).__name__} and {type(x2).__name__}.")
    if not isinstance(thresh, Tensor):
        raise TypeError(f"For 'coo_add', the 'thresh' must be a Tensor, but got "
                        f"{type(thresh).__name__}.")
    shape = Tensor(list(x1.shape), mstype.int64)
    indices, values, _ = SparseAdd(x1.indices, x1.values, shape, x2.indices, x2.values,
                                   Tensor(list(x2.shape), mstype.int64), thresh)
    return COOTensor(indices, values, x1.shape)


def coo_concat(sp_input, concat_dim: int = 0) -> COOTensor:
    """The COO tensors of ``sp_input`` joined along ``concat_dim``: each one's indices moved
    by the sizes before it, all entries in row-major order (as MindSpore's kernel)."""
    if not isinstance(sp_input, (tuple, list)) or not all(
            isinstance(x, COOTensor) for x in sp_input):
        raise TypeError(f"For 'coo_concat', the 'sp_input' must be a tuple or list of "
                        f"COOTensor, but got {type(sp_input).__name__}.")
    if len(sp_input) < 2:
        raise ValueError(f"For 'coo_concat', the 'sp_input' must hold at least 2 COOTensors, "
                         f"but got {len(sp_input)}.")
    if isinstance(concat_dim, bool) or not isinstance(concat_dim, int):
        raise TypeError(f"For 'coo_concat', the 'concat_dim' must be an int, but got "
                        f"{type(concat_dim).__name__}.")
    first = sp_input[0]
    rank = len(first.shape)
    if not -rank <= concat_dim < rank:
        raise IndexError(f"For 'coo_concat', the 'concat_dim' must be in [{-rank}, {rank}), "
                         f"but got {concat_dim}.")
    dim = concat_dim % rank
    for k, x in enumerate(sp_input):
        if x.indices.dtype != mstype.int64:
            raise TypeError(f"For 'coo_concat', the indices must be int64, but input {k}'s "
                            f"are {x.indices.dtype}.")
        if x.values.dtype != first.values.dtype:
            raise TypeError(f"For 'coo_concat', every input must have the values' dtype of "
                            f"the first {first.values.dtype}, but input {k}'s are "
                            f"{x.values.dtype}.")
        if len(x.shape) != rank or any(a != b for i, (a, b) in enumerate(
                zip(x.shape, first.shape)) if i != dim):
            raise RuntimeError(f"For 'coo_concat', the shapes of the inputs must agree "
                               f"outside 'concat_dim' {concat_dim}, but got {first.shape} and "
                               f"input {k}'s {x.shape}.")
    parts, offset = [], 0
    for x in sp_input:
        step = [0] * rank
        step[dim] = offset
        parts.append(F.add(x.indices, Tensor([step], x.indices.dtype)))
        offset += x.shape[dim]
    shape = tuple(first.shape[:dim]) + (offset,) + tuple(first.shape[dim + 1:])
    indices = F.concat(tuple(parts), 0)
    values = F.concat(tuple(x.values for x in sp_input), 0)
    strides = [1] * rank
    for i in range(rank - 2, -1, -1):
        strides[i] = strides[i + 1] * shape[i + 1]
    key = F.reduce_sum(F.mul(F.cast(indices, mstype.int64), Tensor([strides], mstype.int64)), 1)
    order = F.argsort(key)
    return COOTensor(F.gather(indices, order, 0), F.gather(values, order, 0), shape)


def _coo_add_method(self: COOTensor, other: COOTensor, thresh: Tensor) -> COOTensor:
    return coo_add(self, other, thresh)


def _coo_mul(self: COOTensor, other):
    if not isinstance(other, Tensor):
        return NotImplemented
    _same_shape(self, other, "COOTensor.__mul__")
    return COOTensor(self.indices, self.values * F.gather_nd(other, self.indices), self.shape)


def _coo_div(self: COOTensor, other):
    if not isinstance(other, Tensor):
        return NotImplemented
    _same_shape(self, other, "COOTensor.__div__")
    return COOTensor(self.indices, self.values / F.gather_nd(other, self.indices), self.shape)


def _coo_neg(self: COOTensor) -> COOTensor:
    return COOTensor(self.indices, -self.values, self.shape)


def _coo_astype(self: COOTensor, dtype) -> COOTensor:
    return COOTensor(self.indices, self.values.astype(dtype), self.shape)


def _coo_abs(self: COOTensor) -> COOTensor:
    return COOTensor(self.indices, F.abs(self.values), self.shape)


# ---------------------------------------------------------------------------- dense
def _nonzero_2d(tensor: Tensor, op: str, kind: str) -> Tensor:
    if not isinstance(tensor, Tensor):
        raise TypeError(f"For functional operator {op}, input argument must be a Tensor.")
    if len(tensor.shape) > 2:
        raise ValueError(f"Currently only support 2-D Tensor when converting to {kind}.")
    return F.cast(F.nonzero(tensor), mstype.int32)


def dense_to_sparse_coo(tensor: Tensor) -> COOTensor:
    """The non-zero elements of a 2-D tensor, in row-major order."""
    indices = _nonzero_2d(tensor, "dense_to_sparse_coo", "COOTensor")
    return COOTensor(indices, F.gather_nd(tensor, indices), tuple(tensor.shape))


def dense_to_sparse_csr(tensor: Tensor) -> CSRTensor:
    """The non-zero elements of a 2-D tensor, rows compressed."""
    indices = _nonzero_2d(tensor, "dense_to_sparse_csr", "CSRTensor")
    starts = F.range(0, tensor.shape[0] + 1, 1)
    indptr = F.cast(searchsorted(indices[:, 0], F.cast(starts, mstype.int32)), mstype.int32)
    return CSRTensor(indptr, indices[:, 1], F.gather_nd(tensor, indices), tuple(tensor.shape))


def _attach() -> None:
    SparseBase._freeze_index = staticmethod(stop_gradient)
    Tensor.to_coo, Tensor.to_csr = dense_to_sparse_coo, dense_to_sparse_csr
    for name, fn in (("to_dense", csr_to_dense), ("to_coo", csr_to_coo), ("mm", _csr_mm),
                     ("mv", csr_mv), ("sum", _csr_sum), ("astype", _csr_astype),
                     ("abs", _csr_abs), ("__neg__", _csr_neg), ("__mul__", _csr_mul),
                     ("__rmul__", _csr_mul), ("__truediv__", _csr_div),
                     ("add", _csr_add_method), ("__add__", _csr_sum_of(1, "add")),
                     ("__sub__", _csr_sum_of(-1, "subtract"))):
        setattr(CSRTensor, name, fn)
    for name, fn in (("to_dense", coo_to_dense), ("to_csr", coo_to_csr),
                     ("astype", _coo_astype), ("abs", _coo_abs), ("__neg__", _coo_neg),
                     ("__add__", _coo_binary("COOTensor.__add__", 1)),
                     ("__radd__", _coo_binary("COOTensor.__add__", 1, True)),
                     ("__sub__", _coo_binary("COOTensor.__sub__", -1)),
                     ("__rsub__", _coo_binary("COOTensor.__sub__", -1, True)),
                     ("__mul__", _coo_mul), ("__rmul__", _coo_mul),
                     ("__truediv__", _coo_div), ("add", _coo_add_method)):
        setattr(COOTensor, name, fn)


_attach()
