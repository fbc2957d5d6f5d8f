"""PixelShuffle, PixelUnshuffle and ChannelShuffle (and their ops) against NumPy
references (which MindSpore 2.10 gives too), in PYNATIVE and GRAPH mode, with their
errors."""
import numpy as np
import pytest

import graphkiln as ms
from graphkiln import Tensor, nn, ops

X = np.arange(2 * 8 * 2 * 3, dtype=np.float32).reshape(2, 8, 2, 3)
MODES = {"pynative": ms.PYNATIVE_MODE, "graph": ms.GRAPH_MODE}


def np_pixel_shuffle(x, r):
    *pre, c, h, w = x.shape
    y = x.reshape(*pre, c // r // r, r, r, h, w)
    y = np.moveaxis(y, (-4, -3), (-3, -1))  # (.., c, h, r, w, r)
    return y.reshape(*pre, c // r // r, h * r, w * r)


def np_channel_shuffle(x, g):
    n, c, *rest = x.shape
    return x.reshape(n, g, c // g, *rest).swapaxes(1, 2).reshape(x.shape)


@pytest.mark.parametrize("mode", MODES)
def test_shuffles_match_numpy(mode):
    ms.set_context(mode=MODES[mode])
    np.testing.assert_array_equal(nn.PixelShuffle(2)(Tensor(X)).asnumpy(),
                                  np_pixel_shuffle(X, 2))
    np.testing.assert_array_equal(nn.ChannelShuffle(4)(Tensor(X)).asnumpy(),
                                  np_channel_shuffle(X, 4))
    shuffled = np_pixel_shuffle(X[0], 2)
    np.testing.assert_array_equal(nn.PixelUnshuffle(2)(Tensor(shuffled)).asnumpy(), X[0])


def test_shuffle_gradient_is_the_inverse_permutation():
    cot = np.random.default_rng(0).standard_normal(X.shape).astype(np.float32)
    grad = ms.grad(lambda t: (ops.channel_shuffle(t, 2) * Tensor(cot)).sum())(Tensor(X))
    order = np_channel_shuffle(np.arange(8).reshape(1, 8, 1), 2).ravel()
    expected = np.empty_like(cot)
    expected[:, order] = cot
    np.testing.assert_allclose(grad.asnumpy(), expected)


@pytest.mark.parametrize("make, error", [
    (lambda: nn.ChannelShuffle(0), ValueError),
    (lambda: nn.ChannelShuffle(2.0), TypeError),
    (lambda: ops.channel_shuffle(Tensor(X), 3), ValueError),
    (lambda: ops.channel_shuffle(Tensor(X[0, 0]), 1), TypeError),
    (lambda: ops.pixel_shuffle(Tensor(X), 3), ValueError),
    (lambda: ops.pixel_shuffle(Tensor(X[0, 0]), 1), ValueError),
    (lambda: ops.pixel_unshuffle(Tensor(X), 2), ValueError),
    (lambda: nn.PixelShuffle(0)(Tensor(X)), ValueError),
])
def test_shuffle_errors(make, error):
    ms.set_context(mode=ms.PYNATIVE_MODE)
    with pytest.raises(error):
        make()
