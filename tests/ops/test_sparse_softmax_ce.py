"""``SparseSoftmaxCrossEntropyWithLogits`` beyond its recorded family
(fixtures/api_sparse_softmax_ce_cases.py): its gradient and the gradient kernel's own
derivative against finite differences, labels out of range, vmap against a loop."""
import sys
from pathlib import Path

import numpy as np
import pytest

import graphkiln as ms
from graphkiln import Tensor, ops

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from numeric_grad import numeric_grad  # noqa: E402

X = np.array([[1.0, 2.0, 3.0, -0.5], [1.0, -1.0, 0.5, 2.5], [0.0, 0.25, -3.0, 1.0]])
Y = Tensor(np.array([2, 0, 3], np.int32))
W = Tensor(np.linspace(-1.0, 1.0, 12).reshape(3, 4))


def test_loss_gradient_matches_finite_differences():
    def loss(a):
        return ops.SparseSoftmaxCrossEntropyWithLogits()(a, Y) * 2.5
    np.testing.assert_allclose(ms.grad(loss)(Tensor(X)).asnumpy(), numeric_grad(loss, X),
                               rtol=1e-6, atol=1e-8)


def test_gradient_kernel_derivative_matches_finite_differences():
    def weighted(a):
        return (ops.SparseSoftmaxCrossEntropyWithLogits(is_grad=True)(a, Y) * W).sum()
    np.testing.assert_allclose(ms.grad(weighted)(Tensor(X)).asnumpy(),
                               numeric_grad(weighted, X), rtol=1e-6, atol=1e-8)


@pytest.mark.parametrize("label", [4, 9])
def test_labels_past_the_classes_raise(label):
    """MindSpore's CPU kernel reads past the row for these; graphkiln refuses them."""
    with pytest.raises(RuntimeError, match=r"must be in \[0, 4\)"):
        ops.SparseSoftmaxCrossEntropyWithLogits()(Tensor(X), Tensor(np.array([0, label, 1],
                                                                              np.int32)))


def test_vmap_equals_a_loop():
    xs = np.stack([X, X[::-1] * 0.5]).astype(np.float32)
    ys = np.array([[2, 0, 3], [1, 1, 0]], np.int32)
    op = ops.SparseSoftmaxCrossEntropyWithLogits()
    got = ops.vmap(op)(Tensor(xs), Tensor(ys)).asnumpy()
    want = [op(Tensor(x), Tensor(y)).asnumpy() for x, y in zip(xs, ys)]
    np.testing.assert_allclose(got, want, rtol=1e-6)
