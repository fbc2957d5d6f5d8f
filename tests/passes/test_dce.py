import numpy as np

import graphkiln as ms
from graphkiln.ir.anf import all_graphs
from graphkiln.passes import dce


def dead_use_in_branch(x, y):
    if x.sum() > 0:
        t = y * 2  # noqa: F841  (dead on purpose: `y` becomes an unused branch parameter)
        w = x + 1
    else:
        w = x - 1
    return w


def no_dead_capture(x, y):
    z = y * 3
    if x.sum() > 0:
        w = x + 1
    else:
        w = x - 1
    return w + z * 0


def _branch_params(t) -> dict:
    return {g.name: [p.name for p in g.params] for g in all_graphs(t.graph)
            if g is not t.graph}


def test_branch_parameters_nobody_uses_are_dropped(traced):
    t = traced(dead_use_in_branch, ms.Tensor(np.array([1.0])), ms.Tensor(np.array([2.0])))
    before_params = _branch_params(t)
    assert all(sorted(p) == ["x", "y"] for p in before_params.values()), before_params
    before = t.run()
    assert t.apply(dce.run) is True
    after_params = _branch_params(t)
    assert after_params.keys() == before_params.keys()
    assert all(p == ["x"] for p in after_params.values()), after_params
    np.testing.assert_array_equal(t.run(), before)


def test_nothing_to_drop_leaves_the_graph_alone(traced):
    t = traced(no_dead_capture, ms.Tensor(np.array([1.0])), ms.Tensor(np.array([2.0])))
    params = _branch_params(t)
    before = t.run()
    assert t.apply(dce.run) is False
    assert _branch_params(t) == params
    np.testing.assert_array_equal(t.run(), before)
