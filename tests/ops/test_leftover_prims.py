"""Beyond the recorded families ``leftover_prims`` and ``truncated_normal``: where MindSpore
2.10 CPU is wrong (ParameterizedTruncatedNormal's per-batch parameters and a -inf lower
bound) graphkiln's draws follow the truncated normal (its closed-form moments); vmap of
``ops.Conv3DTranspose`` is a loop of calls; a run-time ``k`` compiles once for every
value."""
import math

import numpy as np
import pytest

import graphkiln as ms
from graphkiln import Tensor, ops
from graphkiln.ops.operations import random_ops

N = 4000


def _ptn(means, stds, lows, highs, seed=11):
    op = random_ops.ParameterizedTruncatedNormal(seed=seed, seed2=3)
    shape = Tensor(np.array([len(means), N], np.int32))
    return op(shape, *(Tensor(np.array(v, np.float64)) for v in (means, stds, lows, highs)))


def _moments(mean, std, low, high):
    """Mean and standard deviation of N(mean, std) truncated to [low, high]."""
    a, b = (low - mean) / std, (high - mean) / std

    def pdf(z):
        return 0.0 if math.isinf(z) else math.exp(-z * z / 2) / math.sqrt(2 * math.pi)

    def upper_tail(z):  # P(Z > z), accurate far out on the right
        return 0.5 * math.erfc(z / math.sqrt(2))

    mass = upper_tail(a) - upper_tail(b)
    shift = (pdf(a) - pdf(b)) / mass
    spread = ((0.0 if math.isinf(a) else a * pdf(a)) - (0.0 if math.isinf(b) else b * pdf(b))) \
        / mass
    return mean + std * shift, std * math.sqrt(1 + spread - shift * shift)


@pytest.mark.parametrize("params", [
    ((0.0, 1.0, -1.0, 1.0), (1.0, 2.0, 0.0, 3.0), (-2.0, 0.5, 1.0, 1.5)),  # normal, normal, tail
    ((0.0, 1.0, 0.2, 0.5), (3.0, 1.0, -np.inf, 2.5), (0.0, 1.0, 2.5, 6.0)),  # uniform, -inf, exp
])
def test_each_batch_draws_from_its_own_truncated_normal(params):
    means, stds, lows, highs = zip(*params)
    out = _ptn(means, stds, lows, highs).asnumpy()
    for row, (m, s, lo, hi) in zip(out, params):
        assert np.isfinite(row).all() and row.min() >= lo and row.max() <= hi
        mean, std = _moments(m, s, lo, hi)
        assert abs(row.mean() - mean) < 4 * std / np.sqrt(N)
        assert abs(row.std() - std) < 0.08 * std


def test_truncated_normal_moments_and_stream():
    op = random_ops.TruncatedNormal(ms.float64, seed=4, seed2=1)
    first = op(Tensor(np.array([N, 2], np.int64))).asnumpy()
    second = op(Tensor(np.array([N, 2], np.int64))).asnumpy()
    mean, std = _moments(0.0, 1.0, -2.0, 2.0)
    for draws in (first, second):
        assert draws.min() >= -2.0 and draws.max() <= 2.0
        assert abs(draws.mean() - mean) < 4 * std / np.sqrt(draws.size)
        assert abs(draws.std() - std) < 0.03
    assert not np.array_equal(first, second)  # the engine advances between calls
    again = random_ops.TruncatedNormal(ms.float64, seed=4, seed2=1)(
        Tensor(np.array([N, 2], np.int64))).asnumpy()
    np.testing.assert_array_equal(again, first)  # a new primitive starts at its seeds


def test_vmap_of_conv3d_transpose_is_a_loop():
    rng = np.random.default_rng(3)
    xs = Tensor(rng.standard_normal((2, 1, 3, 3, 3, 3)).astype(np.float32))
    w = Tensor(rng.standard_normal((3, 2, 2, 2, 2)).astype(np.float32))
    op = ops.Conv3DTranspose(3, 2, 2, pad_mode="same", stride=2)
    got = ms.vmap(lambda x: op(x, w))(xs).asnumpy()
    want = np.stack([op(xs[i], w).asnumpy() for i in range(2)])
    np.testing.assert_allclose(got, want, rtol=1e-6, atol=1e-6)


def test_a_runtime_k_compiles_once():
    x = Tensor(np.arange(20, dtype=np.float32).reshape(4, 5))
    pad = Tensor(np.float32(-1))
    fn = ms.jit(lambda m, k: ops.MatrixDiagPartV3("LEFT_RIGHT")(m, k, pad))
    compiles = set()
    for k in ([-1, 1], [0, 2], [-3, 0]):
        got = fn(x, Tensor(np.array(k, np.int32))).asnumpy()
        compiles.add(id(ms.compile_info(fn)))
        want = ops.MatrixDiagPartV3("LEFT_RIGHT")(x, Tensor(np.array(k, np.int32)), pad)
        np.testing.assert_array_equal(got, want.asnumpy())
    assert len(compiles) == 1
