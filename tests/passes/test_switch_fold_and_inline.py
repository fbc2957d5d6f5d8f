import numpy as np

import graphkiln as ms
from graphkiln.ir.abstract import AbstractTensor
from graphkiln.ir.anf import ValueNode, toposort
from graphkiln.passes import inline, switch_fold


def branchy(x):
    if x.sum() > 0:
        y = x * 2
    else:
        y = x - 1
    return y


def test_constant_condition_becomes_a_call_then_inlines(traced):
    t = traced(branchy, ms.Tensor(np.array([1.0, 2.0])))
    sw = next(n for n in toposort(t.graph)
              if n.prim_name() == "Switch")
    true = np.asarray(True)
    sw.set_input(1, ValueNode(true, AbstractTensor(ms.bool_, (), true)))
    assert t.apply(switch_fold.run)
    assert t.apply(inline.run)
    assert t.count("Switch") == 0 and t.count("Mul") == 1 and t.count("Sub") == 0
    np.testing.assert_array_equal(t.run(), [2.0, 4.0])
