"""A graph that returns a weight as it is returns the Parameter itself (its later name
changes and writes show through), as MindSpore 2.10 does in both modes; unnamed Parameters
get unique generated names, which a Cell attribute replaces."""
import numpy as np
import pytest

import graphkiln as ms
from graphkiln.common.parameter import _is_parameter_generated


@pytest.mark.parametrize("mode", [ms.GRAPH_MODE, ms.PYNATIVE_MODE])
def test_returned_weight_is_the_parameter(mode):
    class Net(ms.nn.Cell):
        def __init__(self):
            super().__init__()
            self.w = ms.Parameter(ms.Tensor(np.ones(2, np.float32)), name="w")

        @ms.jit
        def construct(self, x):
            ms.ops.assign(self.w, x * 3)
            return self.w, x + 1

    ms.set_context(mode=mode)
    net = Net()
    w, y = net(ms.Tensor(np.ones(2, np.float32)))
    assert w is net.w
    np.testing.assert_array_equal(w.asnumpy(), [3.0, 3.0])
    np.testing.assert_array_equal(y.asnumpy(), [2.0, 2.0])


def test_unnamed_parameters_get_unique_generated_names():
    class Net(ms.nn.Cell):
        def __init__(self):
            super().__init__()
            self.a = ms.Parameter(ms.Tensor(1.0))
            self.pair = (ms.Parameter(ms.Tensor(2.0)), ms.Parameter(ms.Tensor(3.0)))

    net = Net()
    assert net.a.name == "a"
    names = [p.name for p in net.pair]
    assert len(set(names)) == 2 and all(_is_parameter_generated(n) for n in names)
    assert not _is_parameter_generated("a")
