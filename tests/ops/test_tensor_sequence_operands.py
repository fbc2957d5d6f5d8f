"""A tuple/list of Tensors as an operand of an elementwise op (``split(x) + y``) is their
stack, so gradients flow into the Tensors; PYNATIVE == GRAPH and NumPy references."""
import numpy as np
import pytest

import graphkiln as ms
from graphkiln import Tensor, nn, ops


class TupleSum(nn.Cell):
    def construct(self, a, b):
        return ops.reduce_sum((a * 2.0, b) + a, 0) * b  # the tuple is stacked to [2, n]


@pytest.mark.parametrize("mode", [ms.PYNATIVE_MODE, ms.GRAPH_MODE])
def test_tuple_operand_value_and_gradient(mode):
    before = ms.get_context("mode")
    ms.set_context(mode=mode)
    try:
        a = np.array([1.0, 2.0, 3.0], np.float32)
        b = np.array([0.5, -1.0, 4.0], np.float32)
        out = TupleSum()(Tensor(a), Tensor(b)).asnumpy()
        ga, gb = ops.GradOperation(get_all=True)(TupleSum())(Tensor(a), Tensor(b))
    finally:
        ms.set_context(mode=before)
    # out = (2a + a + b + a) * b = (4a + b) * b
    np.testing.assert_allclose(out, (4 * a + b) * b, rtol=1e-6)
    np.testing.assert_allclose(ga.asnumpy(), 4 * b, rtol=1e-6)
    np.testing.assert_allclose(gb.asnumpy(), 4 * a + 2 * b, rtol=1e-6)


def test_list_of_numbers_is_still_a_constant():
    out = ops.add([1.0, 2.0], Tensor(np.array([1.0, 1.0], np.float32)))
    np.testing.assert_array_equal(out.asnumpy(), [2.0, 3.0])
