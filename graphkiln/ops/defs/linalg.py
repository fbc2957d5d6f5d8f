"""Linear-system primitives: ``MatrixSolve`` (``X`` with ``A @ X = B`` for a batch of square
``A``, or ``A^H @ X = B`` with ``adjoint``) and ``SolveTriangular`` (``X`` with ``op(A) X =
B`` for the lower or upper triangle of ``A``, ``op`` the identity, transpose or conjugate
transpose; MindSpore's ``ops.auto_generate.solve_triangular``) and ``LstsqV2`` (the
least-squares solution with the residuals, rank and singular values LAPACK's ``driver``
gives, as ``mindspore.scipy.linalg.lstsq``).

As MindSpore's CPU kernel: float16/32/64 and complex64/128 inputs of one dtype, the batch
dimensions of ``matrix`` and ``rhs`` equal (no broadcasting); float16 is solved in float32;
a singular matrix is a ValueError. Solved with LAPACK through ``np.linalg.solve``.
"""
from __future__ import annotations

import numpy as np

from ...common import dtype as mstype
from ...ir.abstract import AbstractTensor, AbstractTuple
from ...ir.primitive import OpDef
from ._infer import UNKNOWN_DIM, DynamicRankError, broadcast_shapes, describe, dims_match

_TYPES = (mstype.complex128, mstype.complex64, mstype.float16, mstype.float32, mstype.float64)
_NAME = "For primitive[MatrixSolve]"


def _matrix_solve_infer(matrix, rhs, adjoint=False):
    for arg, a in (("matrix", matrix), ("rhs", rhs)):
        if not isinstance(a, AbstractTensor):
            raise TypeError(f"{_NAME}, the input argument[{arg}] must be a Tensor, but got "
                            f"{describe(a)}.")
    if matrix.dtype not in _TYPES:
        names = ", ".join(f"Tensor[{t}]" for t in _TYPES)
        raise TypeError(f"{_NAME}, the input argument[matrix type] must be a type of "
                        f"{{{names}}}, but got Tensor[{matrix.dtype}].")
    if rhs.dtype is not matrix.dtype:
        raise TypeError(f"{_NAME}, the input type must be same.\nname:[matrix type]:"
                        f"Tensor[{matrix.dtype}].\nname:[rhs type]:Tensor[{rhs.dtype}].")
    ms, rs = matrix.shape, rhs.shape
    if len(ms) < 2:
        raise ValueError(f"{_NAME}, the dimension of 'matrix' must be greater than or equal "
                         f"to 2 , but got {len(ms)}.")
    if len(rs) != len(ms):
        raise ValueError(f"{_NAME}, the dimension of 'rhs' must be equal to the dimension of "
                         f"'matrix' {len(ms)}, but got {len(rs)}.")
    if not dims_match(ms[-1], ms[-2]):
        raise ValueError(f"{_NAME}, the M in the shape of 'matrix' [..., M, M] must be equal "
                         f"to {ms[-2]} , but got {ms[-1]}.")
    if not dims_match(ms[-2], rs[-2]):
        raise ValueError(f"{_NAME}, the M in the shape of 'matrix' [..., M, M] must be equal "
                         f"to M in the shape of 'rhs' [..., M, K] which is {rs[-2]} , but got "
                         f"{ms[-2]}.")
    for k, (dm, dr) in enumerate(zip(ms[:-2], rs[:-2])):
        if not dims_match(dm, dr):
            raise ValueError(f"{_NAME}, the {k}th dimension of 'matrix' must be equal to {k}th "
                             f"dimension of 'rhs' which is {dr} , but got {dm}.")
    return AbstractTensor(rhs.dtype, tuple(rs))


def _matrix_solve(matrix, rhs, adjoint=False):
    dtype = rhs.dtype
    if dtype == np.float16:
        matrix, rhs = matrix.astype(np.float32), rhs.astype(np.float32)
    if adjoint:
        matrix = np.conj(np.swapaxes(matrix, -1, -2))
    try:
        out = np.linalg.solve(matrix, rhs)
    except np.linalg.LinAlgError:
        raise ValueError("For 'MatrixSolve', the input 'matrix' is not invertible.") from None
    return out.astype(dtype, copy=False)


