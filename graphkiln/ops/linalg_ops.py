"""``ops.svd``, ``ops.qr``, ``ops.cholesky``, ``ops.det``, ``ops.slogdet``, ``ops.logdet``,
``ops.inverse``, ``ops.matrix_power``, ``ops.matrix_exp``, ``ops.eig``, ``ops.eigvals``,
``ops.cond`` and ``triangular_solve`` (``mint``'s) over the primitives of
:mod:`.defs.decompositions` and matmul."""
from __future__ import annotations

import math

import numpy as np

import graphkiln.ops.functional as F

from ..common import dtype as mstype
from ..common.tensor import Tensor
from .array_ops import tril, triu
from .defs import decompositions as D
from .defs.linalg import SolveTriangular
from .norms import norm

__all__ = ["lstsq", "svd", "det", "matrix_determinant", "slogdet", "log_matrix_determinant",
           "logdet", "inverse", "matrix_power", "matrix_exp", "qr", "geqrf", "cholesky", "pinv",
           "cholesky_solve", "cholesky_inverse", "adjoint", "eig", "eigvals",
           "solve_triangular", "lu_solve", "cond", "orgqr"]


def matrix_exp(input: Tensor) -> Tensor:  # noqa: A002
    """The exponential of each square matrix of the last two axes."""
    return D.MatrixExp(input)


def lstsq(input: Tensor, A: Tensor) -> Tensor:  # noqa: N803  (MindSpore's name)
    """The least-squares solution ``X`` of ``input @ X = A`` (shape ``(n, k)``; a 1-D
    ``A`` gives one column)."""
    return D.Lstsq(input, A)


def svd(input: Tensor, full_matrices: bool = False, compute_uv: bool = True):
    """``(s, u, v)`` with ``input = u @ diag(s) @ v^T`` (``s`` alone without
    ``compute_uv``); ``full_matrices`` gives square ``u`` and ``v``."""
    s, u, v = D.Svd(input, full_matrices=full_matrices, compute_uv=compute_uv)
    return (s, u, v) if compute_uv else s


def det(input: Tensor) -> Tensor:
    """The determinant of each square matrix of the last two axes."""
    return D.MatrixDeterminant(input)


matrix_determinant = det


def slogdet(input: Tensor) -> tuple:
    """``(sign, log|det|)`` of each square matrix of the last two axes."""
    return D.LogMatrixDeterminant(input)


log_matrix_determinant = slogdet


def logdet(input: Tensor) -> Tensor:
    """``log(det)``: NaN for a negative determinant, -inf for a singular matrix."""
    sign, logabs = D.LogMatrixDeterminant(input)
    return F.select(F.less(sign, 0), F.fill(logabs.dtype, (), math.nan), logabs)


def inverse(input: Tensor) -> Tensor:
    """The inverse of each square matrix of the last two axes."""
    return D.MatrixInverse(input)


def cond(A: Tensor, p=None) -> Tensor:  # noqa: N803  (MindSpore's name)
    """The condition number ``norm(A, p) * norm(inverse(A), p)`` of each square matrix of
    the last two axes (``p`` as :func:`norm`'s matrix ``ord``; None: 2, the ratio of the
    extreme singular values)."""
    p = 2 if p is None else p
    if not isinstance(A, Tensor) or A.ndim < 2:
        raise ValueError(f"For 'cond', the 'A' must be a Tensor of square matrices, but got "
                         f"{A.shape if isinstance(A, Tensor) else type(A).__name__}.")
    return F.mul(norm(A, p, (-2, -1)), norm(inverse(A), p, (-2, -1)))


def matrix_power(input: Tensor, n: int) -> Tensor:
    """``input`` multiplied by itself ``n`` times (the identity for 0; the inverse's power
    for negative ``n``), by repeated squaring."""
    if not isinstance(n, int) or isinstance(n, bool):
        raise TypeError(f"For 'MatrixPower', the type of 'n' should be 'int', but got type "
                        f"'{type(n).__name__}'.")
    if input.ndim < 2 or input.shape[-1] != input.shape[-2]:
        raise ValueError(f"For 'MatrixPower', the input must be a batch of square matrices, "
                         f"but got shape {input.shape}.")
    base = inverse(input) if n < 0 else input
    result, n = None, abs(n)
    while n:
        if n & 1:
            result = base if result is None else F.matmul(result, base)
        n >>= 1
        if n:
            base = F.matmul(base, base)
    if result is None:
        eye = F.eye(input.shape[-1], input.shape[-1], input.dtype)
        return F.broadcast_to(eye, input.shape) if input.ndim > 2 else eye
    return result


