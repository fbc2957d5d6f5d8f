"""``ops.svd``, ``ops.qr``, ``ops.cholesky``, ``ops.det``, ``ops.slogdet``, ``ops.logdet``,
``ops.inverse``, ``ops.matrix_power``, ``ops.eig``, ``ops.eigvals`` (over the primitives of
:mod:`.defs.decompositions` and matmul)."""
from __future__ import annotations

import math

import graphkiln.ops.functional as F

from ..common.tensor import Tensor
from .defs import decompositions as D

__all__ = ["lstsq", "svd", "det", "matrix_determinant", "slogdet", "log_matrix_determinant",
           "logdet", "inverse", "matrix_power", "qr", "cholesky", "eig", "eigvals"]


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


def eig(A: Tensor) -> tuple:  # noqa: N803  (MindSpore's name)
    """``(eigenvalues, eigenvectors)`` of square ``A`` (complex; vectors as columns)."""
    return D.Eig(A, compute_v=True)


def eigvals(A: Tensor) -> Tensor:  # noqa: N803  (MindSpore's name)
    """The (complex) eigenvalues of square ``A``."""
    return D.Eig(A, compute_v=False)[0]
