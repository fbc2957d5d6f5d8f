"""Complex ``Tan``, ``Atan``, ``Sinh``, ``Cosh``, ``Log1p``, ``Expm1`` against MindSpore 2.10
(fixtures/api_complex_unary.json by fixtures/record_api_cases.py); GRAPH == PYNATIVE; the
gradient of Tan, which MindSpore's CPU kernel refuses, against finite differences."""
import sys
from pathlib import Path

import numpy as np

import graphkiln as ms
from graphkiln import Tensor, ops

sys.path.insert(0, str(Path(__file__).resolve().parent))



def test_tan_gradient_matches_finite_differences():
    z = np.array([0.3 + 0.2j, -0.7 + 0.1j, 0.05 - 0.4j])

    def loss(a):
        y = ops.Tan()(a)
        return (ops.real(y) * 2 - ops.imag(y)).sum()

    eps, want = 1e-6, np.zeros_like(z)
    for i in range(z.size):
        for unit in (1.0, 1j):  # df/da + i df/db, MindSpore's convention
            d = np.zeros_like(z)
            d[i] = eps * unit
            slope = (float(loss(Tensor(z + d)).asnumpy()) -
                     float(loss(Tensor(z - d)).asnumpy())) / (2 * eps)
            want[i] += slope * unit
    np.testing.assert_allclose(ms.grad(loss)(Tensor(z)).asnumpy(), want, rtol=1e-6)
