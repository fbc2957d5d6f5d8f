"""Forward-mode autodiff (transforms/forward_mode.py, ops.jvp): directional derivatives
against central finite differences for every differentiable primitive (the samples of
tests/ops/test_bprop.py), through tensor ``if`` and ``while``, lazy-inline graph calls and
nested ``grad``; GRAPH == PYNATIVE; errors."""
import sys
from pathlib import Path

import numpy as np
import pytest

import graphkiln as ms
from graphkiln import Tensor, nn, ops
from graphkiln.common import lazy_inline

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "ops"))
from test_bprop import SAMPLES, ZERO_BY_DEFINITION, _leaves, _objective, _weights  # noqa: E402

EPS = 1e-6


def _directional_fd(fn, leaves, dirs) -> float:
    plus = fn(*[Tensor(a + EPS * d) for a, d in zip(leaves, dirs)]).asnumpy()
    minus = fn(*[Tensor(a - EPS * d) for a, d in zip(leaves, dirs)]).asnumpy()
    return float((plus - minus) / (2 * EPS))


@pytest.mark.parametrize("name", sorted(SAMPLES))
def test_jvp_matches_finite_differences_for_every_primitive(name):
    rng = np.random.default_rng(sum(map(ord, name)) + 1)
    for k, make in enumerate(SAMPLES[name]):
        args, attrs = make(rng)
        leaves = _leaves(args)
        if not leaves:
            continue
        fn = _objective(name, args, attrs, _weights(name, args, attrs, rng))
        dirs = [rng.standard_normal(a.shape) for a in leaves]
        for i in ZERO_BY_DEFINITION.get(name, ()):  # no derivative along these inputs
            if i < len(dirs):  # (an optional input a sample leaves out)
                dirs[i] = np.zeros_like(dirs[i])
        _, t = ops.jvp(fn, tuple(Tensor(a) for a in leaves), tuple(Tensor(d) for d in dirs))
        np.testing.assert_allclose(float(t.asnumpy()), _directional_fd(fn, leaves, dirs),
                                   rtol=1e-5, atol=1e-7, err_msg=f"{name} sample {k}")


def f32(*v):
    return Tensor(np.array(v, np.float32))


def poly(x, y):
    return ops.sin(x) * y + x * x


def test_jvp_of_two_inputs_matches_hand_derivative_and_mindspore():
    x, y = f32(0.5, 1.0), f32(2.0, 3.0)
    vx, vy = f32(1.0, 0.0), f32(0.0, 1.0)
    out, t = ops.jvp(poly, (x, y), (vx, vy))
    # recorded with MindSpore 2.10 (ops.jvp of the same function and inputs)
    np.testing.assert_allclose(out.asnumpy(), [1.2088511, 3.5244129], rtol=1e-6)
    np.testing.assert_allclose(t.asnumpy(), [2.7551651, 0.84147096], rtol=1e-6)


def branchy(x):
    if x.sum() > 0:
        z = ops.exp(x) * x
    else:
        z = x * x * 3
    return z


@pytest.mark.parametrize("sign", [1.0, -1.0])  # then-branch, else-branch
@pytest.mark.parametrize("mode", [ms.PYNATIVE_MODE, ms.GRAPH_MODE])
def test_jvp_through_tensor_if(sign, mode):
    ms.set_context(mode=mode)
    xn = np.array([0.3, 0.7]) * sign
    v = np.array([1.0, -2.0])

    @ms.jit
    def in_graph(x, v):
        return ops.jvp(branchy, x, v)

    run = in_graph if mode == ms.GRAPH_MODE else (lambda x, v: ops.jvp(branchy, x, v))
    out, t = run(Tensor(xn), Tensor(v))
    want = (np.exp(xn) * (1 + xn) if sign > 0 else 6 * xn) * v
    np.testing.assert_allclose(t.asnumpy(), want, rtol=1e-12)
    np.testing.assert_allclose(out.asnumpy(), branchy(Tensor(xn)).asnumpy(), rtol=1e-12)
    if mode == ms.GRAPH_MODE:
        assert ms.compile_info(in_graph).count("Switch") >= 1


