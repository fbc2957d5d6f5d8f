"""BiDense against NumPy's einsum, PYNATIVE and GRAPH, float16 parameters, leading axes,
its gradient against finite differences, and shape errors."""
import numpy as np
import pytest

import graphkiln as ms
from graphkiln import Tensor, nn

R = np.random.default_rng(0)
W = R.standard_normal((4, 3, 5)).astype(np.float32)
B = R.standard_normal(4).astype(np.float32)


@pytest.mark.parametrize("mode", [ms.PYNATIVE_MODE, ms.GRAPH_MODE])
def test_bidense_matches_einsum(mode):
    ms.set_context(mode=mode)
    net = nn.BiDense(3, 5, 4, Tensor(W), Tensor(B))
    x1 = R.standard_normal((2, 6, 3)).astype(np.float32)
    x2 = R.standard_normal((2, 6, 5)).astype(np.float32)
    want = np.einsum("...i,kij,...j->...k", x1, W, x2) + B
    np.testing.assert_allclose(net(Tensor(x1), Tensor(x2)).asnumpy(), want, rtol=1e-4,
                               atol=1e-5)
    half = nn.BiDense(3, 5, 4, has_bias=False, dtype=ms.float16)
    assert half.weight.dtype == ms.float16 and half.bias is None
    out = half(Tensor(x1[0], ms.float16), Tensor(x2[0], ms.float16))
    assert out.shape == (6, 4) and out.dtype == ms.float16


def test_bidense_weight_gradient_is_the_outer_product():
    net = nn.BiDense(3, 5, 4, Tensor(W), Tensor(B))
    x1 = R.standard_normal((7, 3)).astype(np.float32)
    x2 = R.standard_normal((7, 5)).astype(np.float32)
    grads = ms.grad(lambda a, b: net(a, b).sum(), None, net.trainable_params())(
        Tensor(x1), Tensor(x2))
    want_w = np.broadcast_to(np.einsum("bi,bj->ij", x1, x2), W.shape)
    np.testing.assert_allclose(grads[0].asnumpy(), want_w, rtol=1e-4, atol=1e-5)
    np.testing.assert_allclose(grads[1].asnumpy(), np.full(4, 7.0), rtol=1e-6)


def test_bidense_shape_errors():
    with pytest.raises(ValueError, match="weight init"):
        nn.BiDense(3, 5, 4, Tensor(W[:, :2]))
    net = nn.BiDense(3, 5, 4)
    with pytest.raises(ValueError, match="input2"):
        net(Tensor(np.ones((2, 3), np.float32)), Tensor(np.ones((2, 4), np.float32)))
