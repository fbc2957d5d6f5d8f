"""``ops.Multinomial`` (the primitive, with replacement): shapes and dtypes, draws that
follow the weights, fixed seeds, vmap as one batched call (as MindSpore's rule), and the
errors MindSpore 2.10 raises; ``ops.composite.multinomial`` is ``ops.multinomial``."""
import numpy as np
import pytest

import graphkiln as ms
from graphkiln import Tensor, ops
from graphkiln.ops import composite as C


def test_shapes_and_dtypes():
    x = Tensor(np.array([[0.9, 0.2], [0.1, 0.1]], np.float32))
    out = ops.Multinomial(seed=3)(x, 5)
    assert out.shape == (2, 5) and out.dtype == ms.int32
    out = ops.Multinomial(dtype=ms.int64)(Tensor(np.array([1, 3], np.int32)), 4)
    assert out.shape == (4,) and out.dtype == ms.int64
    assert ops.Multinomial()(Tensor(np.array([0.5, 0.5], np.float32)), 0).shape == (0,)


def test_draws_follow_the_weights():
    w = np.array([1.0, 0.0, 3.0, 4.0])
    draws = ops.Multinomial(seed=7, seed2=1)(Tensor(w), 40000).asnumpy()
    freq = np.bincount(draws, minlength=4) / draws.size
    np.testing.assert_allclose(freq, w / w.sum(), atol=0.01)
    assert not (draws == 1).any()


def test_fixed_seeds_repeat_and_zero_seeds_draw_anew():
    x = Tensor(np.ones((3, 10), np.float32))
    a, b = (ops.Multinomial(seed=5, seed2=6)(x, 8).asnumpy() for _ in range(2))
    np.testing.assert_array_equal(a, b)
    c, d = (ops.Multinomial()(x, 50).asnumpy() for _ in range(2))
    assert (c != d).any()


@pytest.mark.parametrize("mode", [ms.PYNATIVE_MODE, ms.GRAPH_MODE])
def test_vmap_is_one_batched_call(mode):
    ms.set_context(mode=mode)
    prob = Tensor(np.array([[0.5, 0.5], [0.2, 0.8], [0.7, 0.3]], np.float32))
    op = ops.Multinomial(seed=5, seed2=6)
    batched = op(prob, 6).asnumpy()
    mapped = ops.vmap(lambda p: ops.Multinomial(seed=5, seed2=6)(p, 6), in_axes=0)(prob)
    np.testing.assert_array_equal(mapped.asnumpy(), batched)
    ms.set_context(mode=ms.PYNATIVE_MODE)


def test_composite_multinomial_is_the_functional_one():
    assert C.multinomial is ops.multinomial and C.repeat_interleave is ops.repeat_interleave


@pytest.mark.parametrize("call, error, words", [
    (lambda: ops.Multinomial()(Tensor(np.ones((2, 2, 2), np.float32)), 2), ValueError,
     "dimension must be 1 or 2"),
    (lambda: ops.Multinomial()(Tensor(np.ones(2, np.float32)), -1), ValueError, "nonnegative"),
    (lambda: ops.Multinomial(dtype=ms.float32), TypeError, "dtype"),
    (lambda: ops.Multinomial(seed=-1), ValueError, "seed"),
])
def test_mindspore_errors(call, error, words):
    with pytest.raises(error, match=words):
        call()