def test_jvp_of_tuple_output_and_has_aux():
    x, v = Tensor(np.array([1.0, 2.0])), Tensor(np.array([0.5, 1.0]))
    out, t = ops.jvp(lambda x: (x * 2, ops.exp(x)), x, v)
    np.testing.assert_allclose(t[0].asnumpy(), 2 * v.asnumpy())
    np.testing.assert_allclose(t[1].asnumpy(), np.exp(x.asnumpy()) * v.asnumpy())
    out, t, aux = ops.jvp(lambda x: (x * x, x + 1), x, v, has_aux=True)
    np.testing.assert_allclose(t.asnumpy(), 2 * x.asnumpy() * v.asnumpy())
    np.testing.assert_allclose(aux.asnumpy(), x.asnumpy() + 1)  # one aux: itself (MindSpore)


def test_jvp_through_lazy_inline_blocks_equals_the_inlined_model():
    class Block(nn.Cell):
        @lazy_inline
        def __init__(self):
            super().__init__()
            self.w = ms.Parameter(Tensor(np.array([[0.5, -1.0], [2.0, 0.25]])), name="w")

        def construct(self, x):
            return ops.tanh(ops.matmul(x, self.w))

    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.blocks = nn.CellList([Block(), Block()])

        def construct(self, x):
            for b in self.blocks:
                x = b(x)
            return x

    net = Net()
    x, v = Tensor(np.array([[0.1, 0.2]])), Tensor(np.array([[1.0, -1.0]]))
    ms.set_context(mode=ms.GRAPH_MODE)

    @ms.jit
    def lazy(x, v):
        return ops.jvp(net, x, v)

    _, t = lazy(x, v)
    w = net.blocks[0].w.asnumpy()
    want = v.asnumpy()
    h = x.asnumpy()
    for _ in range(2):  # chain rule through tanh(h @ w), twice
        pre = h @ w
        want = (1 - np.tanh(pre) ** 2) * (want @ w)
        h = np.tanh(pre)
    np.testing.assert_allclose(t.asnumpy(), want, rtol=1e-12)


def test_grad_of_jvp_is_the_hessian_vector_product():
    x, v = Tensor(np.array([0.3, -0.4])), Tensor(np.array([1.0, 2.0]))

    def f(x):
        return ops.reduce_sum(ops.sin(x) * x)

    hvp = ms.grad(lambda x: ops.jvp(f, x, v)[1])(x)
    xn = x.asnumpy()
    np.testing.assert_allclose(hvp.asnumpy(), (2 * np.cos(xn) - xn * np.sin(xn)) * v.asnumpy(),
                               rtol=1e-12)


def test_jvp_errors():
    x = Tensor(np.array([1.0, 2.0]))
    with pytest.raises(ValueError, match="v has invalid length"):
        ops.jvp(poly, (x, x), (x,))
    with pytest.raises(ValueError, match="shape"):
        ops.jvp(ops.exp, x, Tensor(np.array([1.0])))
    with pytest.raises(TypeError, match="'v' must be a Tensor or a tuple of Tensors"):
        ops.jvp(ops.exp, x, 1.0)


def grow(x, y):
    while x.sum() < 10:  # a tensor condition: one While node
        x = ops.sin(x) * y + x * 1.5 + 0.5
    return x


@pytest.mark.parametrize("mode", [ms.PYNATIVE_MODE, ms.GRAPH_MODE])
def test_jvp_through_tensor_while_matches_finite_differences(mode):
    ms.set_context(mode=mode)
    x, y = np.array([0.5, 1.0]), np.array([2.0, 0.7])
    vx, vy = np.array([1.0, -1.0]), np.array([0.3, 0.5])
    run = ms.jit(lambda *a: ops.jvp(grow, a[:2], a[2:]))
    out, t = run(*[Tensor(a) for a in (x, y, vx, vy)])
    ms.set_context(mode=ms.PYNATIVE_MODE)
    fd = (grow(Tensor(x + EPS * vx), Tensor(y + EPS * vy)).asnumpy()
          - grow(Tensor(x - EPS * vx), Tensor(y - EPS * vy)).asnumpy()) / (2 * EPS)
    np.testing.assert_allclose(t.asnumpy(), fd, rtol=1e-6)
    np.testing.assert_allclose(out.asnumpy(), grow(Tensor(x), Tensor(y)).asnumpy())
    if mode == ms.GRAPH_MODE:
        assert ms.compile_info(run).count("While") == 2  # the loop and its tangent loop
