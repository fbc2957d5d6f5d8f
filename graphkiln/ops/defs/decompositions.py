"""Matrix decompositions and what they give, over the last two axes of a batch: ``Svd``
(``(s, u, v)`` with ``input = u @ diag(s) @ v^T``, singular values descending), ``Qr``
(``(q, r)``, LAPACK's signs), ``Geqrf`` (the same packed as LAPACK's ``geqrf``: ``(y, tau)``;
no gradient, as MindSpore), ``Cholesky`` (lower, or upper with ``upper``),
``MatrixDeterminant``, ``LogMatrixDeterminant`` (``(sign, log|det|)``), ``MatrixInverse``,
``Eig`` (complex eigenvalues and eigenvectors; MindSpore defines no gradient for it),
``Eigh`` (eigenvalues ascending, and unit eigenvectors, of symmetric or Hermitian matrices
read from one triangle), ``LU`` (partial pivoting: the packed factors, LAPACK's pivots
and the permutation matrix ``P`` with ``P @ x = L @ U``; MindSpore's ``mindspore.scipy``).

As MindSpore's CPU kernels: Svd takes float32/float64 and complex64/complex128 (no gradient
for complex ones, a TypeError as MindSpore's), the determinants
float16/float32/float64 (float16 computed in float32) and complex64/complex128 (``log|det|``
then complex too, with a zero imaginary part), the inverse float32/float64; a matrix that is
not square is a ValueError. MindSpore also takes complex matrices for the inverse; graphkiln
does not (TypeError). MindSpore 2.10 returns unspecified numbers for the
inverse of a singular matrix; graphkiln raises a ValueError. MindSpore's gradient of
``MatrixInverse(adjoint=True)`` ignores ``adjoint`` (it is the transpose of the
derivative); graphkiln's is the derivative. ``Cholesky`` factors the symmetric part
``(x + x^T) / 2`` (MindSpore reads one triangle; the same for the symmetric matrices it
documents), so its gradient is symmetric; MindSpore 2.10 CPU has no Cholesky gradient. A
matrix that is not positive definite is a RuntimeError, as MindSpore's. Computed with LAPACK through
``numpy.linalg``.
"""
from __future__ import annotations

import numpy as np

from ...common import dtype as mstype
from ...ir.abstract import AbstractTensor, AbstractTuple
from ...ir.primitive import OpDef
from ._infer import quiet, tensor_type

_F32_64 = (mstype.float32, mstype.float64)
_WITH_F16 = (mstype.float16,) + _F32_64
_DETERMINANT_TYPES = _WITH_F16 + (mstype.complex64, mstype.complex128)


def _matrix(name: str, x, allowed, square: bool = True):
    t = tensor_type(name, "x", x)
    if t not in allowed:
        names = ", ".join(f"Tensor[{a}]" for a in allowed)
        why = " (complex matrices are not supported by graphkiln)" if t.is_complex else ""
        raise TypeError(f"For primitive[{name}], the input argument[x] must be a type of "
                        f"{{{names}}}, but got Tensor[{t}]{why}.")
    if len(x.shape) < 2:
        raise ValueError(f"For primitive[{name}], the dimension of 'x' must be at least 2, but "
                         f"got {len(x.shape)}.")
    rows, cols = x.shape[-2:]
    if square and rows != cols and rows >= 0 and cols >= 0:
        raise ValueError(f"For primitive[{name}], the row size must be equal to {cols}, but "
                         f"got {rows}.")
    return t


def _computed(x: np.ndarray) -> np.ndarray:
    return x.astype(np.float32) if x.dtype == np.float16 else x


# ------------------------------------------------------------------ Svd

_SVD_TYPES = _F32_64 + (mstype.complex64, mstype.complex128)


