import numpy as np

import graphkiln as ms
from graphkiln.passes import cse


def shared(x, y):
    return (x * y + 1) + (x * y + 1)


def test_identical_pure_nodes_are_computed_once(traced):
    x, y = ms.Tensor(np.array([1.0, 2.0])), ms.Tensor(np.array([3.0, 4.0]))
    t = traced(shared, x, y)
    before = t.run()
    assert t.count("Mul") == 2
    assert t.apply(cse.run)
    assert t.count("Mul") == 1 and t.count("Add") == 2
    np.testing.assert_array_equal(t.run(), before)


def test_nothing_to_share_reports_unchanged(traced):
    t = traced(lambda x: x + 1, ms.Tensor(np.array([1.0])))
    assert not t.apply(cse.run)
