"""``ops.orgqr``/``Tensor.orgqr`` against MindSpore 2.10
(fixtures/api_orgqr.json by fixtures/record_api_cases.py); GRAPH == PYNATIVE."""
import sys
from pathlib import Path

import numpy as np

import graphkiln as ms

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from numeric_grad import numeric_grad  # noqa: E402


def test_gradient_matches_finite_differences():
    """MindSpore defines no gradient for Orgqr; graphkiln's composition differentiates."""
    rng = np.random.default_rng(2)
    tau = ms.Tensor(rng.uniform(0.5, 1.5, 2))
    weights = ms.Tensor(rng.standard_normal((4, 3)))

    def loss(x):
        return (ms.ops.orgqr(x, tau) * weights).sum()

    x = rng.standard_normal((4, 3))
    want = numeric_grad(loss, x)
    for fn in (loss, ms.jit(loss)):
        np.testing.assert_allclose(ms.grad(fn)(ms.Tensor(x)).asnumpy(), want, rtol=1e-5,
                                   atol=1e-8)
