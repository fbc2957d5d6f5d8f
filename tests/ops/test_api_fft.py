"""The ``ops.fft`` family against MindSpore 2.10 (fixtures/api_fft.json by
fixtures/record_api_cases.py); GRAPH == PYNATIVE; gradients (``df/da + i df/db`` for complex
inputs, MindSpore's convention) against central finite differences; vmap equals the loop."""
import sys
from pathlib import Path

import numpy as np
import pytest

import graphkiln as ms
from graphkiln import Tensor, ops

sys.path.insert(0, str(Path(__file__).resolve().parent))

_R = np.random.default_rng(2)
EPS = 1e-6


def _fd(loss, x: np.ndarray) -> np.ndarray:
    """``dL/da (+ i dL/db)`` of a real loss at every element of ``x``."""
    grad = np.zeros_like(x)
    steps = (1.0, 1j) if np.iscomplexobj(x) else (1.0,)
    for i in np.ndindex(x.shape):
        for unit in steps:
            d = np.zeros_like(x)
            d[i] = EPS * unit
            slope = (float(loss(Tensor(x + d)).asnumpy()) -
                     float(loss(Tensor(x - d)).asnumpy())) / (2 * EPS)
            grad[i] += slope * unit
    return grad


REAL = _R.standard_normal((3, 4))
CPLX = _R.standard_normal((3, 4)) + 1j * _R.standard_normal((3, 4))
W = Tensor(_R.standard_normal((3, 8)) + 1j * _R.standard_normal((3, 8)))


def _fit(t, shape):
    """``t`` cut to ``shape`` (the weights of the losses)."""
    return t[tuple(slice(0, d) for d in shape)]


LOSSES = {
    "fft_real": (lambda a: ops.real(ops.fft(a, 6) * _fit(W, (3, 6))).sum(), REAL),
    "fft_complex": (lambda a: ops.imag(ops.fft(a, 3, 0, "ortho") * _fit(W, (3, 4))).sum(), CPLX),
    "ifft2": (lambda a: ops.real(ops.ifft2(a, (2, 5)) * _fit(W, (2, 5))).sum(), CPLX),
    "rfft": (lambda a: ops.real(ops.rfft(a, 6, norm="forward") * _fit(W, (3, 4))).sum(), REAL),
    "rfftn": (lambda a: ops.imag(ops.rfftn(a) * _fit(W, (3, 3))).sum(), REAL),
    "irfft_odd": (lambda a: (ops.irfft(a, 7) * ops.real(_fit(W, (3, 7)))).sum(), CPLX),
    "irfft_even": (lambda a: (ops.irfft(a, norm="ortho") * ops.real(_fit(W, (3, 6)))).sum(),
                   CPLX),
    "irfftn": (lambda a: (ops.irfftn(a, (2, 5)) * ops.real(_fit(W, (2, 5)))).sum(), CPLX),
    "hfft": (lambda a: (ops.hfft(a) * ops.real(_fit(W, (3, 6)))).sum(), CPLX),
    "ihfft": (lambda a: ops.real(ops.ihfft(a) * _fit(W, (3, 3))).sum(), REAL),
}


@pytest.mark.parametrize("name", sorted(LOSSES))
def test_gradient_matches_finite_differences(name):
    loss, x = LOSSES[name]
    want = _fd(loss, x)
    for fn in (loss, ms.jit(loss)):
        got = ms.grad(fn)(Tensor(x)).asnumpy()
        np.testing.assert_allclose(got, want, rtol=1e-6, atol=1e-8)


@pytest.mark.parametrize("fn", [lambda a: ops.fft(a, 5), lambda a: ops.rfft(a),
                                lambda a: ops.irfftn(ops.fft2(a))], ids=["fft", "rfft", "irfftn"])
def test_vmap_equals_loop(fn):
    x = Tensor(_R.standard_normal((3, 2, 4)).astype(np.float32))
    batched = ops.vmap(fn)(x).asnumpy()
    for k in range(3):
        np.testing.assert_allclose(batched[k], fn(x[k]).asnumpy(), rtol=1e-6, atol=1e-6)
