import numpy as np

import graphkiln as ms
from graphkiln.passes import simplify


def identities(x):
    return (x * 1 + 0 - 0) / 1


def broadcasting_one(x):
    return x * ms.Tensor(np.ones((2, 2)))  # changes the shape: must stay


def test_neutral_elements_are_removed(traced):
    x = ms.Tensor(np.array([1.0, 2.0]))
    t = traced(identities, x)
    before = t.run()
    assert t.apply(simplify.run)
    assert t.count("Mul") == t.count("Add") == t.count("Sub") == t.count("Div") == 0
    np.testing.assert_array_equal(t.run(), before)


def test_a_neutral_element_that_broadcasts_is_kept(traced):
    t = traced(broadcasting_one, ms.Tensor(np.array([1.0, 2.0])))
    t.apply(simplify.run)
    assert t.count("Mul") == 1
    assert t.run().shape == (2, 2)
