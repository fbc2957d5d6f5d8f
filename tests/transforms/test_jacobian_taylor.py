"""jacfwd/jacrev (ops/composite/jacobian.py) against central finite differences and each
other; jet/derivative (ops/composite/taylor.py) against finite differences of the curve and
closed forms; linearize against jvp; GRAPH == PYNATIVE; gradients with respect to a
constant tensor inside a graph (the basis of vmap'd vjp)."""
import math

import numpy as np
import pytest

import graphkiln as ms
from graphkiln import Tensor, nn, ops

EPS = 1e-6


def f64(a):
    return Tensor(np.asarray(a, np.float64))


def mixed(x, y):
    return (ops.matmul(x, y) + ops.reduce_sum(x),
            ops.sin(x * ops.reduce_mean(y)) / (1 + ops.transpose(y, (1, 0)) ** 2))


def _fd_jacobian(fn, args, out_index, pos):
    """d fn(*args)[out_index] / d args[pos] by central differences: out.shape + x.shape."""
    x = args[pos].asnumpy()
    cols = []
    for k in range(x.size):
        d = np.zeros(x.size)
        d[k] = EPS
        d = d.reshape(x.shape)
        plus = [*args[:pos], f64(x + d), *args[pos + 1:]]
        minus = [*args[:pos], f64(x - d), *args[pos + 1:]]
        cols.append((fn(*plus)[out_index].asnumpy() - fn(*minus)[out_index].asnumpy()) / (2 * EPS))
    out_shape = cols[0].shape
    return np.stack(cols, -1).reshape(out_shape + x.shape)


@pytest.mark.parametrize("jac", [ops.jacfwd, ops.jacrev], ids=["jacfwd", "jacrev"])
def test_jacobians_match_finite_differences(jac):
    rng = np.random.default_rng(0)
    args = (f64(rng.standard_normal((2, 3))), f64(rng.standard_normal((3, 2))))
    j = jac(mixed, grad_position=(0, 1))(*args)
    assert isinstance(j, tuple) and len(j) == 2 and all(len(r) == 2 for r in j)
    for o in range(2):
        for p in range(2):
            np.testing.assert_allclose(j[o][p].asnumpy(), _fd_jacobian(mixed, args, o, p),
                                       rtol=1e-6, atol=1e-8, err_msg=f"output {o} input {p}")


def test_jacfwd_equals_jacrev_in_graph_and_pynative():
    rng = np.random.default_rng(1)
    x = Tensor(rng.standard_normal((3,)).astype(np.float32))
    y = Tensor(rng.standard_normal((3, 4)).astype(np.float32))

    def f(a, b):
        return ops.tanh(ops.matmul(a, b)), a * 2

    results = []
    for mode in (ms.PYNATIVE_MODE, ms.GRAPH_MODE):
        ms.set_context(mode=mode)
        results += [ops.jacfwd(f, (0, 1))(x, y), ops.jacrev(f, (0, 1))(x, y)]
    ms.set_context(mode=ms.PYNATIVE_MODE)
    for r in results[1:]:
        for o in range(2):
            for p in range(2):
                np.testing.assert_allclose(r[o][p].asnumpy(), results[0][o][p].asnumpy(),
                                           rtol=1e-5, atol=1e-6)
    assert results[0][1][1].shape == (3, 3, 4)  # d(a * 2)/db: zeros of out.shape + b.shape
    assert not results[0][1][1].asnumpy().any()


def test_jacobian_of_a_cell_with_weights_inside_jit():
    net = nn.Dense(3, 2)
    x = Tensor(np.array([[0.5, -1.0, 2.0]], np.float32))

    @ms.jit
    def jac(x):
        return ops.jacrev(net)(x)

    w = net.weight.asnumpy()
    np.testing.assert_allclose(jac(x).asnumpy(), np.einsum("ij,ab->iajb", np.eye(1), w),
                               rtol=1e-6)


def _curve_derivatives_fd(fn, x, series, order):
    """d^k/dt^k fn(x + sum_j series[j-1] t^j / j!) at t = 0 by finite differences
    (central stencils of step h), k = 1..order."""
    def g(t):
        point = x + sum(series[j - 1] * t ** j / math.factorial(j) for j in range(1, order + 1))
        return fn(f64(point)).asnumpy()

    h = 1e-2
    stencils = {1: [(-1, -0.5), (1, 0.5)], 2: [(-1, 1), (0, -2), (1, 1)],
                3: [(-2, -0.5), (-1, 1), (1, -1), (2, 0.5)]}
    return [sum(c * g(s * h) for s, c in stencils[k]) / h ** k for k in range(1, order + 1)]


def test_jet_matches_finite_differences_of_the_curve():
    x = np.array([0.3, 1.2])
    series = np.array([[1.0, -0.5], [0.4, 2.0], [-1.0, 0.3]])

    def fn(a):
        return ops.exp(ops.sin(a)) * ops.cos(a * a)

    primal, out = ops.jet(fn, f64(x), f64(series))
    np.testing.assert_allclose(primal.asnumpy(), fn(f64(x)).asnumpy())
    for k, want in enumerate(_curve_derivatives_fd(fn, x, series, 3)):
        np.testing.assert_allclose(out.asnumpy()[k], want, rtol=2e-3, atol=2e-3,
                                   err_msg=f"order {k + 1}")


def test_derivative_closed_forms_graph_equals_pynative():
    x = f64([0.5, -1.0, 2.0])
    got = []
    for mode in (ms.PYNATIVE_MODE, ms.GRAPH_MODE):
        ms.set_context(mode=mode)
        got.append([ops.derivative(ops.sin, x, k)[1].asnumpy() for k in (1, 2, 4)])
    ms.set_context(mode=ms.PYNATIVE_MODE)
    xs = x.asnumpy()
    want = [np.cos(xs), -np.sin(xs), np.sin(xs)]
    for g in got:
        for k in range(3):
            np.testing.assert_allclose(g[k], want[k], rtol=1e-12, atol=1e-12)


def test_linearize_is_the_jvp_at_the_point():
    x = f64([[1.0, 2.0], [3.0, 0.5]])

    def fn(a):
        return ops.exp(a) * a, ops.sin(a)

    out, jvp_fn = ops.linearize(fn, x)
    for v in (f64([[1, 0], [0, 1]]), f64([[0.5, -2], [3, 1]])):
        want_out, want_t = ops.jvp(fn, x, v)
        got = jvp_fn(v)
        for a, b in zip(got, want_t):
            np.testing.assert_allclose(a.asnumpy(), b.asnumpy(), rtol=1e-12)
    for a, b in zip(out, want_out):
        np.testing.assert_allclose(a.asnumpy(), b.asnumpy())


def test_grad_with_respect_to_a_constant_tensor_inside_jit():
    """The input of ``grad`` is a graph constant (a global tensor): its gradient is still
    the derivative, not zeros (as MindSpore)."""
    x = Tensor(np.array([[1, 2], [3, 4]], np.float32))
    grad_sens = ops.GradOperation(sens_param=True)

    @ms.jit
    def g(v):
        return grad_sens(lambda a: a ** 3)(x, v)

    np.testing.assert_allclose(g(ops.ones_like(x)).asnumpy(), 3 * x.asnumpy() ** 2)
