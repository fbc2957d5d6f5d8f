"""``mindspore.scipy.linalg``: triangular solves, Cholesky and LU factorisations and
solves, inverses, determinants, ``eigh`` and ``block_diag``.

As MindSpore's: integer matrices are computed in Float64; the factorisations take one
square matrix (``(N, N)``), ``solve_triangular`` a batch. Everything is made of primitives
(``SolveTriangular``, ``Cholesky``, ``LU``, ``Eigh``, ``MatrixInverse``) and ops, so it works
eagerly and inside graphs, with gradients where the primitives have them."""
from __future__ import annotations

import graphkiln.numpy as mnp
import graphkiln.ops as ops

from ..common import dtype as mstype
from ..common.tensor import Tensor
from ..ops import LU, Cholesky, Eigh, LstsqV2, MatrixInverse
from .ops import SolveTriangular, trans_code
from .utils import (
    FLOATS_AND_INTS,
    _nd_transpose,
    as_float64_if_int,
    check_dtype,
    check_solve,
    check_square,
    check_tensor,
    check_type,
)


def _flags(func: str, **flags) -> None:
    for name, value in flags.items():
        check_type(func, value, bool, name)


def solve_triangular(a, b, trans=0, lower=False, unit_diagonal=False, overwrite_b=False,
                     debug=None, check_finite=True) -> Tensor:
    """``x`` with ``op(a) x = b`` for the lower or upper triangle of each ``a`` (``trans``:
    0/'N' ``a``, 1/'T' its transpose, 2/'C' its conjugate transpose)."""
    return ops.solve_triangular(a, b, trans_code(trans), lower, unit_diagonal)


def block_diag(*arrs) -> Tensor:
    """The matrices (1-D ones as rows) along the diagonal of one block matrix."""
    if not arrs:
        return mnp.zeros((1, 0))
    if any(a.ndim > 2 for a in arrs):
        raise ValueError("Arguments to mindspore.scipy.linalg.block_diag must have at most 2 "
                         "dimensions.")
    blocks = [mnp.atleast_2d(a) for a in arrs]
    width = sum(b.shape[1] for b in blocks)
    rows, left = [], 0
    for b in blocks:
        right = width - left - b.shape[1]
        rows.append(mnp.pad(b, ((0, 0), (left, right))))
        left += b.shape[1]
    return mnp.concatenate(rows, 0)


def inv(a, overwrite_a=False, check_finite=True) -> Tensor:
    """The inverse of the square matrix ``a``."""
    _flags("inv", overwrite_a=overwrite_a, check_finite=check_finite)
    check_tensor("inv", a)
    check_square("inv", a)
    check_dtype("inv", a, FLOATS_AND_INTS)
    return MatrixInverse(adjoint=False)(as_float64_if_int(a))


def _cholesky(func: str, a, lower, overwrite_a, check_finite) -> Tensor:
    _flags(func, overwrite_a=overwrite_a, check_finite=check_finite, lower=lower)
    check_tensor(func, a)
    check_dtype(func, a, FLOATS_AND_INTS)
    check_square(func, a)
    c = Cholesky()(as_float64_if_int(a))
    return c if lower else _nd_transpose(c)


def cho_factor(a, lower=False, overwrite_a=False, check_finite=True) -> tuple:
    """``(c, lower)``: the Cholesky factor of ``a`` (lower or upper triangular) and the flag,
    for ``cho_solve``."""
    return _cholesky("cho_factor", a, lower, overwrite_a, check_finite), lower


def cholesky(a, lower=False, overwrite_a=False, check_finite=True) -> Tensor:
    """The Cholesky factor of ``a``: ``L`` with ``a = L L^T`` (``lower``) or ``U`` with
    ``a = U^T U``."""
    return _cholesky("cholesky", a, lower, overwrite_a, check_finite)


