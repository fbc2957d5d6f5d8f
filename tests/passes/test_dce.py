import numpy as np

import graphkiln as ms
from graphkiln.passes import dce


def unused_capture(x, y):
    z = y * 3
    if x.sum() > 0:
        w = x + 1
    else:
        w = x - 1
    return w + z * 0


def test_branch_parameters_nobody_uses_are_dropped(traced):
    t = traced(unused_capture, ms.Tensor(np.array([1.0])), ms.Tensor(np.array([2.0])))
    before = t.run()
    t.apply(dce.run)
    np.testing.assert_array_equal(t.run(), before)
