"""``mindspore.numpy.unique``: first-appearance order of the flattened input, as MindSpore
2.10 gives for [[3, 1, 3], [2, 1, 5]] (values [3, 1, 2, 5], inverse [0, 1, 0, 2, 1, 3]),
eagerly and in a graph (a dynamic length)."""
import numpy as np
import pytest

import graphkiln as ms
import graphkiln.numpy as mnp
from graphkiln import Tensor

X = [[3, 1, 3], [2, 1, 5]]


def test_eager_values_and_inverse():
    x = Tensor(np.array(X, np.int32))
    np.testing.assert_array_equal(mnp.unique(x).asnumpy(), [3, 1, 2, 5])
    out, inverse = mnp.unique(x, return_inverse=True)
    np.testing.assert_array_equal(inverse.asnumpy(), [0, 1, 0, 2, 1, 3])
    assert out.dtype == ms.int32
    # NumPy: out[inverse] rebuilds the flattened input
    np.testing.assert_array_equal(out.asnumpy()[inverse.asnumpy()], np.ravel(X))


def test_in_a_graph_equals_eager():
    @ms.jit
    def f(x):
        return mnp.unique(x, return_inverse=True)

    x = Tensor(np.array(X, np.int32))
    got = f(x)
    want = mnp.unique(x, return_inverse=True)
    for g, w in zip(got, want):
        np.testing.assert_array_equal(g.asnumpy(), w.asnumpy())


def test_not_a_tensor():
    with pytest.raises(TypeError, match="expect Tensor"):
        mnp.unique([1, 2])
