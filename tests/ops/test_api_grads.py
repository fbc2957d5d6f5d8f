"""Gradients of the composite functional APIs of the ``test_api_*`` modules against central
finite differences (float64), in PYNATIVE and under ``@jit``."""
import sys
from pathlib import Path

import numpy as np
import pytest

import graphkiln as ms
from graphkiln import Tensor, ops

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from numeric_grad import numeric_grad  # noqa: E402

_R = np.random.default_rng(11)
W = _R.standard_normal((2, 3, 5))
OTHER = _R.standard_normal((2, 4, 5))

LOSSES = {
    "einsum": (lambda a: (ops.einsum("bij,bkj->bik", a, Tensor(OTHER[:, :3, :4])) ** 2).sum(),
               (2, 3, 4)),
    "einsum_diag": (lambda a: (ops.einsum("ii->i", a) * Tensor(np.arange(3.0))).sum(), (3, 3)),
    "kron": (lambda a: (ops.kron(a, Tensor(W[0, :2, :2])) ** 2).sum(), (2, 3)),
    "cdist": (lambda a: (ops.cdist(a, Tensor(OTHER[:, :, :3]), 3.0) * 0.5).sum(), (2, 3, 3)),
    "dist": (lambda a: ops.dist(a, Tensor(W[0]), 1.5), (3, 5)),
    "cosine_similarity": (lambda a: ops.cosine_similarity(a, Tensor(W[0])).sum(), (3, 5)),
    "logcumsumexp": (lambda a: (ops.logcumsumexp(a, 1) * Tensor(W[0, :2, :4])).sum(), (2, 4)),
    "cumprod": (lambda a: (ops.cumprod(a, 1) * Tensor(W[0, :2, :4])).sum(), (2, 4)),
    "cross": (lambda a: (ops.cross(a, Tensor(W[0, :2, :3]), 1) ** 2).sum(), (2, 3)),
    "tensor_dot": (lambda a: (ops.tensor_dot(a, Tensor(OTHER[0]), 1) ** 2).sum(), (3, 4)),
    "glu": (lambda a: (ops.glu(a, 0) * Tensor(W[0, :2, :3])).sum(), (4, 3)),
    "logsigmoid": (lambda a: ops.logsigmoid(a).sum(), (2, 3)),
    "silu": (lambda a: (ops.silu(a) * Tensor(W[0, :2, :3])).sum(), (2, 3)),
    "softmin": (lambda a: (ops.softmin(a) * Tensor(W[0, :2, :3])).sum(), (2, 3)),
    "block_diag": (lambda a: (ops.block_diag(a, a[0]) ** 2).sum(), (2, 3)),
    "rot90": (lambda a: (ops.rot90(a, 1, (0, 1)) * Tensor(W[0, :3, :2])).sum(), (2, 3)),
    "clip_by_norm": (lambda a: (ops.clip_by_norm(a, 1.0) * Tensor(W[0, :2, :3])).sum(), (2, 3)),
    "logit": (lambda a: ops.logit(ops.sigmoid(a), 0.3).sum(), (2, 3)),
    "quantile": (lambda a: (ops.quantile(a, Tensor(np.array([0.2, 0.7])), 1) ** 2).sum(),
                 (2, 5)),
    "nanquantile": (lambda a: ops.nanquantile(a, 0.4).sum(), (3, 3)),
    "cov": (lambda a: (ops.cov(a, aweights=Tensor(np.array([0.5, 1.0, 2.0, 1.5]))) ** 2).sum(),
            (2, 4)),
    "trapz": (lambda a: ops.trapz(a * a, Tensor(np.array([0.0, 0.5, 2.0])), dim=0).sum(),
              (3, 2)),
    "diag_embed": (lambda a: (ops.diag_embed(a, -1) * Tensor(OTHER[:, :4, :4])).sum(), (2, 3)),
    "diagonal_scatter": (lambda a: (ops.diagonal_scatter(a, a[0, :3] * 2, 1) ** 2).sum(),
                         (3, 4)),
    "index_fill": (lambda a: (ops.index_fill(a, 1, Tensor(np.array([1], np.int32)), 2.0) ** 2
                              ).sum(), (2, 3)),
    "grid_sample": (lambda a: (ops.grid_sample(Tensor(OTHER[:1].reshape(1, 1, 4, 5)), a * 0.9,
                                               "bilinear",
                                               "border") ** 2).sum(), (1, 2, 3, 2)),
    "grid_sample_image": (lambda a: (ops.grid_sample(a, Tensor(W[:1, :2, :4].reshape(
        1, 2, 2, 2) * 0.6)) * 2).sum(), (1, 1, 3, 4)),
    "affine_grid": (lambda a: (ops.affine_grid(a, (1, 1, 2, 3)) ** 2).sum(), (1, 2, 3)),
    "lrn": (lambda a: (ops.lrn(a, 1, 1.0, 0.7, 0.6) * Tensor(W[:1, :3, :4].reshape(
        1, 3, 2, 2))).sum(), (1, 3, 2, 2)),
    "fold": (lambda a: (ops.fold(a, Tensor(np.array([3, 3])), 2) ** 2).sum(), (1, 4, 4)),
    "mirror_pad": (lambda a: (ops.mirror_pad(a, Tensor(np.array([[1, 1], [0, 2]])), "REFLECT")
                              * Tensor(OTHER[0])).sum(), (2, 3)),
    "mvlgamma": (lambda a: ops.mvlgamma(a * a + 2.0, 3).sum(), (2, 3)),
    "zeta_q": (lambda a: ops.zeta(Tensor(np.full((2, 3), 2.5)), a * a + 0.5).sum(), (2, 3)),
    "matrix_set_diag": (lambda a: (ops.matrix_set_diag(a, a[:2, :3] * 3, Tensor(np.array(
        [-1, 0], np.int32))) ** 2).sum(), (3, 4)),
    "matrix_diag_part": (lambda a: (ops.matrix_diag_part(  # (padding in a's dtype: MindSpore's)
        a, Tensor(np.array([0, 1], np.int32)), Tensor(np.float64(0.5))) ** 2).sum(), (3, 4)),
    "matrix_diag": (lambda a: (ops.matrix_diag(a, Tensor(np.array([-1, 0], np.int32))) *
                               Tensor(OTHER[0, :3, :3])).sum(), (2, 3)),
    "conv_transpose2d": (lambda a: (ops.conv_transpose2d(a, Tensor(W[:, :2, :4].reshape(
        2, 2, 2, 2)), None, 2, 1, 1) ** 2).sum(), (1, 2, 3, 3)),
    "aminmax": (lambda a: ops.aminmax(a, axis=1)[0].sum() * 2 + ops.aminmax(a)[1].sum(),
                (2, 3)),
}