def cho_solve(c_and_lower, b, overwrite_b=False, check_finite=True) -> Tensor:
    """``x`` with ``a x = b`` given ``cho_factor(a)``: two triangular solves."""
    c, lower = c_and_lower
    _flags("cho_solve", overwrite_b=overwrite_b, check_finite=check_finite, lower=lower)
    check_tensor("cho_solve", c, "c")
    check_tensor("cho_solve", b, "b")
    check_dtype("cho_solve", c, FLOATS_AND_INTS, "c")
    check_dtype("cho_solve", b, FLOATS_AND_INTS, "b")
    check_solve("cho_solve", c, b, "c", "b")
    c, b = as_float64_if_int(c, b)
    first, second = ("N", "T") if lower else ("T", "N")
    b = SolveTriangular(lower=lower, unit_diagonal=False, trans=first)(c, b)
    return SolveTriangular(lower=lower, unit_diagonal=False, trans=second)(c, b)


def eigh(a, b=None, lower=True, eigvals_only=False, overwrite_a=False, overwrite_b=False,
         turbo=True, eigvals=None, type=1, check_finite=True):  # noqa: A002
    """Eigenvalues (ascending) and, unless ``eigvals_only``, eigenvectors (columns) of the
    symmetric or Hermitian matrix ``a`` read from its ``lower`` or upper triangle. The
    generalized problem (``b``) and ``eigvals`` are not supported (ValueError)."""
    _flags("eigh", lower=lower, eigvals_only=eigvals_only, overwrite_a=overwrite_a,
           overwrite_b=overwrite_b, turbo=turbo, check_finite=check_finite)
    check_type("eigh", type, int, "type")
    check_tensor("eigh", a)
    check_dtype("eigh", a, FLOATS_AND_INTS + (mstype.complex64, mstype.complex128))
    check_square("eigh", a)
    if b is not None:
        raise ValueError("For 'eigh', 'b' is not supported yet (it must be None).")
    if eigvals is not None:
        raise ValueError("For 'eigh', 'eigvals' is not supported yet (it must be None).")
    return Eigh(not eigvals_only, lower)(as_float64_if_int(a))


def _lu_input(func: str, a, overwrite_a, check_finite) -> Tensor:
    _flags(func, overwrite_a=overwrite_a, check_finite=check_finite)
    check_tensor(func, a)
    check_dtype(func, a, FLOATS_AND_INTS)
    return as_float64_if_int(a)


def lu_factor(a, overwrite_a=False, check_finite=True) -> tuple:
    """``(lu, piv)``: ``L`` (below the diagonal, unit diagonal implied) and ``U`` packed in
    one matrix, and LAPACK's pivots (row ``i`` was swapped with row ``piv[i]``)."""
    a = _lu_input("lu_factor", a, overwrite_a, check_finite)
    check_square("lu_factor", a)
    packed, pivots, _ = LU()(a)
    return packed, pivots


def lu(a, permute_l=False, overwrite_a=False, check_finite=True):
    """``(p, l, u)`` with ``a = p @ l @ u`` (``p`` Int32, as MindSpore's; ``(p @ l, u)``
    when ``permute_l``), for an ``(M, N)`` matrix with ``M <= N``."""
    check_type("lu", permute_l, bool, "permute_l")
    a = _lu_input("lu", a, overwrite_a, check_finite)
    if a.ndim != 2:
        raise ValueError(f"For 'lu', the dimension of 'a' should be 2, but got {a.ndim}.")
    m, n = a.shape
    if m > n:
        raise ValueError("last two dimensions of LU decomposition must be row less or equal "
                         "to col.")
    packed, _, p = LU()(a)
    k = min(m, n)
    low = mnp.tril(packed, -1)[..., :k] + mnp.eye(m, k, dtype=a.dtype)
    up = mnp.triu(packed)[:k, :]
    if permute_l:  # (MindSpore 2.10 raises a TypeError here: its p is Int32)
        return ops.matmul(ops.cast(p, a.dtype), low), up
    return p, low, up


