"""``ops.eye`` of a size known only when the graph runs (a dimension of a ``set_inputs``
input with ``None`` dims), as MindSpore's value-depend infer gives it; NumPy reference."""
import numpy as np
import pytest

import graphkiln as ms
from graphkiln import Tensor, nn, ops


class Net(nn.Cell):
    def construct(self, x):
        return ops.eye(x.shape[1], 3, dtype=ms.float32) + x.shape[0]


@pytest.mark.parametrize("cols", [2, 5])
def test_eye_of_a_run_time_size(cols):
    ms.set_context(mode=ms.GRAPH_MODE)
    try:
        net = Net()
        net.set_inputs(Tensor(shape=[None, None], dtype=ms.float32))
        out = net(Tensor(np.ones((4, cols), np.float32))).asnumpy()
        np.testing.assert_array_equal(out, np.eye(cols, 3, dtype=np.float32) + 4)
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)
