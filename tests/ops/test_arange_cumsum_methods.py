"""``ops.arange``, ``ops.repeat_elements``, ``Tensor.cumsum/to/data``: MindSpore 2.10's
results (dtypes checked by hand on MindSpore: int64 for integer bounds, float32 otherwise),
against NumPy, in both modes."""
import numpy as np
import pytest

import graphkiln as ms
from graphkiln import Tensor, ops


@pytest.fixture(params=[ms.GRAPH_MODE, ms.PYNATIVE_MODE], ids=["graph", "pynative"])
def mode(request):
    ms.set_context(mode=request.param)
    yield
    ms.set_context(mode=ms.GRAPH_MODE)


def test_arange_dtypes_and_values(mode):
    assert ops.arange(5).dtype == ms.int64
    np.testing.assert_array_equal(ops.arange(1, 7, 2).asnumpy(), [1, 3, 5])
    got = ops.arange(0.5, 3)
    assert got.dtype == ms.float32
    np.testing.assert_allclose(got.asnumpy(), np.arange(0.5, 3))
    assert ops.arange(3, dtype=ms.float32).dtype == ms.float32


def test_repeat_elements_and_tensor_methods(mode):
    x = np.array([[1, 2], [3, 4]], np.float32)

    @ms.jit
    def f(t):
        return ops.repeat_elements(t, 2, 1), t.cumsum(), t.cumsum(0), t.to(ms.int32)

    rep, flat, rows, ints = f(Tensor(x))
    np.testing.assert_array_equal(rep.asnumpy(), np.repeat(x, 2, 1))
    np.testing.assert_array_equal(flat.asnumpy(), np.cumsum(x))
    np.testing.assert_array_equal(rows.asnumpy(), np.cumsum(x, 0))
    assert ints.dtype == ms.int32
    t = Tensor(x)
    np.testing.assert_array_equal(t.data.asnumpy(), x)
    with pytest.raises(TypeError, match="'rep' must be int"):
        ops.repeat_elements(t, 1.5)
