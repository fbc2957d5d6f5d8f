"""Spec: "Dependency Control Guarantees Execution Order" — the float-status example."""
import numpy as np

import graphkiln as ms
from graphkiln import Tensor, ops, set_context
from graphkiln import dtype as mstype
from graphkiln.examples.spec import StatusNet as Net  # noqa: E402  (the spec's Net)


class OverflowNet(Net):
    def construct(self, x):
        init = self.alloc_status()
        clear_status = self.clear_status(init)
        x = ops.Depend()(x, clear_status)
        res = ops.mul(x, x)
        init = ops.Depend()(init, res)
        return self.get_status(init)


def test_spec_example_prints_matrix_of_tens(capsys, recwarn):
    set_context(mode=ms.GRAPH_MODE, device_target="Ascend")
    value = 5
    data = np.full((2, 3), value, dtype=np.float16)
    x = Tensor(data, dtype=mstype.float16)
    net = Net()
    res = net(x)
    print(res)
    assert capsys.readouterr().out == "[[10. 10. 10.]\n [10. 10. 10.]]\n"
    assert res.dtype == mstype.float16


def test_status_register_sees_overflow_in_both_modes():
    big = Tensor(np.full((2,), 60000, np.float16))
    small = Tensor(np.full((2,), 2, np.float16))
    for mode in (ms.PYNATIVE_MODE, ms.GRAPH_MODE):
        set_context(mode=mode)
        assert OverflowNet()(big).asnumpy().any()
        assert not OverflowNet()(small).asnumpy().any()


def test_depend_orders_the_status_ops_in_the_graph():
    set_context(mode=ms.GRAPH_MODE)
    net = Net()
    net(Tensor(np.ones((2, 3), np.float16)))
    info = ms.compile_info(net)
    assert info.count("Depend") == 3
    assert info.count("NPUGetFloatStatus") == 1 and info.count("NPUClearFloatStatus") == 1
