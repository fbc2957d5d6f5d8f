"""``ReluGrad`` (the ReLU backward, a bitwise AND with a sign mask) gives exactly what
``np.where(x > 0, dy, 0)`` gives, bit for bit: NaN, inf and -0 in either input, every float
width, strided inputs, integers; and ``ops.grad`` of ReLU goes through it."""
import numpy as np
import pytest

import graphkiln as ms
from graphkiln import ops
from graphkiln.ops.defs.grad_ops import ReluGrad

SPECIAL = np.array([1.5, -2.0, 0.0, -0.0, np.nan, np.inf, -np.inf, 3.0])


@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64])
def test_relu_grad_is_bitwise_the_select(dtype):
    dy = np.concatenate([SPECIAL, SPECIAL[::-1]]).astype(dtype)
    x = np.repeat(SPECIAL, 2).astype(dtype)[::-1]
    dy2, x2 = np.meshgrid(dy, x)
    for a, b in ((dy2, x2), (dy2[:, ::3], x2[:, ::3]), (dy2.T, x2.T)):
        got = ReluGrad.kernel(a, b)
        want = np.where(b > 0, a, np.zeros((), dtype))
        assert got.dtype == dtype and got.shape == want.shape
        assert got.tobytes() == np.ascontiguousarray(want).tobytes()


def test_relu_grad_of_integers_and_scalars():
    np.testing.assert_array_equal(ReluGrad.kernel(np.array([4, 5, 6]), np.array([1, 0, -1])),
                                  [4, 0, 0])
    assert ReluGrad.kernel(np.array(2.5, np.float32), np.array(-1.0, np.float32)) == 0


def test_grad_of_relu_uses_the_output_mask():
    x = ms.Tensor(np.array([[-1.0, 0.0, 2.0], [np.nan, 3.0, -0.5]], np.float32))
    g = ms.grad(lambda v: (ops.relu(v) * v).sum())(x).asnumpy()
    np.testing.assert_array_equal(g, [[0.0, 0.0, 4.0], [0.0, 6.0, 0.0]])
