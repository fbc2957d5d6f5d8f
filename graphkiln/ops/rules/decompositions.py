"""Backward and batching rules of the matrix decompositions (:mod:`..defs.decompositions`)
and of ``SolveTriangular`` (:mod:`..defs.linalg`).

The singular value rule is the usual one for distinct singular values (as PyTorch's
``svd_backward``): with ``E[i, j] = s_j^2 - s_i^2`` (1 on the diagonal) and ``skew(X) = X -
X^T``, ``dA = U ((skew(U^T gU) s + s skew(V^T gV)) / E + diag(gs)) V^T`` plus the parts of
``gU``/``gV`` outside the spans of ``U``/``V`` for a non-square input."""
from __future__ import annotations

import numpy as np

import graphkiln.ops.functional as F

from ...common import dtype as mstype
from ...common.tensor import Tensor
from ..defs import decompositions as D
from ..defs.assignment import LinearSumAssignment
from ..defs.linalg import LstsqV2, SolveTriangular
from .batching import batch_size, front, rule_for, to_front
from .bprop import _is_zero, _output, bprop, sum_to


def _mt(x):
    return F.swapaxes(x, -1, -2)


def _inverse_t(x):
    """``inv(x)^T``, in float32 for float16 (MatrixInverse has no float16 kernel)."""
    if x.dtype == mstype.float16:
        return F.cast(D.MatrixInverse(F.cast(x, mstype.float32), adjoint=True), x.dtype)
    return D.MatrixInverse(x, adjoint=True)


def _scale(v, m):
    """``v[..., None, None] * m``."""
    return F.mul(F.expand_dims(F.expand_dims(v, -1), -1), m)


@bprop("MatrixDeterminant")
def _det(x, out, dout):
    return (_scale(F.mul(dout, out), _inverse_t(x)),)


@bprop("LogMatrixDeterminant")
def _slogdet(x, out, dout):
    return (_scale(dout[1], _inverse_t(x)),)


@bprop("MatrixInverse")
def _inverse(x, out, dout, adjoint=False):
    if adjoint:  # out = inv(x)^T
        return (F.neg(F.matmul(F.matmul(out, _mt(dout)), out)),)
    out_t = _mt(out)
    return (F.neg(F.matmul(F.matmul(out_t, dout), out_t)),)


def _skew(x):
    return F.sub(x, _mt(x))


@bprop("Svd")
def _svd(x, out, dout, full_matrices=False, compute_uv=True):
    if x.dtype.is_complex:
        raise TypeError(f"For 'Svd', the gradient takes a float32 or float64 input, but got "
                        f"{x.dtype} (MindSpore 2.10 has no complex Svd gradient).")
    m, n = x.shape[-2:]
    k = min(m, n)
    def recompute():
        return D.Svd(x, full_matrices=full_matrices)
    # (without compute_uv the op's u and v are zeros: take them again)
    s, u, v = (_output(out, i, recompute) for i in range(3)) if compute_uv else recompute()
    gs, gu, gv = dout
    if full_matrices:  # only the first k columns carry the decomposition
        u, v = u[..., :k], v[..., :k]
        gu, gv = gu[..., :k], gv[..., :k]
    core = F.mul(F.expand_dims(gs, -1), F.eye(k, k, x.dtype))
    if not compute_uv or _is_zero(gu) and _is_zero(gv):
        return (F.matmul(F.matmul(u, core), _mt(v)),)
    s2 = F.square(s)
    gap = F.add(F.sub(F.expand_dims(s2, -2), F.expand_dims(s2, -1)), F.eye(k, k, x.dtype))
    inner = F.add(F.mul(_skew(F.matmul(_mt(u), gu)), F.expand_dims(s, -2)),
                  F.mul(F.expand_dims(s, -1), _skew(F.matmul(_mt(v), gv))))
    core = F.add(F.div(inner, gap), core)
    if m > k:  # the part of gU outside span(U)
        gu_s = F.div(gu, F.expand_dims(s, -2))
        left = F.add(F.matmul(u, core), F.sub(gu_s, F.matmul(u, F.matmul(_mt(u), gu_s))))
        return (F.matmul(left, _mt(v)),)
    if n > k:  # the part of gV outside span(V)
        gv_s = _mt(F.div(gv, F.expand_dims(s, -2)))
        right = F.add(F.matmul(core, _mt(v)), F.sub(gv_s, F.matmul(F.matmul(gv_s, v), _mt(v))))
        return (F.matmul(u, right),)
    return (F.matmul(F.matmul(u, core), _mt(v)),)


def _tril(m, k: int = 0):
    """``m``'s lower triangle (from diagonal ``k``), the rest zeros."""
    n = m.shape[-1]
    return F.mul(m, Tensor(np.tril(np.ones((n, n)), k), m.dtype))


def _copyltu(m):
    """The symmetric matrix with ``m``'s lower triangle."""
    low = _tril(m, -1)
    return F.add(F.add(low, _mt(low)), F.mul(m, F.eye(m.shape[-1], m.shape[-1], m.dtype)))