def _svd_infer(x, full_matrices=False, compute_uv=True):
    t = _matrix("Svd", x, _SVD_TYPES, square=False)
    *batch, m, n = x.shape
    k = min(m, n)
    cols_u, rows_v = (m, n) if full_matrices else (k, k)
    return AbstractTuple([AbstractTensor(t, tuple(batch) + (k,)),
                          AbstractTensor(t, tuple(batch) + (m, cols_u)),
                          AbstractTensor(t, tuple(batch) + (n, rows_v))])


@quiet
def _svd(x, full_matrices=False, compute_uv=True):
    """``compute_uv=False`` gives zeros for ``u`` and ``v``; ``v`` is ``vh``'s conjugate
    transpose, and a complex input's ``s`` is complex (zero imaginary parts), as MindSpore's."""
    u, s, vh = np.linalg.svd(x, full_matrices=bool(full_matrices))
    v = np.swapaxes(vh, -1, -2)
    if np.iscomplexobj(v):
        v = v.conj()
    if not compute_uv:
        u, v = np.zeros_like(u), np.zeros_like(v)
    return s.astype(x.dtype), np.ascontiguousarray(u, x.dtype), np.ascontiguousarray(v, x.dtype)


Svd = OpDef("Svd", _svd_infer, _svd, attrs={"full_matrices": False, "compute_uv": True})


# ------------------------------------------------------------------ determinants

def _det_infer(x):
    t = _matrix("MatrixDeterminant", x, _DETERMINANT_TYPES)
    return AbstractTensor(t, tuple(x.shape[:-2]))


@quiet
def _det(x):
    return np.asarray(np.linalg.det(_computed(x))).astype(x.dtype)


MatrixDeterminant = OpDef("MatrixDeterminant", _det_infer, _det)


def _slogdet_infer(x):
    t = _matrix("LogMatrixDeterminant", x, _DETERMINANT_TYPES)
    out = AbstractTensor(t, tuple(x.shape[:-2]))
    return AbstractTuple([out, out])


@quiet
def _slogdet(x):
    sign, logabs = np.linalg.slogdet(_computed(x))
    return np.asarray(sign).astype(x.dtype), np.asarray(logabs).astype(x.dtype)


LogMatrixDeterminant = OpDef("LogMatrixDeterminant", _slogdet_infer, _slogdet)


# ------------------------------------------------------------------ inverse

def _inverse_infer(x, adjoint=False):
    t = _matrix("MatrixInverse", x, _F32_64)
    return AbstractTensor(t, tuple(x.shape))


@quiet
def _inverse(x, adjoint=False):
    try:
        out = np.linalg.inv(x)
    except np.linalg.LinAlgError:
        raise ValueError("For 'MatrixInverse', the input 'x' is not invertible (a singular "
                         "matrix).") from None
    return np.swapaxes(out, -1, -2).copy() if adjoint else out


MatrixInverse = OpDef("MatrixInverse", _inverse_infer, _inverse, attrs={"adjoint": False})


# ------------------------------------------------------------------ exponential

# Higham's degree-13 Pade coefficients and the 1-norm bound under which it needs no scaling
_PADE13 = (64764752532480000.0, 32382376266240000.0, 7771770303897600.0, 1187353796428800.0,
           129060195264000.0, 10559470521600.0, 670442572800.0, 33522128640.0, 1323241920.0,
           40840800.0, 960960.0, 16380.0, 182.0, 1.0)
_THETA13 = 5.371920351148152


def _expm(a: np.ndarray) -> np.ndarray:
    """``exp(a)`` of one square matrix: scaling and squaring with a Pade approximant."""
    norm = np.abs(a).sum(0).max() if a.size else 0.0
    squarings = max(0, int(np.ceil(np.log2(norm / _THETA13)))) if norm > _THETA13 else 0
    a = a / 2.0 ** squarings
    b = _PADE13
    eye = np.eye(a.shape[0], dtype=a.dtype)
    a2 = a @ a
    a4 = a2 @ a2
    a6 = a4 @ a2
    u = a @ (a6 @ (b[13] * a6 + b[11] * a4 + b[9] * a2) + b[7] * a6 + b[5] * a4 + b[3] * a2
             + b[1] * eye)
    v = a6 @ (b[12] * a6 + b[10] * a4 + b[8] * a2) + b[6] * a6 + b[4] * a4 + b[2] * a2 \
        + b[0] * eye
    r = np.linalg.solve(v - u, v + u)
    for _ in range(squarings):
        r = r @ r
    return r


