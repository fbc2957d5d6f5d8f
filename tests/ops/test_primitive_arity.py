"""A primitive called with more inputs than it takes raises TypeError naming it and the
counts: MindSpore 2.10's graph mode says "For Operator[Abs], the number of inputs should be
less than or equal to 1, but got 2" (its PyNative mode raises Python's TypeError)."""
import numpy as np
import pytest

import graphkiln as ms
from graphkiln import nn, ops


@pytest.mark.parametrize("mode", [ms.GRAPH_MODE, ms.PYNATIVE_MODE])
def test_too_many_inputs_name_the_operator_and_counts(mode):
    class Net(nn.Cell):
        def construct(self, x, y):
            return ops.Abs()(x, y)

    ms.set_context(mode=mode)
    x = ms.Tensor(np.array([1.0], np.float32))
    with pytest.raises(TypeError, match=r"For Operator\[Abs\], the number of inputs should "
                                        r"be less than or equal to 1, but got 2"):
        Net()(x, x)
    np.testing.assert_array_equal(ops.Add()(x, x).asnumpy(), [2.0])
