"""Reductions over an ``axis`` Tensor computed at run time (``set_inputs`` with an axis of
unknown length): the graph compiles once per axis count, the kernels read the axes; values
against NumPy, gradients against the same program with constant axes; a one-element Tensor
computed by the graph as a slice bound."""
import numpy as np
import pytest

import graphkiln as ms
from graphkiln import Tensor, nn, ops
from graphkiln.ops.composite import GradOperation

R = np.random.default_rng(3)
X = R.standard_normal((3, 4, 2, 5)).astype(np.float32)
FNS = {"sum": (ops.reduce_sum, np.sum), "mean": (ops.reduce_mean, np.mean),
       "max": (ops.reduce_max, np.max), "min": (ops.reduce_min, np.min),
       "prod": (ops.reduce_prod, np.prod)}


class _Reduce(nn.Cell):
    def __init__(self, fn, keep_dims=False):
        super().__init__()
        self.fn, self.keep_dims = fn, keep_dims

    def construct(self, x, axis):
        return self.fn(x, axis, self.keep_dims) * 2.0


class _Constant(nn.Cell):
    def __init__(self, fn, axes):
        super().__init__()
        self.fn, self.axes = fn, axes

    def construct(self, x):
        return self.fn(x, self.axes) * 2.0


@pytest.fixture(autouse=True)
def _graph_mode():
    ms.set_context(mode=ms.GRAPH_MODE)
    yield
    ms.set_context(mode=ms.PYNATIVE_MODE)


def _dynamic(fn, keep_dims=False):
    net = _Reduce(fn, keep_dims)
    net.set_inputs(Tensor(shape=[None, 4, None, 5], dtype=ms.float32),
                   Tensor(shape=[None], dtype=ms.int64))
    return net


@pytest.mark.parametrize("name", sorted(FNS))
@pytest.mark.parametrize("keep_dims", [False, True])
def test_values_match_numpy(name, keep_dims):
    fn, np_fn = FNS[name]
    net = _dynamic(fn, keep_dims)
    for axes in ([0, 2], [-1], [3, 0, 1], []):
        got = net(Tensor(X), Tensor(np.array(axes, np.int64))).asnumpy()
        want = np_fn(X, axis=tuple(axes) if axes else None, keepdims=keep_dims) * 2.0
        np.testing.assert_allclose(got, want, rtol=1e-5, err_msg=str(axes))


@pytest.mark.parametrize("name", sorted(FNS))
def test_gradients_equal_constant_axes(name):
    fn = FNS[name][0]
    for axes in ([1, 3], [-2]):
        axis = Tensor(np.array(axes, np.int64))
        dyn = _dynamic(fn)
        out = dyn(Tensor(X), axis)
        sens = Tensor(R.standard_normal(out.shape).astype(np.float32))
        got = GradOperation(sens_param=True)(dyn)(Tensor(X), axis, sens)
        want = GradOperation(sens_param=True)(_Constant(fn, tuple(axes)))(Tensor(X), sens)
        np.testing.assert_allclose(got.asnumpy(), want.asnumpy(), rtol=1e-5, atol=1e-6)


def test_bad_axes_raise_when_the_kernel_runs():
    net = _dynamic(ops.reduce_sum)
    with pytest.raises(RuntimeError, match="more than once"):
        net(Tensor(X), Tensor(np.array([1, 1], np.int64)))
    with pytest.raises(ValueError):
        net(Tensor(X), Tensor(np.array([4], np.int64)))


def test_slice_bound_from_a_tensor():
    class Net(nn.Cell):
        def construct(self, x):
            n = ops.dyn_shape(x)[0]
            return x[1:n:2, n - 4:]

    net = Net()
    net.set_inputs(Tensor(shape=[None, None], dtype=ms.float32))
    x = R.standard_normal((7, 6)).astype(np.float32)
    np.testing.assert_array_equal(net(Tensor(x)).asnumpy(), x[1:7:2, 3:])
