"""``ops.all`` / ``ops.any`` (and ``Tensor.all``/``Tensor.any``): bool inputs against MindSpore
2.10 CPU (fixtures/logical_reductions.npz, fixtures/record_logical_reductions.py); numeric
inputs against NumPy (MindSpore's CPU kernels are wrong there, see the cases module);
GRAPH == PYNATIVE."""
import os
import sys

import numpy as np
import pytest

import graphkiln as ms
from graphkiln import Tensor, ops

FIXTURES = os.path.join(os.path.dirname(__file__), "fixtures")
sys.path.insert(0, FIXTURES)
from logical_reduction_cases import CASES, run  # noqa: E402

RECORDED = np.load(os.path.join(FIXTURES, "logical_reductions.npz"))


@pytest.mark.parametrize("name", sorted(CASES))
def test_bool_input_matches_mindspore(name):
    got = run(ops, Tensor, name)
    assert got.dtype == ms.bool_
    np.testing.assert_array_equal(got.asnumpy(), RECORDED[name])


@pytest.mark.parametrize("dtype", [np.int32, np.float32])
@pytest.mark.parametrize("axis", [None, 0, 1, (0, 1)])
def test_numeric_input_matches_numpy(dtype, axis):
    x = np.array([[0.5, 0, -1], [2, 3, 0]]).astype(dtype)
    np.testing.assert_array_equal(ops.all(Tensor(x), axis).asnumpy(), np.all(x, axis))
    np.testing.assert_array_equal(ops.any(Tensor(x), axis, True).asnumpy(),
                                  np.any(x, axis, keepdims=True))
    np.testing.assert_array_equal(Tensor(x).any(axis).asnumpy(), np.any(x, axis))


def test_graph_mode_equals_pynative():
    @ms.jit
    def f(x):
        return ops.all(x, 1), ops.any(x > 1)

    x = Tensor(np.array([[0.5, 0, -1], [2, 3, 0]], np.float32))
    graph_all, graph_any = f(x)
    np.testing.assert_array_equal(graph_all.asnumpy(), ops.all(x, 1).asnumpy())
    assert graph_any.asnumpy() == np.array(True)
