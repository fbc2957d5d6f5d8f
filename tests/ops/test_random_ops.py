"""Random primitives and functions: shapes, dtypes and ranges as MindSpore 2.10 gives them
(checked by hand), the distributions' moments on large samples, how seeds work (fixed
seeds repeat, seed 0 draws anew, ``set_seed`` restarts), graph == pynative for fixed seeds,
and MindSpore's error types for bad input."""
import numpy as np
import pytest

import graphkiln as ms
from graphkiln import Tensor, ops

SHAPE = Tensor(np.array([200, 50], np.int32))


def test_distribution_moments():
    normal = ops.standard_normal((400, 50), seed=1).asnumpy()
    assert normal.dtype == np.float32 and abs(normal.mean()) < 0.05 and abs(normal.std() - 1) < 0.05
    uni = ops.rand(400, 50, seed=2).asnumpy()
    assert uni.min() >= 0 and uni.max() < 1 and abs(uni.mean() - 0.5) < 0.02
    lap = ops.standard_laplace((400, 50), seed=3).asnumpy()
    assert abs(lap.var() - 2.0) < 0.15  # Laplace(0, 1) has variance 2
    counts = ops.random_poisson(SHAPE, Tensor(np.array([0.5, 4.0], np.float32)), seed=4)
    assert counts.shape == (200, 50, 2) and counts.dtype == ms.float32
    np.testing.assert_allclose(counts.asnumpy().reshape(-1, 2).mean(0), [0.5, 4.0], rtol=0.05)
    gam = ops.random_gamma(SHAPE, Tensor(np.array([2.0], np.float64)), seed=5)
    assert gam.dtype == ms.float64 and abs(gam.asnumpy().mean() - 2.0) < 0.1
    ints = ops.uniform((1000,), Tensor(np.int32(-2)), Tensor(np.int32(3)), seed=6,
                       dtype=ms.int32).asnumpy()
    assert ints.dtype == np.int32 and set(ints.tolist()) == {-2, -1, 0, 1, 2}
    scaled = ops.normal((20000,), Tensor(np.float32(3.0)), Tensor(np.float32(0.5)), seed=7)
    assert abs(scaled.asnumpy().mean() - 3.0) < 0.02 and abs(scaled.asnumpy().std() - 0.5) < 0.02


def test_fixed_seeds_repeat_and_zero_seeds_draw_anew():
    op = ops.StandardNormal(seed=3, seed2=4)
    first = op((5,)).asnumpy()
    assert not np.array_equal(first, op((5,)).asnumpy())  # the instance's stream advances
    np.testing.assert_array_equal(ops.StandardNormal(3, 4)((5,)).asnumpy(), first)
    run_op = ms.jit(lambda: op((5,)))  # a graph node starts its own stream
    np.testing.assert_array_equal(run_op().asnumpy(), first)
    assert not np.array_equal(run_op().asnumpy(), first)
    fresh = ops.StandardNormal()
    assert not np.array_equal(fresh((5,)).asnumpy(), fresh((5,)).asnumpy())
    run = ms.jit(lambda: fresh((5,)))
    assert not np.array_equal(run().asnumpy(), run().asnumpy())  # never folded to a constant
    ms.set_seed(11)
    first = ops.randn(4).asnumpy()
    ms.set_seed(11)
    np.testing.assert_array_equal(ops.randn(4).asnumpy(), first)


def test_shuffle_permutes_rows_and_choice_picks_true_positions():
    x = np.arange(12).reshape(6, 2)
    rows = ops.shuffle(Tensor(x), seed=1).asnumpy()
    assert sorted(map(tuple, rows)) == sorted(map(tuple, x))
    assert ops.shuffle(Tensor(np.float32(2.5))).asnumpy() == 2.5
    flags = np.array([[1, 0, 1], [0, 0, 1]], np.bool_)
    index, mask = ops.RandomChoiceWithMask(count=5, seed=1)(Tensor(flags))
    assert index.shape == (5, 2) and index.dtype == ms.int32 and mask.shape == (5,)
    assert mask.asnumpy().tolist() == [True, True, True, False, False]
    picked = index.asnumpy()[:3]
    assert sorted(map(tuple, picked)) == [(0, 0), (0, 2), (1, 2)]
    assert not index.asnumpy()[3:].any()


@pytest.mark.parametrize("call, error, phrase", [
    (lambda: ops.StandardNormal(-1, 2)((2,)), ValueError, "must >= 0"),
    (lambda: ops.StandardNormal(1.5, 2)((2,)), TypeError, "must be int"),
    (lambda: ops.StandardNormal()((2, -3)), ValueError, "all positive item"),
    (lambda: ops.StandardNormal()([2, 3]), TypeError, "a tuple, or a Tensor"),
    (lambda: ops.shuffle(2, seed=3), TypeError, "must be a Tensor"),
    (lambda: ops.random_poisson((2, 3), Tensor(np.ones(1, np.float32))), TypeError,
     "argument[shape]"),
    (lambda: ops.random_poisson(Tensor(np.array([[1, 2]], np.int32)), Tensor(np.ones(1))),
     ValueError, "rank of 'shape'"),
    (lambda: ops.random_poisson(SHAPE, Tensor(np.array([True]))), TypeError, "argument[rate]"),
    (lambda: ops.random_poisson(SHAPE, Tensor(np.ones(1)), seed=0.5), TypeError, "'seed'"),
    (lambda: ops.random_poisson(SHAPE, Tensor(np.ones(1)), dtype=ms.bool_), TypeError,
     "'dtype' should be one of"),
    (lambda: ops.random_gamma(SHAPE, Tensor(np.ones(2, np.int32))), TypeError, "alpha"),
    (lambda: ops.RandomChoiceWithMask(4)(Tensor(np.ones(3, np.int32))), TypeError, "input_x"),
    (lambda: ops.RandomChoiceWithMask(0)(Tensor(np.ones(3, np.bool_))), ValueError, "> 0"),
    (lambda: ops.rand(2, dtype=ms.int32), ValueError, "float type"),
])
def test_errors(call, error, phrase):
    with pytest.raises(error, match=phrase.replace("[", r"\[").replace("]", r"\]")):
        call()