def _expm_infer(x):
    t = _matrix("MatrixExp", x, _WITH_F16)
    return AbstractTensor(t, tuple(x.shape))


@quiet
def _matrix_exp(x):
    wide = _computed(np.asarray(x)).astype(np.float64)
    out = np.empty_like(wide)
    for i in np.ndindex(wide.shape[:-2]):
        out[i] = _expm(wide[i])
    return out.astype(x.dtype)


MatrixExp = OpDef("MatrixExp", _expm_infer, _matrix_exp)


# ------------------------------------------------------------------ Qr, Cholesky

def _qr_infer(x, full_matrices=False):
    t = _matrix("Qr", x, _F32_64, square=False)
    *batch, m, n = x.shape
    k = m if full_matrices else min(m, n)
    return AbstractTuple([AbstractTensor(t, tuple(batch) + (m, k)),
                          AbstractTensor(t, tuple(batch) + (k, n))])


@quiet
def _qr(x, full_matrices=False):
    q, r = np.linalg.qr(x, mode="complete" if full_matrices else "reduced")
    return q.astype(x.dtype), r.astype(x.dtype)


Qr = OpDef("Qr", _qr_infer, _qr, attrs={"full_matrices": False})


def _geqrf_infer(x):
    t = _matrix("Geqrf", x, _F32_64, square=False)
    *batch, m, n = x.shape
    return AbstractTuple([AbstractTensor(t, tuple(x.shape)),
                          AbstractTensor(t, tuple(batch) + (min(m, n),))])


@quiet
def _geqrf(x):
    """LAPACK's ``geqrf``: ``r`` on and above the diagonal, the Householder vectors below it,
    and their scales ``tau`` (NumPy's ``'raw'`` QR gives the same, transposed)."""
    h, tau = np.linalg.qr(x, mode="raw")
    return np.ascontiguousarray(np.swapaxes(h, -1, -2)).astype(x.dtype), tau.astype(x.dtype)


# ``Geqrf(x) -> (y, tau)``, the packed QR factorisation (MindSpore defines no gradient)
Geqrf = OpDef("Geqrf", _geqrf_infer, _geqrf, differentiable=False)


def _cholesky_infer(x, upper=False):
    t = _matrix("Cholesky", x, _F32_64)
    return AbstractTensor(t, tuple(x.shape))


@quiet
def _cholesky(x, upper=False):
    try:
        low = np.linalg.cholesky((x + np.swapaxes(x, -1, -2)) / 2)
    except np.linalg.LinAlgError:
        raise RuntimeError("Cholesky expects symmetric positive definite matrices as "
                           "inputs.") from None
    return np.swapaxes(low, -1, -2).copy() if upper else low


Cholesky = OpDef("Cholesky", _cholesky_infer, _cholesky, attrs={"upper": False})


# ------------------------------------------------------------------ Lstsq

def _lstsq_infer(x, a, fast=True, l2_regularizer=0.0):
    t = tensor_type("Lstsq", "x", x)
    ta = tensor_type("Lstsq", "a", a)
    if t is not ta:
        raise TypeError(f"For primitive[Lstsq], the input type must be same.\nname:[a]:"
                        f"Tensor[{ta}].\nname:[x]:Tensor[{t}].")
    _matrix("Lstsq", x, _WITH_F16, square=False)
    if len(x.shape) != 2 or len(a.shape) not in (1, 2):
        raise ValueError(f"For 'Lstsq', the dimension of 'x' must be 2 and of 'a' 1 or 2, but "
                         f"got {len(x.shape)} and {len(a.shape)}.")
    if x.shape[0] != a.shape[0] and x.shape[0] >= 0 and a.shape[0] >= 0:
        raise ValueError(f"For 'Lstsq', the length of x_dim[0] must be equal to the length of "
                         f"a_dims[0]. But got x_dim[0]: {x.shape[0]},  a_dims[0]: "
                         f"{a.shape[0]}.")
    return AbstractTensor(t, (x.shape[1], a.shape[1] if len(a.shape) == 2 else 1))


