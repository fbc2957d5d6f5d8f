"""Reductions of a 0-d tensor over axis 0 / -1 / (0,) against MindSpore 2.10 CPU
(fixtures/scalar_axis.json, recorded by fixtures/record_scalar_axis.py); GRAPH == PYNATIVE."""
import json
import os
import sys

import numpy as np
import pytest

import graphkiln as ms

FIXTURES = os.path.join(os.path.dirname(__file__), "fixtures")
sys.path.insert(0, FIXTURES)
from scalar_axis_cases import CASES, ERRORS, error, run  # noqa: E402

with open(os.path.join(FIXTURES, "scalar_axis.json")) as f:
    RECORDED = json.load(f)


@pytest.mark.parametrize("name", sorted(CASES))
def test_matches_mindspore(name):
    got = run(ms, name)
    want = RECORDED[name]
    assert str(got.dtype) == want["dtype"] and list(got.shape) == want["shape"]
    np.testing.assert_array_equal(got, np.array(want["value"], dtype=want["dtype"]))


@pytest.mark.parametrize("name", ["reduce_sum_tuple0", "reduce_max_m1", "reduce_mean_0",
                                  "norm_dim0", "method_sum_0"])
def test_graph_equals_pynative(name):
    graph = ms.jit(lambda: CASES[name](ms))().asnumpy()
    np.testing.assert_array_equal(graph, run(ms, name))


@pytest.mark.parametrize("name", sorted(ERRORS))
def test_moments_refuse_an_axis_of_a_0d_input(name):
    assert error(ms, name) == RECORDED["errors"][name]


def test_out_of_range_axis_is_a_value_error():
    with pytest.raises(ValueError, match=r"\[-1, 1\)"):
        ms.ops.ReduceMean()(ms.Tensor(np.float32(1.0)), 1)


def test_gradient_through_norm_loop():
    """The tutorial's ``while ops.norm(b, dim=0) < 1000: b = b * 2``: MindSpore gives
    d b / d a = 4096 at a = 0.3 (b = 0.3 * 2 ** 12)."""
    def f(a):
        b = a * 2
        while ms.ops.norm(b, dim=0) < 1000:
            b = b * 2
        return b
    a = ms.Tensor(0.3, ms.float32)
    assert float(ms.grad(f)(a).asnumpy()) == 4096.0
    assert float(ms.jit(ms.grad(f))(a).asnumpy()) == 4096.0
