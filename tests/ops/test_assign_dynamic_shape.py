"""``Assign``/``AssignAdd``/``AssignSub`` of a value whose dimensions are known only when the
graph runs (``set_inputs`` with ``None`` dims): accepted when the graph is built, checked by
the kernel, as MindSpore CPU (which raises ValueError for a (3, 2) value into a (2, 3)
Parameter at run time)."""
import numpy as np
import pytest

import graphkiln as ms
from graphkiln import Parameter, Tensor, nn, ops


class Net(nn.Cell):
    def __init__(self, op):
        super().__init__()
        self.op = op
        self.w = Parameter(Tensor(np.ones((2, 3), np.float32)), name="w")

    def construct(self, x):
        self.op(self.w, x)
        return self.w * 1


@pytest.mark.parametrize("op, fn", [(ops.AssignSub(), np.subtract), (ops.AssignAdd(), np.add),
                                    (ops.Assign(), lambda w, x: x)])
def test_assign_of_a_dynamic_shape_value(op, fn):
    ms.set_context(mode=ms.GRAPH_MODE)
    try:
        net = Net(op)
        net.set_inputs(Tensor(shape=[None, None], dtype=ms.float32))
        x = np.arange(6, dtype=np.float32).reshape(2, 3)
        np.testing.assert_array_equal(net(Tensor(x)).asnumpy(), fn(np.ones((2, 3)), x))
        with pytest.raises(ValueError, match="must have the same shape as 'variable'"):
            net(Tensor(np.ones((3, 2), np.float32)))
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)
