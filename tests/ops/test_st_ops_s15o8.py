"""Extra checks for the ops of the ops s15o8 slice of MindSpore's system tests. The backward
kernels of fixtures/api_grad_kernels_cases.py: where graphkiln departs from MindSpore 2.10
(clear errors for mixed dtypes and shapes; a gradient of
``SigmoidCrossEntropyWithLogitsGrad``, which MindSpore lacks, against finite differences)
and vmap against a loop over the examples. ``ops.fold``'s messages (the recorded families
compare only the error types). ``CdistGrad`` against finite differences of ``cdist``
(MindSpore 2.10's kernel gives zeros for 0 < p < 1)."""
import numpy as np
import pytest

import graphkiln as ms
from graphkiln import Tensor, ops
from graphkiln.ops.operations import _grad_ops as G

_R = np.random.default_rng(3)
X = _R.standard_normal((3, 4)).astype(np.float64)
Y = _R.standard_normal((3, 4)).astype(np.float64)


@pytest.mark.parametrize("name", ["AsinhGrad", "AcoshGrad"])
def test_mixed_float_types_compute_in_ys_and_shapes_must_match(name):
    """As MindSpore's CPU kernels: a ``dy`` of another float type is computed in ``y``'s,
    and a ``dy`` of another shape is a RuntimeError."""
    op = getattr(G, name)()
    y = np.abs(X) + 0.5
    got = op(Tensor(y.astype(np.float32)), Tensor(Y))
    assert got.dtype == ms.float32
    np.testing.assert_allclose(got.asnumpy(), op(Tensor(y), Tensor(Y)).asnumpy(), rtol=1e-6)
    with pytest.raises(RuntimeError, match=name):
        op(Tensor(X), Tensor(Y[0]))


def test_sigmoid_ce_grad_gradient_matches_finite_differences():
    op = G.SigmoidCrossEntropyWithLogitsGrad()
    label = _R.random((3, 4))
    w = _R.standard_normal((3, 4))

    def f(a, b, c):
        return (op(a, b, c) * Tensor(w)).sum()

    grads = ms.grad(f, (0, 1, 2))(Tensor(X), Tensor(label), Tensor(Y))
    args = [X, label, Y]
    eps = 1e-6
    for k, got in enumerate(grads):
        want = np.zeros_like(args[k])
        for i in np.ndindex(args[k].shape):
            hi, lo = [a.copy() for a in args], [a.copy() for a in args]
            hi[k][i] += eps
            lo[k][i] -= eps
            want[i] = (f(*map(Tensor, hi)).asnumpy() - f(*map(Tensor, lo)).asnumpy()) / (2 * eps)
        np.testing.assert_allclose(got.asnumpy(), want, rtol=1e-5, atol=1e-7)


@pytest.mark.parametrize("name", ["SoftplusGrad", "AsinhGrad", "AcoshGrad"])
def test_vmap_equals_loop(name):
    op = getattr(G, name)()
    a, b = np.abs(X) + 0.5, Y  # three examples: rows of a, columns of b.T
    got = ops.vmap(op, in_axes=(0, 1))(Tensor(a), Tensor(b.T.copy()))
    want = np.stack([op(Tensor(a[k]), Tensor(b[k])).asnumpy() for k in range(3)])
    np.testing.assert_allclose(got.asnumpy(), want)


def test_eps_under_vmap_and_gradient():
    x = Tensor(X.astype(np.float32))
    got = ops.vmap(ops.Eps(), in_axes=1)(x)
    np.testing.assert_array_equal(got.asnumpy(), np.full((4, 3), np.finfo(np.float32).eps))
    g = ms.grad(lambda t: (ops.Eps()(t) * t).sum())(x)
    np.testing.assert_allclose(g.asnumpy(), np.full((3, 4), np.finfo(np.float32).eps))


def test_fold_messages_name_fold_and_a_negative_output_size():
    x = Tensor(np.ones((1, 4, 4), np.float32))
    with pytest.raises(ValueError, match="For 'fold', the value of 'output_size' must not be "
                                         "negative, but got \\[6, -1\\]"):
        ops.fold(x, Tensor(np.array([6, -1], np.int32)), 2)
    with pytest.raises(ValueError, match="For 'fold', the 'kernel_size'"):
        ops.fold(x, Tensor(np.array([3, 3], np.int32)), 0)


@pytest.mark.parametrize("p", [0.5, 1.5, 3.0])
def test_cdist_grad_matches_finite_differences_of_cdist(p):
    """MindSpore 2.10's CdistGrad gives zeros for 0 < p < 1; graphkiln's is the gradient."""
    x1 = _R.standard_normal((3, 4))
    x2 = _R.standard_normal((5, 4))
    g = _R.standard_normal((3, 5))
    dist = ops.cdist(Tensor(x1), Tensor(x2), p)
    got = ops.auto_generate.CdistGrad(p)(Tensor(g), Tensor(x1), Tensor(x2), dist).asnumpy()

    def f(a):
        return float((np.sum(np.abs(a[:, None] - x2[None]) ** p, -1) ** (1 / p) * g).sum())

    want = np.zeros_like(x1)
    for i in np.ndindex(x1.shape):
        hi, lo = x1.copy(), x1.copy()
        hi[i] += 1e-6
        lo[i] -= 1e-6
        want[i] = (f(hi) - f(lo)) / 2e-6
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-6)
