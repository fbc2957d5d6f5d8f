"""``mindspore.ops.function`` reached as an attribute of ``ops`` (as MindSpore's tests write
``ops.function.nn_func.interpolate_ext``), and ``interpolate_ext`` (mint's interpolate)."""
import numpy as np
import pytest

import graphkiln as ms
from graphkiln import Tensor, mint, ops


def test_function_package_is_an_attribute_of_ops():
    import graphkiln.ops.function as function
    assert ops.function is function
    assert ops.function.nn_func.interpolate_ext is ops.interpolate_ext
    assert mint.nn.functional.interpolate is ops.interpolate_ext


@pytest.mark.parametrize("mode", [ms.PYNATIVE_MODE, ms.GRAPH_MODE])
def test_interpolate_ext_nearest_by_size_and_scale(mode):
    ms.set_context(mode=mode)
    x = np.arange(24, dtype=np.float32).reshape(1, 2, 3, 4)

    @ms.jit
    def by_size(t):
        return ops.function.nn_func.interpolate_ext(t, (6, 8), None, "nearest")

    np.testing.assert_array_equal(by_size(Tensor(x)).asnumpy(), x.repeat(2, 2).repeat(2, 3))
    # a scale factor: output floor(n * s), source index floor(i * n_in / n_out)
    got = ops.interpolate_ext(Tensor(x), None, (1.5, 0.5), "nearest").asnumpy()
    rows, cols = np.floor(np.arange(4) * 3 / 4).astype(int), np.arange(2) * 2
    np.testing.assert_array_equal(got, x[:, :, rows][:, :, :, cols])
    ms.set_context(mode=ms.PYNATIVE_MODE)
