"""``mindspore._no_grad`` in PyNative mode: what its block computes is a constant to an
enclosing gradient (the same gradient as ``ops.stop_gradient`` on the block's results),
compiled calls inside it are not recorded, a gradient started inside it raises MindSpore's
RuntimeError, and the previous state comes back on exit (also after an error)."""
import numpy as np
import pytest

import graphkiln as ms
from graphkiln import Parameter, Tensor, _no_grad, jit, nn, ops
from graphkiln.compile.api import _pynative_executor


@pytest.fixture(autouse=True)
def pynative():
    before = ms.get_context("mode")
    ms.set_context(mode=ms.PYNATIVE_MODE)
    yield
    ms.set_context(mode=before)


class Scaled(nn.Cell):
    def __init__(self, blocked: bool):
        super().__init__()
        self.w = Parameter(Tensor(np.array([1.5, -2.0], np.float32)), name="w")
        self.blocked = blocked

    def construct(self, x):
        y = ops.sin(x) * self.w
        if self.blocked:
            with _no_grad():
                m = ops.exp(y)
        else:
            m = ops.stop_gradient(ops.exp(y))
        return m * y * x


def test_block_is_a_constant_like_stop_gradient():
    x = Tensor(np.array([0.3, 0.7], np.float32))
    got = ops.grad(Scaled(True), grad_position=0, weights=None)(x)
    want = ops.grad(Scaled(False), grad_position=0, weights=None)(x)
    np.testing.assert_allclose(got.asnumpy(), want.asnumpy(), rtol=1e-6)
    net = Scaled(True)
    gw = ops.grad(net, grad_position=None, weights=net.trainable_params())(x)[0]
    ref = Scaled(False)
    gw_ref = ops.grad(ref, grad_position=None, weights=ref.trainable_params())(x)[0]
    np.testing.assert_allclose(gw.asnumpy(), gw_ref.asnumpy(), rtol=1e-6)


def test_decorated_function_and_compiled_call_record_nothing():
    @jit
    def double(a):
        return a * 2.0

    @_no_grad()
    def blocked(a):
        return double(a) + ops.square(a)

    x = Tensor(np.array([1.0, 3.0], np.float32))
    g = ops.grad(lambda a: blocked(a) * a)(x)
    np.testing.assert_allclose(g.asnumpy(), (x.asnumpy() * 2 + x.asnumpy() ** 2), rtol=1e-6)
    g = ops.grad(lambda a: double(a) * a)(x)  # the same compiled call, recorded again
    np.testing.assert_allclose(g.asnumpy(), 4 * x.asnumpy(), rtol=1e-6)


def test_gradient_inside_raises_and_state_is_restored():
    x = Tensor(np.array([1.0], np.float32))
    with pytest.raises(RuntimeError, match="In no_grad context, you can not calculate"):
        with _no_grad():
            assert not _pynative_executor.enable_grad()
            ops.grad(ops.sin)(x)
    assert _pynative_executor.enable_grad()
    np.testing.assert_allclose(ops.grad(ops.sin)(x).asnumpy(), np.cos([1.0]), rtol=1e-6)
