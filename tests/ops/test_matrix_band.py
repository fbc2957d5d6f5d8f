"""ops.matrix_band_part against NumPy's triu/tril, under vmap, jit and grad; its errors as
MindSpore 2.10 raises them (types and key phrases checked by hand with MindSpore)."""
import numpy as np
import pytest

import graphkiln as ms
from graphkiln import Tensor, ops


def _band(x, lower, upper):
    out = x if lower < 0 else np.triu(x, -lower)
    return out if upper < 0 else np.tril(out, upper)


@pytest.mark.parametrize("dtype", [np.float32, np.int32, np.bool_, np.complex64])
@pytest.mark.parametrize("shape", [(3, 5), (2, 4, 1), (1, 2, 6, 3)])
def test_matches_triu_tril(dtype, shape):
    x = (np.arange(np.prod(shape)).reshape(shape) % 7 + 1).astype(dtype)
    for lower in (-1, 0, 2, 9):
        for upper in (-1, 0, 1):
            got = ops.matrix_band_part(Tensor(x), lower, upper)
            assert got.dtype == Tensor(x).dtype
            np.testing.assert_array_equal(got.asnumpy(), _band(x, lower, upper))
            got_t = ops.matrix_band_part(Tensor(x), Tensor(lower), Tensor(upper, ms.int64))
            np.testing.assert_array_equal(got_t.asnumpy(), _band(x, lower, upper))


def test_vmap_over_bounds_and_graph_equals_pynative():
    x = np.random.default_rng(0).standard_normal((2, 3, 4)).astype(np.float32)
    lowers, uppers = np.array([1, -1]), np.array([0, 2])
    want = np.stack([_band(x[k], lowers[k], uppers[k]) for k in range(2)])
    fn = ops.vmap(ops.matrix_band_part, (0, 0, 0), 0)
    np.testing.assert_array_equal(fn(Tensor(x), Tensor(lowers), Tensor(uppers)).asnumpy(), want)
    graph = ms.jit(fn)(Tensor(x), Tensor(lowers), Tensor(uppers))
    np.testing.assert_array_equal(graph.asnumpy(), want)


def test_gradient_is_the_band_mask():
    x = Tensor(np.ones((3, 4), np.float32))
    grad = ms.grad(lambda t: ops.matrix_band_part(t, 1, 0).sum())(x)
    np.testing.assert_array_equal(grad.asnumpy(), _band(np.ones((3, 4)), 1, 0))


@pytest.mark.parametrize("args, error, phrase", [
    ((np.ones(3, np.float32), 1, 1), ValueError, "greater than or equal to 2"),
    ((np.ones((2, 2), np.float32), 1.5, 1), TypeError, "argument[lower]"),
    ((np.ones((2, 2), np.float32), 1, Tensor(np.array([1, 0]))), ValueError,
     "rank of 'upper' must be equal to 0"),
    ((np.ones((2, 2), np.float32), Tensor(1, ms.int16), 1), TypeError, "Tensor[Int32]"),
])
def test_bad_input_errors(args, error, phrase):
    x, lower, upper = args
    with pytest.raises(error, match=phrase.replace("[", r"\[").replace("]", r"\]")):
        ops.matrix_band_part(Tensor(x), lower, upper)
