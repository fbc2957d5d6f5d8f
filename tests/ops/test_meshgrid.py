"""ops.meshgrid / ops.Meshgrid against np.meshgrid, graph == pynative, and MindSpore 2.10's
errors (types and key phrases checked by hand with MindSpore)."""
import numpy as np
import pytest

import graphkiln as ms
from graphkiln import Tensor, ops


@pytest.mark.parametrize("indexing", ["xy", "ij"])
@pytest.mark.parametrize("dtype", [np.float32, np.int64, np.bool_])
def test_matches_numpy(indexing, dtype):
    xs = [np.arange(n).astype(dtype) for n in (3, 4, 2)]
    want = np.meshgrid(*xs, indexing=indexing)
    got = ops.meshgrid(*[Tensor(x) for x in xs], indexing=indexing)
    graph = ms.jit(lambda a, b, c: ops.Meshgrid(indexing)((a, b, c)))(*[Tensor(x) for x in xs])
    for g, h, w in zip(got, graph, want):
        np.testing.assert_array_equal(g.asnumpy(), w)
        np.testing.assert_array_equal(h.asnumpy(), w)


@pytest.mark.parametrize("inputs, kwargs, error, phrase", [
    ((np.ones(2, np.float32), np.ones(3, np.int32)), {}, ValueError, "same type"),
    ((np.ones(2, np.float32), np.ones((2, 2), np.float32)), {}, ValueError, "1-D"),
    ((np.ones(2, np.float32),), {"indexing": "zz"}, ValueError, "'xy' or 'ij'"),
    ((np.ones(2, np.float32),), {"indexing": 1}, TypeError, "should be a str"),
])
def test_errors(inputs, kwargs, error, phrase):
    with pytest.raises(error, match=phrase):
        ops.meshgrid(*[Tensor(x) for x in inputs], **kwargs)
