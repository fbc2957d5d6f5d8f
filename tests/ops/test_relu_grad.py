"""``ReluGrad`` (the ReLU backward, ``dy``'s bits times the mask ``x > 0``) gives exactly
what ``np.where(x > 0, dy, 0)`` gives, bit for bit: NaN, inf and -0 in either input, every
float width, strided inputs, integers; ``ReLU`` gives the bits of ``fmax(0, x) + 0`` (NaN and
-0 give +0), in place too; and ``ops.grad`` of ReLU goes through ReluGrad."""
import numpy as np
import pytest

import graphkiln as ms
from graphkiln import ops
from graphkiln.ops.defs.grad_ops import ReluGrad
from graphkiln.ops.defs.math import ReLU

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


@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64])
def test_relu_is_bitwise_fmax_plus_zero(dtype):
    x = np.concatenate([SPECIAL, -SPECIAL]).astype(dtype).reshape(4, 4)
    zero = np.zeros((), dtype)
    for a in (x, x[:, ::2], x.T):
        want = np.fmax(zero, a) + zero
        got = ReLU.kernel(a)
        assert got.dtype == dtype and got.tobytes() == want.tobytes()
        inplace = a.copy()
        assert ReLU.kernel(inplace, out=inplace) is inplace
        assert inplace.tobytes() == want.tobytes()


def test_relu_of_integers_and_bools():
    np.testing.assert_array_equal(ReLU.kernel(np.array([-3, 0, 4], np.int8)), [0, 0, 4])
    np.testing.assert_array_equal(ReLU.kernel(np.array([0, 7], np.uint16)), [0, 7])
    np.testing.assert_array_equal(ReLU.kernel(np.array([True, False])), [True, False])
