"""NumPy values on the left of a Tensor operator (``ndarray == Tensor``, ``np.float32(2) * x``).

Concrete Tensors: NumPy computes with their host arrays and returns an ndarray, as recorded
from MindSpore 2.10 CPU in fixtures/numpy_interop.json (fixtures/record_numpy_interop.py).
Graph-time Tensors: the operator stays a Tensor op (checked against NumPy).
"""
import json
import os
import sys

import numpy as np
import pytest

import graphkiln as ms
from graphkiln import Tensor

FIXTURES = os.path.join(os.path.dirname(__file__), "fixtures")
sys.path.insert(0, FIXTURES)
from numpy_interop_cases import CASES  # noqa: E402

with open(os.path.join(FIXTURES, "numpy_interop.json")) as f:
    RECORDED = json.load(f)


@pytest.mark.parametrize("name", sorted(CASES))
def test_numpy_left_operand_matches_mindspore(name):
    got = CASES[name](Tensor)
    want = RECORDED[name]
    assert type(got).__name__ == want["type"]
    assert str(got.dtype) == want["dtype"]
    np.testing.assert_array_equal(got, np.array(want["value"], dtype=want["dtype"]))


def test_numpy_scalar_with_graph_tensor_stays_a_tensor_op():
    @ms.jit
    def f(x):
        return np.float32(2) * x, np.int64(1) < x, np.float32(5) - x

    x = np.array([0.5, 1.0, 2.0], np.float32)
    scaled, less, diff = f(Tensor(x))
    assert isinstance(scaled, Tensor)
    np.testing.assert_array_equal(scaled.asnumpy(), 2 * x)
    np.testing.assert_array_equal(less.asnumpy(), 1 < x)
    np.testing.assert_array_equal(diff.asnumpy(), 5 - x)