def lu_pivots_to_permutation(pivots: Tensor, permutation_size: int) -> Tensor:
    """The row order LAPACK's ``pivots`` (one row per batch entry) apply to
    ``arange(permutation_size)``: row ``i`` swapped with row ``pivots[..., i]`` in turn."""
    batch = tuple(pivots.shape[:-1])
    positions = ops.arange(0, permutation_size, 1, dtype=mstype.int32)
    order = ops.broadcast_to(positions, batch + (permutation_size,))
    pivots = ops.cast(pivots, mstype.int32)
    for i in range(pivots.shape[-1]):
        j = ops.expand_dims(pivots[..., i], -1)
        at_i = order[..., i:i + 1]
        at_j = ops.gather_elements(order, order.ndim - 1, j)
        order = ops.select(positions == i, ops.broadcast_to(at_j, order.shape), ops.select(
            positions == j, ops.broadcast_to(at_i, order.shape), order))
    return order


def lu_solve(lu_and_piv, b, trans=0, overwrite_b=False, check_finite=True) -> Tensor:
    """``x`` with ``a x = b`` (``a^T x = b`` for ``trans`` 1 or 2) given ``lu_factor(a)``."""
    packed, pivots = lu_and_piv
    _flags("lu_solve", overwrite_b=overwrite_b, check_finite=check_finite)
    check_tensor("lu_solve", packed, "lu_matrix")
    check_tensor("lu_solve", b, "b")
    check_tensor("lu_solve", pivots, "pivot")
    check_dtype("lu_solve", packed, FLOATS_AND_INTS, "lu_matrix")
    check_dtype("lu_solve", b, FLOATS_AND_INTS, "b")
    check_dtype("lu_solve", pivots, (mstype.int32,), "pivot")
    check_solve("lu_solve", packed, b, "lu_matrix", "b")
    if pivots.ndim != 1 or pivots.shape[0] != packed.shape[0]:
        raise ValueError("For 'lu_solve', 'pivot' should hold one index per row of "
                         "'lu_matrix'.")
    if trans not in (0, 1, 2):
        raise ValueError(f"For 'lu_solve', 'trans' should be 0, 1 or 2, but got {trans}.")
    packed, b = as_float64_if_int(packed, b)
    order = lu_pivots_to_permutation(pivots, packed.shape[0])
    if trans == 0:
        x = ops.gather(b, order, 0)
        x = SolveTriangular(lower=True, unit_diagonal=True, trans="N")(packed, x)
        return SolveTriangular(lower=False, unit_diagonal=False, trans="N")(packed, x)
    x = SolveTriangular(lower=False, unit_diagonal=False, trans="T")(packed, b)
    x = SolveTriangular(lower=True, unit_diagonal=True, trans="T")(packed, x)
    inverse = ops.argsort(order)  # undo the row order
    return ops.gather(x, ops.cast(inverse, mstype.int32), 0)


def lstsq(A, B, rcond=None, driver=None) -> tuple:  # noqa: N803  (MindSpore's names)
    """``(solution, residual, rank, singular_values)`` of the least-squares problem ``A X
    = B`` (batches broadcast); which of the last three are computed depends on LAPACK's
    ``driver`` (``gelsy`` by default), the others are empty."""
    return LstsqV2(driver=driver)(A, B)


def det(a, overwrite_a=False, check_finite=True) -> Tensor:
    """The determinant of the square matrix ``a`` (from its LU factors)."""
    _flags("det", overwrite_a=overwrite_a, check_finite=check_finite)
    check_tensor("det", a)
    check_square("det", a)
    check_dtype("det", a, FLOATS_AND_INTS)
    a = as_float64_if_int(a)
    packed, pivots = lu_factor(a)
    n = a.shape[-1]
    swaps = ops.reduce_sum(ops.cast(pivots != ops.arange(0, n, 1, dtype=mstype.int32),
                                    mstype.int32))
    sign = 1.0 - 2.0 * ops.cast(swaps % 2, a.dtype)
    return sign * ops.reduce_prod(ops.diagonal(packed, 0, -2, -1), -1)
