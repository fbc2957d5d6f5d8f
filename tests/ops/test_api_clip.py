"""``ops.clamp``/``clip``/``clip_by_norm`` against MindSpore 2.10 (fixtures/api_clip.json by
fixtures/record_api_cases.py); GRAPH == PYNATIVE; gradients against finite differences."""
import sys
from pathlib import Path

import numpy as np

import graphkiln as ms
from graphkiln import Tensor, ops

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from numeric_grad import numeric_grad  # noqa: E402


def test_clip_by_norm_gradient_matches_finite_differences():
    x = np.array([[0.3, -1.2, 0.8], [2.0, -0.4, 1.1]])
    w = Tensor(np.array([[0.5, -1.0, 2.0], [1.5, 0.25, -0.75]]))

    def loss(a):
        return (ops.clip_by_norm(a, 1.0) * w).sum()

    np.testing.assert_allclose(ms.grad(loss)(Tensor(x)).asnumpy(), numeric_grad(loss, x),
                               rtol=1e-6, atol=1e-8)
