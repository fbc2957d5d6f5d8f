"""PyNative gradients run the function eagerly on a tape (transforms/eager_autodiff.py):
PYNATIVE == GRAPH == finite differences on nets (MLP, conv net, Python control flow on
tensor values, NumPy in the forward, a nested @jit call, grad of grad), nothing compiles
for a PyNative gradient of a cell, and GradOperation's options keep their meaning."""
import sys
from pathlib import Path

import numpy as np
import pytest

import graphkiln as ms
from graphkiln import Parameter, Tensor, nn, ops
from graphkiln.compile.call_cache import compiled_graph_count
from graphkiln.ir import tracing_state

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from numeric_grad import numeric_grad  # noqa: E402

RNG = np.random.default_rng(7)


def _grads(mode, fn, *args, **kw):
    ms.set_context(mode=mode)
    out = ms.grad(fn, **kw)(*args)
    return [g.asnumpy() for g in (out if isinstance(out, tuple) else (out,))]


def _check_modes_and_fd(loss, x: np.ndarray, rtol=1e-6):
    """PYNATIVE == GRAPH (to rounding) and == central differences of the eager loss."""
    eager = _grads(ms.PYNATIVE_MODE, loss, Tensor(x))[0]
    graph = _grads(ms.GRAPH_MODE, loss, Tensor(x))[0]
    ms.set_context(mode=ms.PYNATIVE_MODE)
    np.testing.assert_allclose(eager, graph, rtol=rtol, atol=1e-12)
    np.testing.assert_allclose(eager, numeric_grad(loss, x), rtol=1e-5, atol=1e-7)


class _MLP(nn.Cell):
    def __init__(self):
        super().__init__()
        self.w1 = Parameter(Tensor(RNG.normal(size=(4, 8))), name="w1")
        self.b1 = Parameter(Tensor(RNG.normal(size=(8,))), name="b1")
        self.w2 = Parameter(Tensor(RNG.normal(size=(8, 3))), name="w2")

    def construct(self, x):
        return ops.tanh(ops.matmul(ops.relu(ops.matmul(x, self.w1) + self.b1), self.w2)).sum()


class _ConvNet(nn.Cell):
    def __init__(self):
        super().__init__()
        self.w = Parameter(Tensor(RNG.normal(size=(3, 2, 3, 3))), name="w")
        self.pool = nn.MaxPool2d(2, 2)

    def construct(self, x):
        y = ops.conv2d(x, self.w, pad_mode="pad", padding=1)
        return self.pool(ops.sigmoid(y)).sum()


class _TensorControl(nn.Cell):
    """A loop and a branch on tensor values (a graph compiles them as While and Switch)."""

    def construct(self, x):
        y = x
        while y.abs().sum() < 20:
            y = y * 1.7 + ops.sin(y)
        if y.max() > 0:
            y = y * 2
        return (y * y).sum()


class _PythonControl(nn.Cell):
    """Python control flow on tensor values: a Python loop counter and a data-dependent
    shape (runs only eagerly: a graph cannot slice by a run-time count)."""

    def construct(self, x):
        y = x
        steps = 0
        while float(y.abs().sum()) < 20 and steps < 10:
            y = y * 1.7 + ops.sin(y)
            steps += 1
        if y.max() > 0:
            y = y[: steps % 3 + 1] * 2
        return (y * y).sum()


@pytest.mark.parametrize("net, shape", [(_MLP, (2, 4)), (_ConvNet, (1, 2, 4, 4)),
                                        (_TensorControl, (3,))])
def test_nets_pynative_equals_graph_equals_finite_differences(net, shape):
    _check_modes_and_fd(net(), RNG.normal(size=shape))


def test_python_control_flow_on_tensor_values_matches_finite_differences():
    net, x = _PythonControl(), np.array([0.3, -0.2, 0.9])
    got = _grads(ms.PYNATIVE_MODE, net, Tensor(x))[0]
    np.testing.assert_allclose(got, numeric_grad(net, x), rtol=1e-5, atol=1e-7)
    assert np.count_nonzero(got) == 2  # the slice kept two of the three elements


