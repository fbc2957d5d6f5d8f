"""``Tensor.index_put`` and ``ops.IndexPut`` against MindSpore 2.10 (fixtures/api_index_put.json
by fixtures/record_api_cases.py); GRAPH == PYNATIVE; gradients against finite differences."""
import sys
from pathlib import Path

import numpy as np
import pytest

import graphkiln as ms

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from numeric_grad import numeric_grad  # noqa: E402


@pytest.mark.parametrize("accumulate", [True, False])
def test_gradients_match_finite_differences(accumulate):
    """d/dx and d/dvalues of index_put (duplicate-free indices, so replacing is smooth)."""
    idx = [ms.Tensor(np.array([0, 1], np.int32)), ms.Tensor(np.array([2, 0], np.int32))]
    x0 = np.random.default_rng(0).standard_normal((2, 3, 4))
    v0 = np.random.default_rng(1).standard_normal(4)
    w = ms.Tensor(np.random.default_rng(2).standard_normal((2, 3, 4)))

    def loss(x, v):
        return (x.index_put(idx, v, accumulate) * w).sum()

    gx, gv = ms.grad(loss, grad_position=(0, 1))(ms.Tensor(x0), ms.Tensor(v0))
    np.testing.assert_allclose(gx.asnumpy(), numeric_grad(lambda t: loss(t, ms.Tensor(v0)), x0),
                               rtol=1e-6, atol=1e-8)
    np.testing.assert_allclose(gv.asnumpy(), numeric_grad(lambda t: loss(ms.Tensor(x0), t), v0),
                               rtol=1e-6, atol=1e-8)
