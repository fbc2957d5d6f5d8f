"""``ops.auto_generate.contiguous`` (a copy in its own row-major buffer: writing into it
leaves the source alone) and ``array_func.arg_max/min_with_value_`` (MindSpore's
primitive instances, axis 0), against NumPy, in PyNative and graph mode."""
import numpy as np
import pytest

import graphkiln as ms
from graphkiln import Tensor, nn
from graphkiln.ops.auto_generate import contiguous
from graphkiln.ops.function.array_func import arg_max_with_value_, arg_min_with_value_


class Contiguous(nn.Cell):
    def construct(self, x):
        return contiguous(x.transpose(2, 0, 1)) * 2.0


@pytest.mark.parametrize("mode", [ms.PYNATIVE_MODE, ms.GRAPH_MODE])
def test_contiguous_of_a_transpose(mode):
    before = ms.get_context("mode")
    ms.set_context(mode=mode)
    try:
        a = np.arange(24, dtype=np.float32).reshape(2, 3, 4)
        out = Contiguous()(Tensor(a)).asnumpy()
    finally:
        ms.set_context(mode=before)
    np.testing.assert_array_equal(out, a.transpose(2, 0, 1) * 2)


def test_writes_into_the_copy_leave_the_source():
    x = Tensor(np.arange(6, dtype=np.float32).reshape(2, 3))
    y = contiguous(x.transpose(1, 0))
    y[:, 1] = 1.0
    np.testing.assert_array_equal(x.asnumpy(), np.arange(6).reshape(2, 3))
    np.testing.assert_array_equal(y.asnumpy()[:, 1], [1, 1, 1])


def test_arg_with_value_instances():
    v = np.array([0.0, 0.4, 0.6, 0.7, 0.1], np.float32)
    i, m = arg_max_with_value_(Tensor(v))
    assert (int(i), float(m)) == (3, pytest.approx(0.7))
    i, m = arg_min_with_value_(Tensor(v))
    assert (int(i), float(m)) == (0, 0.0)