def _qr_square_or_tall(q, r, gq, gr):
    """``dA`` of ``A = q r`` with ``A`` as tall as wide or taller (``r`` square)."""
    m = F.sub(F.matmul(r, _mt(gr)), F.matmul(_mt(gq), q))
    b = F.add(gq, F.matmul(q, _copyltu(m)))
    return _mt(F.matmul(D.MatrixInverse(r), _mt(b)))  # b @ r^-T


@bprop("Qr")
def _qr(x, out, dout, full_matrices=False):
    m, n = x.shape[-2:]
    q, r = (_output(out, i, lambda: D.Qr(x, full_matrices=full_matrices)) for i in range(2))
    gq, gr = dout
    if m >= n:
        if full_matrices and m > n:
            raise ValueError("For 'Qr', the gradient of the complete decomposition of a tall "
                             "matrix (full_matrices=True, more rows than columns) is not "
                             "defined; use full_matrices=False.")
        return (_qr_square_or_tall(q, r, gq, gr),)
    # a wide matrix [X | Y] = q [R1 | R2]: X = q R1 is square
    y, r1 = x[..., m:], r[..., :m]
    gr1, gr2 = gr[..., :m], gr[..., m:]
    gx = _qr_square_or_tall(q, r1, F.add(gq, F.matmul(y, _mt(gr2))), gr1)
    return (F.concat((gx, F.matmul(q, gr2)), -1),)


@bprop("Cholesky")
def _cholesky(x, out, dout, upper=False):
    """``L^-T Phi(L^T gL) L^-1``, symmetrized (``Phi``: the lower triangle, diagonal
    halved)."""
    low, g = (_mt(out), _mt(dout)) if upper else (out, dout)
    phi = F.matmul(_mt(low), g)
    phi = F.sub(_tril(phi), F.mul(F.mul(phi, F.eye(phi.shape[-1], phi.shape[-1],
                                                     phi.dtype)), 0.5))
    inv = D.MatrixInverse(low)
    grad = F.matmul(F.matmul(_mt(inv), phi), inv)
    return (F.mul(F.add(grad, _mt(grad)), 0.5),)


@bprop("MatrixExp")
def _matrix_exp(x, out, dout):
    """The upper right block of ``exp([[x^T, dout], [0, x^T]])`` (the Frechet derivative of
    the exponential in the direction ``dout``, at ``x^T``)."""
    xt = _mt(x)
    top = F.concat([xt, dout], -1)
    bottom = F.concat([F.zeros_like(xt), xt], -1)
    n = x.shape[-1]
    block = D.MatrixExp(F.concat([top, bottom], -2))
    return (block[..., :n, n:],)


def _leading_batch(opdef):
    """The batch becomes one more leading (matrix batch) axis."""
    def rule(x, *, dims, **attrs):
        out = opdef(to_front(x, dims[0]), **attrs)
        return out, (0,) * len(out) if isinstance(out, tuple) else 0
    rule.__name__ = f"vmap_{opdef.name}"
    return rule


for _op in (D.Svd, D.MatrixDeterminant, D.LogMatrixDeterminant, D.MatrixInverse, D.MatrixExp,
            D.Qr, D.Geqrf, D.Cholesky, D.LU, D.Eigh):
    _op.def_vmap(_leading_batch(_op))
del _op


@rule_for("Eig")
def _eig(x, *, dims, compute_v=False):
    """Eig works on a batch of matrices: the batch goes first (no vectors: one empty)."""
    w, v = D.Eig(to_front(x, dims[0]), compute_v=compute_v)
    return (w, v), (0, 0 if compute_v else None)


@rule_for("LinearSumAssignment")
def _assignment(cost, limit, maximize, *, dims):
    """One assignment per example (its outputs have a fixed length)."""
    cost = to_front(cost, dims[0])
    rows, cols = [], []
    for i in range(cost.shape[0]):
        r, c = LinearSumAssignment(cost[i], limit, maximize)
        rows.append(r)
        cols.append(c)
    return (F.stack(rows), F.stack(cols)), (0, 0)


def _triangle(m, lower: bool, unit_diagonal: bool):
    """The part of ``m`` a triangular solve reads: one triangle, without the diagonal when
    it is taken as ones (any size, also one known only at run time)."""
    ones = F.ones_like(m)
    row, col = F.cumsum(ones, -2), F.cumsum(ones, -1)  # 1-based positions, any shape
    if lower:
        keep = F.less(col, row) if unit_diagonal else F.less_equal(col, row)
    else:
        keep = F.greater(col, row) if unit_diagonal else F.greater_equal(col, row)
    return F.select(keep, m, F.zeros_like(m))


def _adjoint_t(m):
    xt = _mt(m)
    return F.conj(xt) if m.dtype.is_complex else xt


