"""``ops.unfold``/``ops.fold`` on many channels with a large kernel (mindcv's halonet: 512
channels, 14x14 blocks): the one-hot filter grows with the channels, not their square (a
dense one took 40 GB), and the results are a plain NumPy im2col's and its adjoint's."""
import numpy as np

import graphkiln as ms
from graphkiln import Tensor, ops
from graphkiln.ops.unfold import one_hot_filter


def _im2col(x, k, pad, stride):
    xp = np.pad(x, ((0, 0), (0, 0), (pad, pad), (pad, pad)))
    o = (xp.shape[2] - k) // stride + 1
    return np.stack([xp[:, :, i:i + stride * (o - 1) + 1:stride, j:j + stride * (o - 1) + 1:stride]
                     for i in range(k) for j in range(k)], 2).reshape(x.shape[0], -1, o * o)


def test_the_filter_is_grouped_by_channel():
    assert one_hot_filter(512, (14, 14), np.float32).shape == (512 * 196, 1, 14, 14)


def test_unfold_and_its_gradient_on_512_channels_and_14x14_blocks():
    x = np.random.default_rng(0).standard_normal((1, 512, 16, 16)).astype(np.float32)
    got = ops.unfold(Tensor(x), 14, padding=3, stride=8)
    np.testing.assert_array_equal(got.asnumpy(), _im2col(x, 14, 3, 8))
    w = np.random.default_rng(1).standard_normal(got.shape).astype(np.float32)
    g = ms.grad(lambda v: (ops.unfold(v, 14, padding=3, stride=8) * Tensor(w)).sum())(Tensor(x))
    # the adjoint of im2col: each column entry added back where it was read
    want = np.zeros((1, 512, 22, 22), np.float64)
    for i in range(14):
        for j in range(14):
            block = w.reshape(1, 512, 196, 2, 2)[:, :, i * 14 + j].astype(np.float64)
            want[:, :, i:i + 9:8, j:j + 9:8] += block
    np.testing.assert_allclose(g.asnumpy(), want[:, :, 3:-3, 3:-3], rtol=1e-6, atol=1e-6)


def test_fold_of_unfold_counts_the_blocks_over_each_pixel():
    x = np.ones((1, 64, 10, 10), np.float32)
    back = ops.fold(ops.unfold(Tensor(x), 5, padding=2), (10, 10), 5, padding=2).asnumpy()
    # every pixel is read by as many blocks as fit around it in the padded image
    ref = np.zeros((14, 14))
    for i in range(10):
        for j in range(10):
            ref[i:i + 5, j:j + 5] += 1
    np.testing.assert_array_equal(back[0, 0], ref[2:-2, 2:-2])
