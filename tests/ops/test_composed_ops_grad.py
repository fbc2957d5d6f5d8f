"""Gradients of the ops composed of primitives (ops/elementwise.py, ops/array_ops.py,
ops/products.py) match central finite differences, in PYNATIVE and GRAPH mode alike."""
import numpy as np
import pytest

import graphkiln as ms
from graphkiln import ops

RNG = np.random.default_rng(7)
X = RNG.uniform(0.5, 2.0, (3, 4))
Y = RNG.uniform(-1.5, 1.5, (3, 4))

CASES = {
    "log2": (lambda x, y: ops.log2(x), X),
    "logaddexp": (lambda x, y: ops.logaddexp(x, y), X),
    "logaddexp2": (lambda x, y: ops.logaddexp2(x, y), X),
    "hypot": (lambda x, y: ops.hypot(x, y), X),
    "xlogy": (lambda x, y: ops.xlogy(y, x), X),
    "sinc": (lambda x, y: ops.sinc(x), X),
    "asinh": (lambda x, y: ops.asinh(y), X),
    "atanh": (lambda x, y: ops.atanh(x * 0.3), X),
    "acosh": (lambda x, y: ops.acosh(x + 1.0), X),
    "logsumexp": (lambda x, y: ops.logsumexp(x * y, 1), X),
    "lerp": (lambda x, y: ops.lerp(x, y, 0.3), X),
    "tril": (lambda x, y: ops.tril(x * y, -1), X),
    "flip": (lambda x, y: ops.flip(x, (0, 1)) * y, X),
    "diagonal": (lambda x, y: ops.diagonal(x * y, 1), X),
    "index_select": (lambda x, y: ops.index_select(x, 1, ms.Tensor([3, 0, 3])), X),
    "scatter": (lambda x, y: ops.scatter(x, 1, ms.Tensor(np.array([[0, 2]] * 3)),
                                         y[:, :2]), Y),
    "repeat_interleave": (lambda x, y: ops.repeat_interleave(x, 2, 0), X),
    "movedim": (lambda x, y: ops.movedim(x, 0, 1) * ops.movedim(y, 1, 0), X),
    "median": (lambda x, y: ops.median(x * y, 1)[0], X),
    "outer": (lambda x, y: ops.outer(x[0], y[1]), X),
    "inner": (lambda x, y: ops.inner(x, y), X),
    "addmm": (lambda x, y: ops.addmm(x, y[:, :3], x[:3], beta=0.5, alpha=2), X),
}


def _numeric_grad(fn, x, y, weights, eps=1e-6):
    grad = np.zeros_like(x)
    for i in np.ndindex(x.shape):
        up, down = x.copy(), x.copy()
        up[i] += eps
        down[i] -= eps
        f_up = np.sum(fn(ms.Tensor(up), ms.Tensor(y)).asnumpy() * weights)
        f_down = np.sum(fn(ms.Tensor(down), ms.Tensor(y)).asnumpy() * weights)
        grad[i] = (f_up - f_down) / (2 * eps)
    return grad


@pytest.mark.parametrize("mode", [ms.PYNATIVE_MODE, ms.GRAPH_MODE])
@pytest.mark.parametrize("name", sorted(CASES))
def test_gradient_matches_finite_differences(name, mode):
    ms.set_context(mode=mode)
    fn, x = CASES[name]
    y = Y
    out = fn(ms.Tensor(x), ms.Tensor(y)).asnumpy()
    weights = RNG.uniform(-1, 1, out.shape)

    def loss(a, b):
        return (fn(a, b) * ms.Tensor(weights)).sum()

    got = ms.grad(loss, grad_position=0)(ms.Tensor(x), ms.Tensor(y)).asnumpy()
    want = _numeric_grad(fn, x, y, weights)
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-7)
