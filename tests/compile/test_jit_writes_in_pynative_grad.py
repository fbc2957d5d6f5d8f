"""Gradients of compiled code that writes its inputs or weights in place (``x.add_(y)``,
``self.count += 1``, BatchNorm's moving statistics).

A jit function inside a PyNative gradient is one step whose backward pass recomputes the
forward: it must start from the values the call saw and write nothing the user sees again
(MindSpore 2.10 runs each write once per gradient call: checked on it with the same
programs; its PyNative ``x.mul_(x)`` gradient reads the written value, a MindSpore bug).
In a graph, the copy of an input that reads before a write must pass its cotangent on
(MindSpore's static-graph tutorial: ``x.add_(y); return x`` has gradient 1 for x)."""
import numpy as np
import pytest

import graphkiln as ms
from graphkiln import Tensor, context, nn, ops


def _a_b():
    return (Tensor(np.array([1.0, 2.0], np.float32)),
            Tensor(np.array([3.0, 4.0], np.float32)))


@ms.jit
def _scale_then_square(a, b):
    a.mul_(b)
    return a * a


def _numpy_grads(a, b):
    """d/da, d/db of sum((a * b) ** 2)."""
    return 2 * a * b * b, 2 * a * a * b


def test_pynative_grad_of_jit_writing_its_input_writes_once():
    context.set_context(mode=context.PYNATIVE_MODE)
    a, b = _a_b()
    ga, gb = ms.grad(_scale_then_square, grad_position=(0, 1))(a, b)
    want_a, want_b = _numpy_grads(np.array([1.0, 2.0]), np.array([3.0, 4.0]))
    np.testing.assert_allclose(ga.asnumpy(), want_a)
    np.testing.assert_allclose(gb.asnumpy(), want_b)
    np.testing.assert_allclose(a.asnumpy(), [3.0, 8.0])  # written by the forward only
    value, (ga, gb) = ms.value_and_grad(_scale_then_square, grad_position=(0, 1))(a, b)
    np.testing.assert_allclose(value.asnumpy(), [81.0, 1024.0])
    want_a, want_b = _numpy_grads(np.array([3.0, 8.0]), np.array([3.0, 4.0]))
    np.testing.assert_allclose(ga.asnumpy(), want_a)
    np.testing.assert_allclose(gb.asnumpy(), want_b)
    np.testing.assert_allclose(a.asnumpy(), [9.0, 32.0])


class _Counting(nn.Cell):
    def __init__(self):
        super().__init__()
        self.w = ms.Parameter(Tensor(np.array([1.0, 2.0, 3.0], np.float32)), name="w")
        self.count = ms.Parameter(Tensor(1.0, ms.float32), name="count", requires_grad=False)

    @ms.jit
    def construct(self, x):
        self.count += 1
        return (self.w * x * self.count).sum()


def test_pynative_grad_of_jit_cell_writing_a_weight_writes_once():
    context.set_context(mode=context.PYNATIVE_MODE)
    net = _Counting()
    x = Tensor(np.array([1.0, 2.0, 3.0], np.float32))
    gx, (gw,) = ms.grad(net, grad_position=0, weights=net.trainable_params())(x)
    assert float(net.count.asnumpy()) == 2.0
    np.testing.assert_allclose(gx.asnumpy(), [2.0, 4.0, 6.0])  # w * count, count as written
    np.testing.assert_allclose(gw.asnumpy(), [2.0, 4.0, 6.0])


class _NormDense(nn.Cell):
    def __init__(self):
        super().__init__()
        self.bn = nn.BatchNorm1d(3, momentum=0.9)
        self.dense = nn.Dense(3, 2, weight_init="ones", bias_init="zeros")

    @ms.jit
    def construct(self, x):
        return self.dense(self.bn(x)).sum()


def test_batchnorm_statistics_move_once_per_pynative_step():
    context.set_context(mode=context.PYNATIVE_MODE)
    net = _NormDense()
    net.set_train()
    data = np.arange(12, dtype=np.float32).reshape(4, 3)
    ms.value_and_grad(net, None, net.trainable_params())(Tensor(data))
    np.testing.assert_allclose(net.bn.moving_mean.asnumpy(), 0.1 * data.mean(0), rtol=1e-6)
    np.testing.assert_allclose(net.bn.moving_variance.asnumpy(),
                               0.9 + 0.1 * data.var(0, ddof=1), rtol=1e-6)


class _AddInPlace(nn.Cell):
    def construct(self, x, y):
        x.add_(y)
        return x


class _ScaleInPlace(nn.Cell):
    def construct(self, x, y):
        x.mul_(y)
        return x * x


@pytest.mark.parametrize("mode", [context.GRAPH_MODE, context.PYNATIVE_MODE])
def test_gradient_reaches_an_input_read_before_its_write(mode):
    context.set_context(mode=mode)
    gx, gy = ops.GradOperation(get_all=True)(_AddInPlace())(Tensor(2.0), Tensor(3.0))
    assert (float(gx.asnumpy()), float(gy.asnumpy())) == (1.0, 1.0)
    a, b = _a_b()
    ga, gb = ops.GradOperation(get_all=True)(_ScaleInPlace())(a, b)
    want_a, want_b = _numpy_grads(np.array([1.0, 2.0]), np.array([3.0, 4.0]))
    np.testing.assert_allclose(ga.asnumpy(), want_a)
    np.testing.assert_allclose(gb.asnumpy(), want_b)