def geqrf(input: Tensor) -> tuple:  # noqa: A002
    """``(y, tau)``: the QR factorisation as LAPACK's ``geqrf`` packs it (``r`` on and above
    the diagonal of ``y``, Householder vectors below, their scales in ``tau``)."""
    return D.Geqrf(input)


def qr(input: Tensor, mode: str = "reduced") -> tuple:
    """``(q, r)`` with ``input = q @ r``: ``q`` with orthonormal columns (square for
    ``'complete'``), ``r`` upper triangular."""
    if mode not in ("reduced", "complete"):
        raise TypeError(f"For qr, the arg mode must be 'reduced' or 'complete', but got "
                        f"{mode}.")
    return D.Qr(input, full_matrices=mode == "complete")


def cholesky(input_x: Tensor, upper: bool = False) -> Tensor:
    """The Cholesky factor of each symmetric positive definite matrix: lower triangular
    ``L`` with ``input_x = L @ L^T`` (upper ``U = L^T`` with ``upper``)."""
    return D.Cholesky(input_x, upper=bool(upper))


def triangular_solve(b, A, upper=True, transpose=False,  # noqa: N803 - MindSpore's name
                     unitriangular=False) -> tuple:
    """The solution ``X`` of ``op(A) X = b`` for the triangle of ``A`` (its upper one by
    default; ``op`` the transpose when ``transpose``; a unit diagonal when
    ``unitriangular``), and that triangle."""
    tri = triu(A) if upper else tril(A)
    if unitriangular:
        n = A.shape[-1]
        eye = F.eye(n, n, A.dtype)
        tri = F.add(F.mul(tri, F.sub(1, eye)), eye)
    matrix = F.swapaxes(tri, -1, -2) if transpose else tri
    return F.matrix_solve(matrix, b), tri


def adjoint(x: Tensor) -> Tensor:
    """The conjugate transpose of the matrices of the last two axes."""
    t = F.swapaxes(x, -1, -2)
    return F.conj(t) if t.dtype.is_complex else t


def pinv(x: Tensor, *, atol=None, rtol=None, hermitian: bool = False) -> Tensor:
    """The Moore-Penrose pseudo-inverse: singular values at or below ``max(atol, rtol *
    largest)`` count as 0 (``rtol`` = eps * max(m, n) when neither is given)."""
    if not isinstance(x, Tensor) or x.ndim < 2 or not x.dtype.is_float:
        raise TypeError("For 'pinv', 'x' must be a float Tensor of at least 2 dimensions.")
    s, u, v = D.Svd(x, full_matrices=False, compute_uv=True)
    if atol is None and rtol is None:
        rtol = float(np.finfo(x.dtype.np_dtype).eps) * max(x.shape[-2:])
    largest = F.reduce_max(s, -1, True)
    cutoff = F.maximum(F.mul(largest, 0.0 if rtol is None else rtol),
                       0.0 if atol is None else atol)
    keep = F.greater(s, cutoff)
    inv_s = F.select(keep, F.reciprocal(F.select(keep, s, F.ones_like(s))), F.zeros_like(s))
    return F.matmul(F.mul(v, F.expand_dims(inv_s, -2)), F.swapaxes(u, -1, -2))


def cholesky_solve(input: Tensor, input2: Tensor, upper: bool = False) -> Tensor:  # noqa: A002
    """The solution ``X`` of ``A X = input`` for ``A = L L^T`` given its Cholesky factor
    ``input2`` (``L``, or ``U = L^T`` when ``upper``)."""
    lower = F.swapaxes(input2, -1, -2) if upper else input2
    half = F.matrix_solve(lower, input)
    return F.matrix_solve(F.swapaxes(lower, -1, -2), half)


def cholesky_inverse(input_x: Tensor, upper: bool = False) -> Tensor:
    """The inverse of ``A = L L^T`` (``U^T U`` when ``upper``) from its Cholesky factor."""
    n = input_x.shape[-1]
    eye = F.broadcast_to(F.eye(n, n, input_x.dtype), tuple(input_x.shape))
    return cholesky_solve(eye, input_x, upper)


def eig(A: Tensor) -> tuple:  # noqa: N803  (MindSpore's name)
    """``(eigenvalues, eigenvectors)`` of square ``A`` (complex; vectors as columns)."""
    return D.Eig(A, compute_v=True)


def eigvals(A: Tensor) -> Tensor:  # noqa: N803  (MindSpore's name)
    """The (complex) eigenvalues of square ``A``."""
    return D.Eig(A, compute_v=False)[0]


def solve_triangular(a: Tensor, b: Tensor, trans=0, lower: bool = False,
                     unit_diagonal: bool = False) -> Tensor:
    """``X`` with ``op(A) X = b`` for the lower or upper triangle of ``a`` (``trans``: 0,
    1 or 2 for ``A``, ``A^T``, ``A^H``; ``unit_diagonal`` takes the diagonal as ones)."""
    return SolveTriangular(a, b, trans=trans, lower=lower, unit_diagonal=unit_diagonal)