@bprop("SolveTriangular")
def _solve_triangular(a, b, out, dout, trans=0, lower=False, unit_diagonal=False):
    """``op(A) X = B``: ``dB = op(A)^-H dX``; ``d op(A) = -dB X^H``, kept on the triangle
    the solve reads (transposed back for ``trans``)."""
    vector = b.ndim == a.ndim - 1
    grad_b = SolveTriangular(a, dout, trans=0 if trans else 2 if a.dtype.is_complex else 1,
                             lower=lower, unit_diagonal=unit_diagonal)
    gb, x = (F.expand_dims(grad_b, -1), F.expand_dims(out, -1)) if vector else (grad_b, out)
    grad_op = F.neg(F.matmul(gb, _adjoint_t(x)))
    grad_a = grad_op if not trans else (_adjoint_t(grad_op) if trans == 2 else _mt(grad_op))
    return _triangle(grad_a, lower, unit_diagonal), grad_b


@rule_for("SolveTriangular")
def _solve_triangular_vmap(a, b, *, dims, **attrs):
    size = batch_size((a, b), dims)
    return SolveTriangular(front(a, dims[0], size), front(b, dims[1], size), **attrs), 0


@bprop("Eigh")
def _eigh(a, out, dout, compute_eigenvectors=True, lower=True):
    """MindSpore's rule: ``V (diag(gw) + F o (V^H gV)) V^H`` with ``F[i, j] = 1 / (w_j -
    w_i)`` off the diagonal, then folded onto the triangle the kernel reads (the diagonal
    halved by the fold)."""
    if a.dtype.is_complex:
        raise TypeError("For 'Eigh' operation, the data type of input 'a' don't support the "
                        "complex64 or complex128.")
    if compute_eigenvectors:
        w, v = out
        gw, gv = dout
    else:
        w, v = D.Eigh(a, compute_eigenvectors=True, lower=lower)
        gw, gv = dout, None
    n = a.shape[-1]
    eye = F.eye(n, n, a.dtype)
    middle = F.mul(F.expand_dims(gw, -2), eye)
    if gv is not None:
        gap = F.sub(F.expand_dims(w, -2), F.expand_dims(w, -1))
        inv_gap = F.mul(F.div(gap, F.add(F.mul(gap, gap), 1e-20)), F.sub(1.0, eye))
        middle = F.add(middle, F.mul(inv_gap, F.matmul(_mt(v), gv)))
    grad = F.matmul(F.matmul(v, middle), _mt(v))
    grad = F.add(grad, _mt(grad))
    grad = _tril(grad) if lower else _mt(_tril(_mt(grad)))
    return (F.sub(grad, F.mul(F.mul(grad, eye), 0.5)),)


@bprop("LstsqV2")
def _lstsq_v2(a, b, out, dout, driver=None):
    """For ``a`` of full column rank (``x = a^+ b``, ``r = b - a x``): the solution's
    ``db = a^+^H gx``, ``da = r gx^H (a^H a)^-1 - a^+^H gx x^H``; the residuals'
    ``|r_k|^2`` (a minimum, so only their explicit dependence counts) ``db = 2 r g``,
    ``da = -2 r g x^H``; the singular values' ``da = U diag(gs) V^H`` (the rank passes
    nothing back)."""
    vector = b.ndim == a.ndim - 1
    x, gx, g_res, g_sv, bm = out[0], dout[0], dout[1], dout[3], b
    if vector:
        x, gx, bm = F.expand_dims(x, -1), F.expand_dims(gx, -1), F.expand_dims(b, -1)
    gram_inv = D.MatrixInverse(F.matmul(_adjoint_t(a), a))
    grad_b = F.matmul(F.matmul(a, gram_inv), gx)  # a^+^H gx (gram_inv is Hermitian)
    r = F.sub(bm, F.matmul(a, x))
    grad_a = F.sub(F.matmul(F.matmul(r, _adjoint_t(gx)), gram_inv),
                   F.matmul(grad_b, _adjoint_t(x)))
    if tuple(out[1].shape) != (0,) and not _is_zero(g_res):
        g_res = F.broadcast_to(g_res, tuple(out[1].shape))
        weighted = F.mul(r, F.expand_dims(g_res, -2)) * 2.0
        grad_b = F.add(grad_b, weighted)
        grad_a = F.sub(grad_a, F.matmul(weighted, _adjoint_t(x)))
    if tuple(out[3].shape) != (0,) and not _is_zero(g_sv):
        g_sv = F.broadcast_to(g_sv, tuple(out[3].shape))
        _, u, v = D.Svd(a, full_matrices=False)
        grad_a = F.add(grad_a, F.matmul(F.mul(u, F.expand_dims(g_sv, -2)), _adjoint_t(v)))
    grad_a = sum_to(grad_a, a)
    grad_b = sum_to(F.squeeze(grad_b, -1) if vector else grad_b, b)
    return grad_a, grad_b


@rule_for("LstsqV2")
def _lstsq_v2_vmap(a, b, *, dims, driver=None):
    """The batch goes first (the op broadcasts batches; a vector ``b`` keeps its rank)."""
    size = batch_size((a, b), dims)
    outs = LstsqV2(front(a, dims[0], size), front(b, dims[1], size), driver=driver)
    # (an output the driver does not compute is one empty vector for the whole batch)
    return outs, tuple(None if tuple(o.shape) == (0,) else 0 for o in outs)