def test_weight_gradients_pynative_equal_graph():
    net = _MLP()
    x = Tensor(RNG.normal(size=(2, 4)))
    got = {}
    for mode in (ms.PYNATIVE_MODE, ms.GRAPH_MODE):
        ms.set_context(mode=mode)
        got[mode] = ms.value_and_grad(net, None, net.trainable_params())(x)
    (v0, g0), (v1, g1) = got[ms.PYNATIVE_MODE], got[ms.GRAPH_MODE]
    np.testing.assert_allclose(v0.asnumpy(), v1.asnumpy(), rtol=1e-12)
    for a, b in zip(g0, g1):
        np.testing.assert_allclose(a.asnumpy(), b.asnumpy(), rtol=1e-10, atol=1e-14)


def test_numpy_in_the_forward():
    """NumPy on ``x.asnumpy()`` picks a scale and a shape; only Tensor ops carry gradient."""
    def loss(x):
        k = int((x.asnumpy() > 0).sum()) + 1
        return (ops.tile(x, (k,)) * float(np.abs(x.asnumpy()).max())).sum()
    x = np.array([0.5, -1.5, 2.0])
    got = _grads(ms.PYNATIVE_MODE, loss, Tensor(x))[0]
    np.testing.assert_allclose(got, np.full(3, 3 * 2.0))


class _Watched(_MLP):
    """Notes whether each run of its construct is traced (a builder records) or eager."""

    def __init__(self):
        super().__init__()
        self.traced = []

    def construct(self, x):
        self.traced.append(tracing_state.current() is not None)
        return super().construct(x)


def test_pynative_grad_of_a_cell_does_not_trace_or_compile_its_forward():
    net = _Watched()
    x = Tensor(RNG.normal(size=(2, 4)))
    before = compiled_graph_count()
    ms.set_context(mode=ms.PYNATIVE_MODE)
    kept = [ms.grad(net), ops.GradOperation(get_by_list=True)(net, net.trainable_params())]
    for g in kept * 2:
        g(x)
    assert compiled_graph_count() == before and net.traced == [False] * 4
    ms.set_context(mode=ms.GRAPH_MODE)
    kept.append(ms.grad(net))
    kept[-1](x)
    assert compiled_graph_count() == before + 1


@ms.jit
def _jit_part(x, w):
    return ops.exp(x * w) - x


def test_a_jit_call_in_the_eager_forward_is_one_step_with_its_graph_gradient():
    w = Parameter(Tensor(np.array([0.5, -0.25])), name="w")

    def loss(x):
        return (_jit_part(x, 2.0) * w).sum() + (x * x).sum()
    x = np.array([0.3, -0.8])
    _check_modes_and_fd(loss, x)
    ms.set_context(mode=ms.PYNATIVE_MODE)
    gx, (gw,) = ms.grad(loss, 0, [w])(Tensor(x))
    np.testing.assert_allclose(gw.asnumpy(), np.exp(2 * x) - x, rtol=1e-12)


def test_grad_of_grad_pynative_equals_graph():
    def f(x, y):
        return (ops.sin(x * y) * x).sum()
    second = ms.grad(ms.grad(f, (0, 1)), (0, 1))
    x, y = Tensor(np.array([0.4, -1.1])), Tensor(np.array([2.0, 0.3]))
    got = {}
    for mode in (ms.PYNATIVE_MODE, ms.GRAPH_MODE):
        ms.set_context(mode=mode)
        got[mode] = [g.asnumpy() for g in second(x, y)]
    for a, b in zip(got[ms.PYNATIVE_MODE], got[ms.GRAPH_MODE]):
        np.testing.assert_allclose(a, b, rtol=1e-12)
    # d/dx of (d/dx + d/dy) f, analytically
    xv, yv = x.asnumpy(), y.asnumpy()
    c, s = np.cos(xv * yv), np.sin(xv * yv)
    want_x = (2 * c * yv - s * yv * yv * xv) + (2 * c * xv - s * xv * yv * xv)
    np.testing.assert_allclose(got[ms.PYNATIVE_MODE][0], want_x, rtol=1e-12)


class _Clip(nn.Cell):
    def construct(self, x):
        return x * 3

    def bprop(self, x, out, dout):
        return (ops.clip_by_value(dout, -0.5, 0.5),)


@pytest.mark.parametrize("case", ["sens", "get_all_by_list", "has_aux", "return_ids",
                                  "custom_bprop"])