def _swap_rows(rows: Tensor, i: int, j: Tensor) -> Tensor:
    """``rows`` with row ``i`` and row ``j`` (one per batch, as a one-hot ``(*, m)``)
    exchanged: the product with ``I - e_i e_i' - e_j e_j' + e_i e_j' + e_j e_i'``."""
    m = rows.shape[-2]
    e_i = F.one_hot(Tensor(i), m, Tensor(1, rows.dtype), Tensor(0, rows.dtype))
    outer = lambda u, v: F.mul(F.expand_dims(u, -1), F.expand_dims(v, -2))  # noqa: E731
    swap = F.add(F.sub(F.sub(F.eye(m, m, rows.dtype), outer(e_i, e_i)), outer(j, j)),
                 F.add(outer(e_i, j), outer(j, e_i)))
    return F.matmul(swap, rows)


def lu_solve(b: Tensor, LU_data: Tensor, LU_pivots: Tensor) -> Tensor:  # noqa: N803
    """``x`` with ``A x = b`` from ``A``'s LU factorisation: ``LU_data`` holds the unit lower
    ``L`` and the upper ``U`` of ``P A = L U``, ``LU_pivots`` the 1-based row each row was
    exchanged with, in order (LAPACK's ``getrf``); batches ``(*, m, k)``, ``(*, m, m)``,
    ``(*, m)``."""
    m = LU_data.shape[-1]
    rows = b
    for i in range(m):
        j = F.one_hot(F.sub(F.cast(LU_pivots[..., i], mstype.int64), 1), m,
                      Tensor(1, b.dtype), Tensor(0, b.dtype))
        rows = _swap_rows(rows, i, j)
    y = SolveTriangular(LU_data, rows, lower=True, unit_diagonal=True)
    return SolveTriangular(LU_data, y, lower=False)


_ORGQR_TYPES = (mstype.float32, mstype.float64, mstype.complex64, mstype.complex128)


def _check_orgqr(x, tau) -> None:
    if not (isinstance(x, Tensor) and isinstance(tau, Tensor)):
        raise TypeError("For 'Orgqr', 'x' and 'tau' must be Tensors of the same type, but got "
                        f"{type(x).__name__} and {type(tau).__name__}.")
    for name, t in (("x", x), ("tau", tau)):
        if t.dtype not in _ORGQR_TYPES:
            raise TypeError(f"For 'Orgqr', '{name}' must be float32, float64, complex64 or "
                            f"complex128, but got {t.dtype}.")
    if x.dtype != tau.dtype:
        raise TypeError(f"For 'Orgqr', 'x' and 'tau' must have the same type, but got "
                        f"{x.dtype} and {tau.dtype}.")
    if x.ndim < 2:
        raise ValueError(f"For 'Orgqr', the rank of 'x' must be at least 2, but got {x.ndim}.")
    m, n = x.shape[-2:]
    if m < n:
        raise ValueError(f"For 'Orgqr', x.shape[-2] must be at least x.shape[-1], but got "
                         f"{m} and {n}.")
    if tau.ndim != x.ndim - 1 or tuple(tau.shape[:-1]) != tuple(x.shape[:-2]):
        raise ValueError(f"For 'Orgqr', 'tau' must have the batch shape of 'x' and one more "
                         f"axis, but got shapes {tuple(tau.shape)} and {tuple(x.shape)}.")
    if tau.shape[-1] > n:
        raise ValueError(f"For 'Orgqr', x.shape[-1] must be at least tau.shape[-1], but got "
                         f"{n} and {tau.shape[-1]}.")


def orgqr(input: Tensor, input2: Tensor) -> Tensor:  # noqa: A002
    """The first ``N`` columns of ``H_1 H_2 ... H_K``, ``H_j = I - tau_j w_j w_j^H``, where
    ``w_j`` is column ``j`` of ``input`` below the diagonal with a 1 on it (LAPACK's
    ``orgqr``; ``input2`` holds ``tau``, shape ``(*, K)``, ``input`` ``(*, M, N)``)."""
    _check_orgqr(input, input2)
    m, n = input.shape[-2:]
    w = F.add(tril(input, -1), F.eye(m, n, input.dtype))
    q = F.broadcast_to(F.eye(m, m, input.dtype), tuple(input.shape[:-2]) + (m, m))
    for j in range(input2.shape[-1]):
        col = w[..., j:j + 1]
        scale = F.expand_dims(input2[..., j:j + 1], -1)
        q = F.sub(q, F.mul(scale, F.matmul(F.matmul(q, col), adjoint(col))))
    return q[..., :n]
