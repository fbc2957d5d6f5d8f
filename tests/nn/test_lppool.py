"""LPPool1d/LPPool2d against NumPy (the p-norm of each window), in PYNATIVE and GRAPH
mode, unbatched inputs, and MindSpore's argument errors."""
import numpy as np
import pytest

import graphkiln as ms
from graphkiln import Tensor, nn

MODES = {"pynative": ms.PYNATIVE_MODE, "graph": ms.GRAPH_MODE}
X = np.random.default_rng(0).random((2, 3, 5, 7)).astype(np.float32) + 0.1


def np_lp_pool(x, p, kernel, stride):
    """The last len(kernel) axes pooled with the sum of x^p, then the 1/p power."""
    n = len(kernel)
    out_sizes = [(x.shape[-n + i] - kernel[i]) // stride[i] + 1 for i in range(n)]
    out = np.zeros(x.shape[:-n] + tuple(out_sizes), np.float64)
    for idx in np.ndindex(*out_sizes):
        window = tuple(slice(i * s, i * s + k) for i, s, k in zip(idx, stride, kernel))
        out[(...,) + idx] = (x[(...,) + window].astype(np.float64) ** p).sum(
            axis=tuple(range(-n, 0))) ** (1 / p)
    return out


@pytest.mark.parametrize("mode", MODES)
def test_lp_pool_matches_numpy(mode):
    ms.set_context(mode=MODES[mode])
    got = nn.LPPool2d(2, (2, 3), (1, 2))(Tensor(X)).asnumpy()
    np.testing.assert_allclose(got, np_lp_pool(X, 2, (2, 3), (1, 2)), rtol=1e-5)
    got = nn.LPPool2d(3.0, 2)(Tensor(X[0])).asnumpy()
    np.testing.assert_allclose(got, np_lp_pool(X[0], 3.0, (2, 2), (2, 2)), rtol=1e-5)
    x1 = X[:, :, 0]
    got = nn.LPPool1d(1, 3, 2)(Tensor(x1)).asnumpy()
    np.testing.assert_allclose(got, np_lp_pool(x1, 1, (3,), (2,)), rtol=1e-5)
    got = nn.LPPool1d(2, 2)(Tensor(x1[0])).asnumpy()
    np.testing.assert_allclose(got, np_lp_pool(x1[0], 2, (2,), (2,)), rtol=1e-5)


def test_lp_pool_argument_errors():
    with pytest.raises(TypeError, match="norm_type"):
        nn.LPPool1d("2", 2)
    with pytest.raises(ValueError, match="norm_type"):
        nn.LPPool2d(0, 2)