def test_grad_options_pynative_equal_graph(case):
    w = Parameter(Tensor(np.array([1.5, -2.0])), name="w")
    x, y = Tensor(np.array([0.2, 0.7])), Tensor(np.array([-1.0, 0.5]))

    def f(a, b):
        return ops.tanh(a * w) * b

    def run():
        if case == "sens":
            return ops.GradOperation(get_all=True, sens_param=True)(f)(
                x, y, Tensor(np.array([2.0, -1.0])))
        if case == "get_all_by_list":
            return ops.GradOperation(get_all=True, get_by_list=True)(
                f, ms.ParameterTuple([w]))(x, y)
        if case == "has_aux":
            return ms.value_and_grad(lambda a, b: (f(a, b).sum(), a * 2), (0, 1),
                                     has_aux=True)(x, y)
        if case == "return_ids":
            return ms.grad(lambda a, b: f(a, b).sum(), (1,), [w], return_ids=True)(x, y)
        return ms.grad(lambda a: (_Clip()(a) * a).sum())(x)

    def flat(v):
        if isinstance(v, (tuple, list)):
            return [e for item in v for e in flat(item)]
        return [v.asnumpy() if isinstance(v, Tensor) else v]
    got = {}
    for mode in (ms.PYNATIVE_MODE, ms.GRAPH_MODE):
        ms.set_context(mode=mode)
        got[mode] = flat(run())
    assert len(got[ms.PYNATIVE_MODE]) == len(got[ms.GRAPH_MODE])
    for a, b in zip(got[ms.PYNATIVE_MODE], got[ms.GRAPH_MODE]):
        if isinstance(b, np.ndarray):
            np.testing.assert_allclose(a, b, rtol=1e-12)
        else:
            assert a == b


def test_grad_of_grad_through_a_jit_step():
    """The backward call of a compiled step is itself a compiled step of the outer tape."""
    def f(x):
        return (_jit_part(x, 1.0) * x).sum()
    x = Tensor(np.array([0.3, -1.2]))
    got = {}
    for mode in (ms.PYNATIVE_MODE, ms.GRAPH_MODE):
        ms.set_context(mode=mode)
        got[mode] = ms.grad(ms.grad(f))(x).asnumpy()
    np.testing.assert_allclose(got[ms.PYNATIVE_MODE], got[ms.GRAPH_MODE], rtol=1e-12)
    xv = x.asnumpy()  # f = sum(x exp(x) - x^2): f'' = (x + 2) exp(x) - 2
    np.testing.assert_allclose(got[ms.PYNATIVE_MODE], (xv + 2) * np.exp(xv) - 2, rtol=1e-12)


def test_the_compiled_backward_pass_equals_the_eager_walk():
    """A tape seen before runs its compiled backward pass; it gives the walk's numbers, and
    the forward still runs eagerly every call (it sees concrete values)."""
    from graphkiln.compile import eager_backward
    from graphkiln.transforms.eager_autodiff import grad_eager
    net = _MLP()
    seen = []

    def loss(x):
        seen.append(x.asnumpy().sum())  # a concrete value: the forward runs eagerly
        return net(x)
    x = Tensor(RNG.normal(size=(2, 4)))
    ws = tuple(net.trainable_params())
    walked = grad_eager(loss, (x,), {}, positions=(0,), weights=ws)
    eager_backward._CACHE.clear()
    for _ in range(3):  # walked, compiled, reused
        compiled = grad_eager(loss, (x,), {}, positions=(0,), weights=ws,
                              compiled=eager_backward.compiled_backward)
    assert len(eager_backward._CACHE) == 1  # one structure
    assert len(seen) == 4
    for a, b in zip([*walked[1], *walked[2]], [*compiled[1], *compiled[2]]):
        np.testing.assert_allclose(a.asnumpy(), b.asnumpy(), rtol=1e-12, atol=1e-15)


@pytest.mark.parametrize("mode", [ms.PYNATIVE_MODE, ms.GRAPH_MODE])
def test_gradient_flows_through_a_tensor_made_from_a_tensor(mode):
    """``Tensor(x)`` and ``Tensor(x, dtype)`` of a differentiated ``x`` pass its gradient on
    (MindSpore 2.10's PyNative gives [7, 11] here; its GRAPH_MODE gives [0, 0], which loses
    even the direct use of ``x``)."""
    def f(x):
        y = ms.Tensor(x) * 2
        z = ms.Tensor(x, dtype=ms.float64) * 3
        return (y * x).sum() + z.sum().astype(ms.float32)

    ms.set_context(mode=mode)
    x = ms.Tensor(np.array([1.0, 2.0], np.float32))
    np.testing.assert_allclose(ops.grad(f)(x).asnumpy(), 4 * x.asnumpy() + 3)
