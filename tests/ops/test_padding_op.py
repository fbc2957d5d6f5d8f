"""ops.Padding / ops.padding: zeros after a last axis of length 1 (NumPy reference), in
graph and pynative mode; errors as MindSpore 2.10 raises them (checked by hand)."""
import numpy as np
import pytest

import graphkiln as ms
from graphkiln import Tensor, ops


@pytest.mark.parametrize("dtype", [np.float32, np.bool_, np.uint32, np.complex64])
def test_padding_matches_numpy_pad(dtype):
    x = (np.arange(6).reshape(2, 3, 1) - 2).astype(dtype)
    want = np.pad(x, ((0, 0), (0, 0), (0, 4)))
    np.testing.assert_array_equal(ops.padding(Tensor(x), 5).asnumpy(), want)
    graph = ms.jit(lambda t: ops.Padding(5)(t))(Tensor(x))
    np.testing.assert_array_equal(graph.asnumpy(), want)
    assert ops.Padding()(Tensor(x)).shape == (2, 3, 8)  # MindSpore's default pad_dim_size


@pytest.mark.parametrize("x, size, error, phrase", [
    (np.ones((2, 2), np.float32), 4, ValueError, "last dimension of 'x' must be 1"),
    (np.ones((2, 1), np.float32), 0, ValueError, "must > 0"),
    (np.ones((2, 1), np.float32), 1.5, TypeError, "'pad_dim_size' should be 'int'"),
    (np.ones((1,), np.float32), 2, ValueError, "rank must be greater than or equal to 2"),
])
def test_padding_errors(x, size, error, phrase):
    with pytest.raises(error, match=phrase):
        ops.padding(Tensor(x), size)
