"""Lstsq and ReLU6Grad against values recorded by hand from MindSpore 2.10 CPU (the
``ops.lstsq`` example of its system tests; ``_grad_ops.ReLU6Grad(ones, x)``), and NumPy."""
import numpy as np
import pytest

import graphkiln as ms
from graphkiln import Tensor, ops
from graphkiln.ops import functional as F

X = np.array([[2, 1, 5], [3, 5, 1], [1, 1, 1]], np.float32)
A = np.array([[10, 5], [15, 8], [7, 4]], np.float32)
MS_SOLUTION = [[17.000002, 11.000003], [-6.5, -4.500001], [-3.5000017, -2.500002]]


@pytest.mark.parametrize("mode", [ms.PYNATIVE_MODE, ms.GRAPH_MODE])
@pytest.mark.parametrize("call", [lambda x, a: F.lstsq(x, a), lambda x, a: x.lstsq(a)])
def test_lstsq_matches_mindspore(mode, call):
    ms.set_context(mode=mode)
    fn = ms.jit(call) if mode == ms.GRAPH_MODE else call
    out = fn(Tensor(X), Tensor(A))
    assert out.dtype == ms.float32
    np.testing.assert_allclose(out.asnumpy(), MS_SOLUTION, atol=1e-4)


def test_lstsq_overdetermined_vector_gives_one_column():
    x = np.random.default_rng(0).standard_normal((5, 3)).astype(np.float32)
    out = ops.lstsq(Tensor(x), Tensor(np.ones(5, np.float32)))
    assert out.shape == (3, 1)  # MindSpore's shape for a 1-D right-hand side
    np.testing.assert_allclose(out.asnumpy()[:, 0],
                               np.linalg.lstsq(x, np.ones(5), rcond=None)[0], rtol=1e-5)


def test_lstsq_errors_are_mindspores():
    with pytest.raises(TypeError, match="the input type must be same"):
        ops.lstsq(Tensor(X.astype(np.int32)), Tensor(A))
    with pytest.raises(ValueError, match=r"x_dim\[0\] must be equal to the length of a_dims"):
        ops.lstsq(Tensor(X), Tensor(np.ones((4, 2), np.float32)))


def test_relu6_grad_passes_in_zero_to_six_inclusive():
    grad = ops.operations._grad_ops.ReLU6Grad()
    x = Tensor(np.array([-1.0, 0.0, 3.0, 6.0, 7.0], np.float32))
    out = grad(Tensor(np.ones(5, np.float32)), x)
    assert out.asnumpy().tolist() == [0.0, 0.0, 1.0, 1.0, 0.0]  # MindSpore 2.10