MatrixSolve = OpDef("MatrixSolve", _matrix_solve_infer, _matrix_solve, attrs={"adjoint": False})


# ------------------------------------------------------------------ SolveTriangular

_TRIANGULAR_TYPES = (mstype.float16, mstype.float32, mstype.float64, mstype.complex64,
                     mstype.complex128)


def _solve_triangular_infer(a, b, trans=0, lower=False, unit_diagonal=False):
    """``b`` of shape ``(*, N)`` or ``(*, N, K)`` for ``a`` of ``(*, N, N)`` (the batches
    equal); integer inputs give Float32, as MindSpore's."""
    for arg, v in (("a", a), ("b", b)):
        if not isinstance(v, AbstractTensor):
            raise TypeError(f"For 'SolveTriangular', the input '{arg}' must be a Tensor, but "
                            f"got {describe(v)}.")
    if a.dtype is not b.dtype:
        raise TypeError("For 'SolveTriangular' the type of a and b must be same, but got "
                        f"Tensor[{a.dtype}] and Tensor[{b.dtype}].")
    if trans not in (0, 1, 2):
        raise ValueError(f"For 'SolveTriangular', 'trans' must be 0, 1 or 2, but got {trans}.")
    sa, sb = tuple(a.shape), tuple(b.shape)
    if len(sa) < 2:
        raise ValueError(f"For 'SolveTriangular', the dimension of 'a' must be at least 2, "
                         f"but got {len(sa)}.")
    if not dims_match(sa[-1], sa[-2]):
        raise ValueError(f"For 'SolveTriangular', 'a' must be a batch of square matrices, "
                         f"but got shape {list(sa)}.")
    vector = len(sb) == len(sa) - 1
    if not vector and len(sb) != len(sa):
        raise ValueError(f"For 'SolveTriangular', the dimension of 'b' must be that of 'a' "
                         f"or one less, but got {len(sb)} and {len(sa)}.")
    rows = sb[-1] if vector else sb[-2]
    batch_b = sb[:-1] if vector else sb[:-2]
    if not dims_match(rows, sa[-1]) or len(batch_b) != len(sa) - 2 or not all(
            dims_match(x, y) for x, y in zip(batch_b, sa[:-2])):
        raise ValueError(f"For 'SolveTriangular', the shapes of 'a' {list(sa)} and 'b' "
                         f"{list(sb)} do not match.")
    t = a.dtype if a.dtype in _TRIANGULAR_TYPES else mstype.float32
    return AbstractTensor(t, sb)


def _solve_triangular(a, b, trans=0, lower=False, unit_diagonal=False):
    a, b = np.asarray(a), np.asarray(b)
    out_dtype = a.dtype if a.dtype.kind in "fc" else np.dtype(np.float32)
    work = np.float32 if out_dtype == np.float16 else out_dtype
    n = a.shape[-1]
    tri = (np.tril(a) if lower else np.triu(a)).astype(work)
    if unit_diagonal:
        tri[..., np.arange(n), np.arange(n)] = 1
    if trans:
        tri = np.swapaxes(tri, -1, -2)
        tri = tri.conj() if trans == 2 else tri
    vector = b.ndim == a.ndim - 1
    rhs = b[..., None] if vector else b
    with np.errstate(all="ignore"):
        x = np.linalg.solve(tri, rhs.astype(work))
    return (x[..., 0] if vector else x).astype(out_dtype)


SolveTriangular = OpDef("SolveTriangular", _solve_triangular_infer, _solve_triangular,
                        attrs={"trans": 0, "lower": False, "unit_diagonal": False})


# ------------------------------------------------------------------ LstsqV2

_LSTSQ_DRIVERS = (None, "gels", "gelsy", "gelss", "gelsd")
_LSTSQ_TYPES = (mstype.float32, mstype.float64, mstype.complex64, mstype.complex128)