@quiet
def _lstsq(x, a, fast=True, l2_regularizer=0.0):
    """The least-squares solution of ``x @ out = a`` (a 1-D ``a`` as one column)."""
    xc, ac = _computed(np.asarray(x)), _computed(np.asarray(a))
    ac = ac.reshape(ac.shape[0], -1)
    if l2_regularizer:  # Tikhonov: min |x out - a|^2 + l2 |out|^2
        n = xc.shape[1]
        out = np.linalg.solve(xc.T @ xc + l2_regularizer * np.eye(n, dtype=xc.dtype),
                              xc.T @ ac)
    else:
        out = np.linalg.lstsq(xc, ac, rcond=None)[0]
    return out.astype(np.asarray(x).dtype)


# MindSpore 2.10 defines no gradient for it ("Lstsq's bprop not defined")
Lstsq = OpDef("Lstsq", _lstsq_infer, _lstsq, attrs={"fast": True, "l2_regularizer": 0.0},
              differentiable=False)


# ------------------------------------------------------------------ Eig

_EIG_TYPES = {mstype.float32: mstype.complex64, mstype.float64: mstype.complex128,
              mstype.complex64: mstype.complex64, mstype.complex128: mstype.complex128}


def _eig_infer(x, compute_v=False):
    t = tensor_type("Eig", "x", x)
    if t not in _EIG_TYPES:
        raise TypeError(f"For primitive[Eig], the input argument[x] must be a type of "
                        f"{{Tensor[Complex128], Tensor[Complex64], Tensor[Float32], "
                        f"Tensor[Float64]}}, but got Tensor[{t}].")
    if not isinstance(compute_v, bool):
        raise TypeError(f"For 'Eig', the 'compute_v' must be a bool, but got "
                        f"{type(compute_v).__name__}.")
    if len(x.shape) < 2 or x.shape[-1] != x.shape[-2] and min(x.shape[-2:]) >= 0:
        raise ValueError(f"For Eig, x should be square(squares), but got shape "
                         f"{list(x.shape)}.")
    out = _EIG_TYPES[t]
    vectors = tuple(x.shape) if compute_v else ()
    return AbstractTuple([AbstractTensor(out, tuple(x.shape[:-1])),
                          AbstractTensor(out, vectors)])


def _eig(x, compute_v=False):
    out = mstype.from_numpy(np.asarray(x).dtype)
    out = _EIG_TYPES[out].np_dtype
    values, vectors = np.linalg.eig(np.asarray(x))
    vectors = vectors.astype(out) if compute_v else np.zeros((), out)
    return values.astype(out), vectors


# eigenvalues (and, with compute_v, unit eigenvectors as columns) of square matrices:
# LAPACK's (numpy.linalg.eig); MindSpore's Eigen may list them in another order, and
# eigenvectors are unique only up to a phase
Eig = OpDef("Eig", _eig_infer, _eig, differentiable=False, attrs={"compute_v": False})


# ------------------------------------------------------------------ Eigh

_EIGH_TYPES = (mstype.float32, mstype.float64, mstype.complex64, mstype.complex128)


def _check_eigh_attrs(attrs):
    for key in ("compute_eigenvectors", "lower"):
        if not isinstance(attrs[key], bool):
            raise TypeError(f"For 'Eigh', the '{key}' must be a bool, but got "
                            f"{type(attrs[key]).__name__}.")


