"""``ops.pad`` with paddings computed by the graph (a run-time integer Tensor, run-time
ints of a dynamic shape): NumPy's ``pad`` (negative sizes crop) and PYNATIVE == GRAPH, its
gradient, and the modes it refuses."""
import numpy as np
import pytest

import graphkiln as ms
from graphkiln import Tensor, nn, ops


class Pad(nn.Cell):
    def construct(self, x, w):
        n = x.numel()
        flat = ops.pad(ops.flatten(x, start_dim=0), Tensor([1, 10 - n]), value=0.5)
        grid = ops.pad(x, (x.shape[0] - 3, 1, -1, x.shape[1]))
        return flat, grid, (grid * w).sum()


def _numpy(x):
    flat = np.pad(x.ravel(), (1, 10 - x.size), constant_values=0.5)
    grid = np.pad(x[:, 1:] if x.shape[0] == 2 else x, ((0, 0), (0, 1)))  # the last axis
    grid = np.pad(grid[1:], ((0, x.shape[1]), (0, 0)))  # then the first
    return flat, grid


def test_pad_by_run_time_sizes():
    x = np.arange(6, dtype=np.float32).reshape(2, 3)
    w = np.arange(12, dtype=np.float32).reshape(4, 3)
    eager = Pad()(Tensor(x), Tensor(w))
    ms.set_context(mode=ms.GRAPH_MODE)
    try:
        net = Pad()
        net.set_inputs(Tensor(shape=[None, None], dtype=ms.float32), Tensor(w))
        graph = net(Tensor(x), Tensor(w))
        grad = ms.grad(net)(Tensor(x), Tensor(w))
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)
    flat, grid = _numpy(x)
    for out in (eager, graph):
        np.testing.assert_array_equal(out[0].asnumpy(), flat)
        np.testing.assert_array_equal(out[1].asnumpy(), grid)
    # (the gradient of the sum of the three outputs) flat holds every element once; the
    # kept elements x[1, 1:] land at grid[0, :2], with weights w[0, :2] in the sum
    expect = np.ones_like(x)
    expect[1, 1:] += 1 + w[0, :2]
    np.testing.assert_array_equal(grad.asnumpy(), expect)


class Reflect(nn.Cell):
    def construct(self, x):
        return ops.pad(x, Tensor([0, x.shape[0]]), mode="reflect")


def test_run_time_padding_in_reflect_mode():
    """PadV3's reflect mode, the padding known when the graph runs (a 2-D input taken as
    one batch, as MindSpore's ops.pad)."""
    ms.set_context(mode=ms.GRAPH_MODE)
    try:
        net = Reflect()
        net.set_inputs(Tensor(shape=[None, None], dtype=ms.float32))
        x = np.arange(12, dtype=np.float32).reshape(3, 4)
        np.testing.assert_array_equal(net(Tensor(x)).asnumpy(),
                                      np.pad(x, ((0, 0), (0, 3)), mode="reflect"))
        with pytest.raises(ValueError, match="reflect"):
            net(Tensor(np.ones((5, 3), np.float32)))  # a padding of 5 beyond 3 columns
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)
