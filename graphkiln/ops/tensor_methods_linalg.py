"""Tensor methods over the linear algebra and segment ops (``x.det()``, ``x.svd()``,
``x.norm('nuc')``, ``x.unsorted_segment_max(ids, n)``...), attached when the ops package
is imported."""
from __future__ import annotations

from ..common.tensor import Tensor
from .linalg_ops import (
    cholesky,
    cholesky_inverse,
    cholesky_solve,
    geqrf,
    inverse,
    logdet,
    lstsq,
    lu_solve,
    matrix_power,
    orgqr,
    qr,
    slogdet,
    svd,
)
from .linalg_ops import det as _det
from .norms import norm
from .segments import unsorted_segment_max, unsorted_segment_min, unsorted_segment_prod


def _norm(self, ord=None, dim=None, keepdim=False, *, dtype=None):  # noqa: A002
    return norm(self, ord, dim, keepdim, dtype=dtype)


def _svd(self, full_matrices=False, compute_uv=True):
    return svd(self, full_matrices, compute_uv)


def install() -> None:
    for names, fn in ((("det", "matrix_determinant"), _det),
                      (("slogdet", "log_matrix_determinant"), slogdet), (("logdet",), logdet),
                      (("inverse",), inverse), (("geqrf",), geqrf)):
        for name in names:
            setattr(Tensor, name, lambda self, _fn=fn: _fn(self))
    Tensor.matrix_power = lambda self, n: matrix_power(self, n)
    Tensor.qr = lambda self, some=True: qr(self, "reduced" if some else "complete")
    Tensor.cholesky = lambda self, upper=False: cholesky(self, upper)
    Tensor.cholesky_solve = lambda self, input2, upper=False: cholesky_solve(self, input2, upper)
    Tensor.cholesky_inverse = lambda self, upper=False: cholesky_inverse(self, upper)
    Tensor.lstsq = lambda self, A: lstsq(self, A)
    Tensor.orgqr = lambda self, input2: orgqr(self, input2)
    Tensor.lu_solve = lambda self, LU_data, LU_pivots: lu_solve(self, LU_data, LU_pivots)
    Tensor.norm, Tensor.svd = _norm, _svd
    for name, fn in (("unsorted_segment_max", unsorted_segment_max),
                     ("unsorted_segment_min", unsorted_segment_min),
                     ("unsorted_segment_prod", unsorted_segment_prod)):
        setattr(Tensor, name, lambda self, segment_ids, num_segments, _fn=fn: _fn(
            self, segment_ids, num_segments))


install()
