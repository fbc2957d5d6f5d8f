"""Dynamic shapes read by user code (``set_inputs`` with ``None`` dims), as MindSpore's
graphs compute them: ``x.shape == (3, 4)`` and ``!=`` are run-time bools, ``x.numel()`` a
run-time int, and ``Tensor([0, n])`` of run-time numbers a tensor built when the graph runs
(int64, float32 with a float). NumPy references, PYNATIVE == GRAPH."""
import numpy as np
import pytest

import graphkiln as ms
from graphkiln import Tensor, nn, ops


class ShapeTest(nn.Cell):
    def construct(self, x):
        if x.shape == (3, 4):
            y = x * 2
        else:
            y = x - 1
        if x.shape != (3, 4):
            y = y * 10
        n = x.numel()
        return y, Tensor([0, n - 1]), Tensor([n, 0.5]), n


def _expect(x):
    y = x * 2 if x.shape == (3, 4) else (x - 1) * 10
    n = x.size
    return y, np.array([0, n - 1], np.int64), np.array([n, 0.5], np.float32), n


@pytest.mark.parametrize("shape", [(3, 4), (2, 4), (3, 5)])
def test_shape_comparisons_and_sizes_are_run_time_values(shape):
    x = np.arange(np.prod(shape), dtype=np.float32).reshape(shape)
    ms.set_context(mode=ms.GRAPH_MODE)
    try:
        net = ShapeTest()
        net.set_inputs(Tensor(shape=[None, None], dtype=ms.float32))
        graph = net(Tensor(x))
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)
    for out in (graph, ShapeTest()(Tensor(x))):
        want = _expect(x)
        for got, w in zip(out[:3], want[:3]):
            np.testing.assert_array_equal(got.asnumpy(), w)
            assert got.asnumpy().dtype == w.dtype
        assert int(out[3]) == want[3]


class Creation(nn.Cell):
    def construct(self, x):
        n = x.numel()
        return ops.zeros(n + 1, ms.float32), ops.ones(x.shape[0], ms.int32)


def test_creation_of_a_run_time_size():
    x = np.ones((2, 3), np.float32)
    ms.set_context(mode=ms.GRAPH_MODE)
    try:
        net = Creation()
        net.set_inputs(Tensor(shape=[None, None], dtype=ms.float32))
        zeros, ones = net(Tensor(x))
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)
    np.testing.assert_array_equal(zeros.asnumpy(), np.zeros(7, np.float32))
    np.testing.assert_array_equal(ones.asnumpy(), np.ones(2, np.int32))
