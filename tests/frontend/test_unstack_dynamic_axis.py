"""``ops.Unstack`` along an axis of unknown length (``set_inputs`` with None dimensions):
a dynamic length tuple of the slices, as MindSpore's; gradients given one sensitivity per
slice (NumPy references)."""
import numpy as np
import pytest

import graphkiln as ms
from graphkiln import Tensor, nn, ops


class Net(nn.Cell):
    def __init__(self, axis):
        super().__init__()
        self.unstack = ops.Unstack(axis=axis)

    def construct(self, x):
        return self.unstack(x)


@pytest.fixture(autouse=True)
def graph_mode():
    ms.set_context(mode=ms.GRAPH_MODE)
    yield
    ms.set_context(mode=ms.PYNATIVE_MODE)


@pytest.mark.parametrize("axis, dtype", [(0, np.float32), (1, np.float64), (-1, np.int32)])
def test_unknown_axis_length_gives_every_slice(axis, dtype):
    x = np.arange(60).reshape(3, 4, 5).astype(dtype)
    net = Net(axis)
    net.set_inputs(Tensor(shape=[None, None, None], dtype=ms.dtype.from_numpy(x.dtype)))
    out = net(Tensor(x))
    want = np.moveaxis(x, axis, 0)
    assert len(out) == len(want)
    for got, w in zip(out, want):
        np.testing.assert_array_equal(got.asnumpy(), w)


def test_gradient_with_one_sensitivity_per_slice():
    x = np.arange(30, dtype=np.float64).reshape(2, 3, 5)
    sens = tuple(Tensor(np.full((2, 3), k + 1.0)) for k in range(5))
    net = Net(2)
    net.set_inputs(Tensor(shape=[2, 3, None], dtype=ms.float64))
    grad = ms.ops.GradOperation(sens_param=True)(net)(Tensor(x), sens)
    want = np.broadcast_to(np.arange(1.0, 6.0), (2, 3, 5))
    np.testing.assert_array_equal(grad.asnumpy(), want)


def test_known_axis_length_stays_a_tuple():
    net = Net(0)
    net.set_inputs(Tensor(shape=[3, None], dtype=ms.float32))
    out = net(Tensor(np.ones((3, 2), np.float32)))
    assert isinstance(out, tuple) and len(out) == 3