def _eigh_infer(x, compute_eigenvectors=True, lower=True):
    t = tensor_type("Eigh", "A", x)
    if t not in _EIGH_TYPES:
        raise TypeError(f"For 'Eigh', the input must be a type of {{Float32, Float64, "
                        f"Complex64, Complex128}}, but got Tensor[{t}].")
    _matrix("Eigh", x, _EIGH_TYPES)
    values = AbstractTensor(t, tuple(x.shape[:-1]))
    if not compute_eigenvectors:
        return values
    return AbstractTuple([values, AbstractTensor(t, tuple(x.shape))])


@quiet
def _eigh(x, compute_eigenvectors=True, lower=True):
    x = np.asarray(x)
    wide = np.complex128 if x.dtype.kind == "c" else np.float64
    w, v = np.linalg.eigh(x.astype(wide), UPLO="L" if lower else "U")
    # LAPACK's eigenvector signs (phases) may flip under a tiny change of the matrix; make
    # each vector's largest component real and positive, so the vectors are smooth
    # functions of the input (what gradients and finite differences need)
    big = np.take_along_axis(v, np.argmax(np.abs(v), axis=-2)[..., None, :], axis=-2)
    v = v * (np.abs(big) / np.where(big == 0, 1, big))
    w = w.astype(x.dtype)
    return (w, v.astype(x.dtype)) if compute_eigenvectors else w


# the gradient (MindSpore's rule) reads one triangle, as the kernel does
Eigh = OpDef("Eigh", _eigh_infer, _eigh, attrs={"compute_eigenvectors": True, "lower": True},
             check_attrs=_check_eigh_attrs)


# ------------------------------------------------------------------ LU

def _lu_infer(x):
    t = tensor_type("LU", "x", x)
    _matrix("LU", x, _F32_64, square=False)
    *batch, m, n = x.shape
    k = min(m, n)
    return AbstractTuple([AbstractTensor(t, tuple(x.shape)),
                          AbstractTensor(mstype.int32, tuple(batch) + (k,)),
                          AbstractTensor(mstype.int32, tuple(batch) + (m, m))])


def _lu(x):
    """Doolittle elimination with partial pivoting over the whole batch at once."""
    a = np.array(x, copy=True)
    *batch, m, n = a.shape
    k = min(m, n)
    pivots = np.zeros(tuple(batch) + (k,), np.int32)
    perm = np.broadcast_to(np.arange(m), tuple(batch) + (m,)).copy()
    flat, flat_piv, flat_perm = (v.reshape((-1,) + v.shape[len(batch):])
                                 for v in (a, pivots, perm))
    rows = np.arange(flat.shape[0])
    for j in range(k):
        p = j + np.argmax(np.abs(flat[:, j:, j]), axis=1)
        flat_piv[:, j] = p
        flat[rows, [j], :], flat[rows, p, :] = flat[rows, p, :].copy(), flat[rows, [j], :].copy()
        flat_perm[rows, j], flat_perm[rows, p] = flat_perm[rows, p].copy(), flat_perm[rows, j]
        pivot = flat[:, j, j][:, None]
        safe = np.where(pivot == 0, 1, pivot)
        flat[:, j + 1:, j] = np.where(pivot == 0, 0, flat[:, j + 1:, j] / safe)
        flat[:, j + 1:, j + 1:] -= flat[:, j + 1:, j, None] * flat[:, j, None, j + 1:]
    eye = np.eye(m, dtype=np.int32)
    permutation = eye[flat_perm].reshape(tuple(batch) + (m, m))
    # P @ x = L @ U with P's row i the unit vector of x's row perm[i]; LU's third output
    # is MindSpore's: the transpose, so x = P @ L @ U
    return (flat.reshape(a.shape), flat_piv.reshape(pivots.shape),
            np.swapaxes(permutation, -1, -2).copy())


LU = OpDef("LU", _lu_infer, _lu, differentiable=False)