@pytest.mark.parametrize("name", sorted(LOSSES))
def test_gradient_matches_finite_differences(name):
    loss, shape = LOSSES[name]
    x = _R.uniform(0.2, 1.5, shape) * np.where(_R.random(shape) < 0.3, -1, 1)
    want = numeric_grad(loss, x)
    for fn in (loss, ms.jit(loss)):
        got = ms.grad(fn)(Tensor(x)).asnumpy()
        np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-7)


class _Mix(ms.nn.Cell):
    """A construct using several of the new functions, for GRAPH_MODE against PYNATIVE."""

    def construct(self, x):
        y = ops.einsum("ij,kj->ik", ops.clamp(x, -1.0, 1.0), ops.cumprod(x, 1))
        z = ops.real(ops.ifft(ops.fft(y))) + ops.kron(ops.silu(x[:1, :2]), x[:2, :1])
        return ops.logcumsumexp(z, 0).sum() + ops.cdist(x, x).sum() + ops.quantile(x, 0.5)


@pytest.mark.parametrize("mode", [ms.PYNATIVE_MODE, ms.GRAPH_MODE], ids=["pynative", "graph"])
def test_cell_construct_with_new_functions_matches_finite_differences(mode):
    x = _R.uniform(0.3, 1.2, (2, 3))
    net = _Mix()
    want = numeric_grad(net, x)
    ms.set_context(mode=mode)
    try:
        got = ms.grad(net)(Tensor(x)).asnumpy()
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-7)
