"""Ops MindSpore's NLP tutorial (sequence labelling, a CRF) uses: ``ops.logsumexp`` and
``mindspore.numpy.where`` with an integer mask. NumPy references."""
import numpy as np
import pytest

import graphkiln as ms
import graphkiln.numpy as mnp

X = np.array([[1.0, 2.0, 3.0], [-1.0, 0.0, 1000.0]], np.float32)


def _reference(x, axis, keepdims=False):
    peak = x.max(axis=axis, keepdims=True)
    out = np.log(np.exp(x - peak).sum(axis=axis, keepdims=True)) + peak
    return out if keepdims else np.squeeze(out, axis=axis)


@pytest.mark.parametrize("mode", [ms.PYNATIVE_MODE, ms.GRAPH_MODE])
@pytest.mark.parametrize("axis,keep", [(1, False), (0, True), ((0, 1), False), (-1, True)])
def test_logsumexp_matches_numpy_without_overflow(mode, axis, keep):
    ms.set_context(mode=mode)
    fn = ms.jit(lambda t: ms.ops.logsumexp(t, axis, keep)) if mode == ms.GRAPH_MODE else \
        (lambda t: ms.ops.logsumexp(t, axis, keep))
    got = fn(ms.Tensor(X)).asnumpy()
    np.testing.assert_allclose(got, _reference(X.astype(np.float64), axis, keep), rtol=1e-6)


def test_logsumexp_gradient_is_the_softmax():
    g = ms.grad(lambda t: ms.ops.logsumexp(t, 1).sum())(ms.Tensor(X)).asnumpy()
    e = np.exp(X - X.max(axis=1, keepdims=True))
    np.testing.assert_allclose(g, e / e.sum(axis=1, keepdims=True), rtol=1e-6, atol=1e-7)


def test_numpy_where_takes_an_integer_mask_as_truth_values():
    mask = ms.Tensor(np.array([1, 0, 2]))
    got = mnp.where(mask, ms.Tensor(np.ones(3, np.float32)), ms.Tensor(np.zeros((2, 3),
                                                                                 np.float32)))
    np.testing.assert_array_equal(got.asnumpy(), np.where(np.array([1, 0, 2]), 1.0,
                                                          np.zeros((2, 3))))