def _lstsq_shapes(a, b):
    """``(batch, m, n, k, vector)`` of ``a`` ``(*, M, N)`` and ``b`` ``(*, M, K)`` or
    ``(*, M)`` (the batches broadcast)."""
    sa, sb = tuple(a.shape), tuple(b.shape)
    if len(sa) < 2:
        raise ValueError(f"For 'LstsqV2', the dimension of 'a' must be at least 2, but got "
                         f"{len(sa)}.")
    vector = len(sb) == len(sa) - 1
    rows_b = sb[-1] if vector else sb[-2] if len(sb) >= 2 else -2
    if not dims_match(rows_b, sa[-2]):
        raise ValueError(f"For 'LstsqV2', the last two dimensions of `a` and `b` should be "
                         f"matched, but got shape of {list(sa)} and {list(sb)}.")
    batch_b = sb[:-1] if vector else sb[:-2]
    batch = broadcast_shapes("LstsqV2", sa[:-2], batch_b, "a", "b")
    return batch, sa[-2], sa[-1], 1 if vector else sb[-1], vector


def _lstsq_infer(a, b, driver=None):
    for arg, v in (("a", a), ("b", b)):
        if not isinstance(v, AbstractTensor):
            raise TypeError(f"For 'LstsqV2', the input '{arg}' must be a Tensor, but got "
                            f"{describe(v)}.")
    if a.dtype is not b.dtype or a.dtype not in _LSTSQ_TYPES:
        raise TypeError(f"For 'LstsqV2', 'a' and 'b' must be float32, float64, complex64 or "
                        f"complex128 of one type, but got Tensor[{a.dtype}] and "
                        f"Tensor[{b.dtype}].")
    if driver not in _LSTSQ_DRIVERS:
        raise ValueError(f"For 'LstsqV2', 'driver' must be one of {list(_LSTSQ_DRIVERS)}, but "
                         f"got {driver!r}.")
    batch, m, n, k, vector = _lstsq_shapes(a, b)
    real = mstype.float64 if a.dtype in (mstype.float64, mstype.complex128) else mstype.float32
    driver = driver or "gelsy"
    if driver == "gelsy":
        residual = (0,)
    elif UNKNOWN_DIM not in (m, n):
        residual = batch + (k,) if m > n else (0,)
    elif batch:  # [*batch, K] when M > N, else [0]
        raise DynamicRankError(f"For 'LstsqV2', the residuals' shape (the rank of the output) "
                               f"must be known when the graph is built, but 'a' has shape "
                               f"{list(a.shape)}.")
    else:
        residual = (UNKNOWN_DIM,)
    rank = batch if driver != "gels" else (0,)
    values = batch + (min(m, n),) if driver in ("gelss", "gelsd") else (0,)
    return AbstractTuple([AbstractTensor(a.dtype, batch + ((n,) if vector else (n, k))),
                          AbstractTensor(real, residual), AbstractTensor(mstype.int64, rank),
                          AbstractTensor(real, values)])


def _lstsq_v2(a, b, driver=None):
    a, b = np.asarray(a), np.asarray(b)
    batch, m, n, k, vector = _lstsq_shapes(a, b)
    driver = driver or "gelsy"
    bm = b[..., None] if vector else b
    a_all = np.broadcast_to(a, batch + (m, n))
    b_all = np.broadcast_to(bm, batch + (m, k))
    x = np.zeros(batch + (n, k), a.dtype)
    rank = np.zeros(batch, np.int64)
    values = np.zeros(batch + (min(m, n),), a.real.dtype)
    for i in np.ndindex(*batch):
        sol, _, r, sv = np.linalg.lstsq(a_all[i], b_all[i], rcond=None)
        x[i], rank[i], values[i] = sol, r, sv
    residual = (np.abs(a_all @ x - b_all) ** 2).sum(-2).astype(a.real.dtype)
    real = a.real.dtype
    return (x[..., 0] if vector else x,
            residual if driver != "gelsy" and m > n else np.zeros(0, real),
            rank if driver != "gels" else np.zeros(0, np.int64),
            values if driver in ("gelss", "gelsd") else np.zeros(0, real))


LstsqV2 = OpDef("LstsqV2", _lstsq_infer, _lstsq_v2, attrs={"driver": None})
