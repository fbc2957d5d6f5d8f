"""the activation functions (``ops.silu``, ``glu``, ``leaky_relu``...) against MindSpore 2.10
(fixtures/api_activations.json by fixtures/record_api_cases.py); GRAPH == PYNATIVE."""
import sys
from pathlib import Path

import numpy as np

import graphkiln as ms

sys.path.insert(0, str(Path(__file__).resolve().parent))



def test_rrelu_scales_negatives_by_slopes_within_the_bounds():
    x = np.linspace(-3.0, 2.0, 400).astype(np.float32)
    for fn in (ms.ops.rrelu, ms.jit(lambda a: ms.ops.rrelu(a, 0.2, 0.4))):
        lower, upper = (1 / 8, 1 / 3) if fn is ms.ops.rrelu else (0.2, 0.4)
        out = fn(ms.Tensor(x))
        assert out.dtype == ms.float32
        y = out.asnumpy()
        np.testing.assert_array_equal(y[x >= 0], x[x >= 0])
        slopes = y[x < 0] / x[x < 0]
        assert slopes.min() >= lower - 1e-6 and slopes.max() <= upper + 1e-6
        assert slopes.std() > (upper - lower) / 5  # drawn, not one constant
