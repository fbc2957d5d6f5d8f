"""uint16/uint32/uint64 Tensors in arithmetic and comparisons give MindSpore's dtypes and
values (fixtures/wide_uints.json, recorded by fixtures/record_wide_uints.py), in PyNative and
in graphs; an operand of another type is MindSpore's TypeError."""
import json
import os
import sys

import numpy as np
import pytest

import graphkiln as ms
from graphkiln import Tensor, ops

FIXTURES = os.path.join(os.path.dirname(__file__), "fixtures")
sys.path.insert(0, FIXTURES)
from wide_uint_cases import CASES, DTYPES, MIXED, run, run_mixed  # noqa: E402

with open(os.path.join(FIXTURES, "wide_uints.json")) as f:
    RECORDED = json.load(f)


def _check(got, want):
    assert str(got.dtype) == want["dtype"]
    np.testing.assert_array_equal(got.asnumpy(), np.array(want["value"]))


@pytest.mark.parametrize("name", sorted(CASES))
def test_operator_matches_mindspore(name):
    _check(run(Tensor, name), RECORDED[name])


@pytest.mark.parametrize("dt", DTYPES)
def test_minimum_and_graph_equal_pynative(dt):
    x, y = Tensor(np.array([5, 1], dt)), Tensor(np.array([2, 3], dt))
    _check(ops.minimum(x, y), RECORDED[f"minimum_{dt}"])

    @ms.jit
    def f(a, b):
        return a + b, a * b, ops.minimum(a, b), a < b

    for got, want in zip(f(x, y), (x + y, x * y, ops.minimum(x, y), x < y)):
        assert got.dtype == want.dtype
        np.testing.assert_array_equal(got.asnumpy(), want.asnumpy())


@pytest.mark.parametrize("name", sorted(MIXED))
def test_mixed_operand_types_raise_mindspores_type_error(name):
    with pytest.raises(TypeError) as info:
        run_mixed(Tensor, name)
    assert str(info.value) == RECORDED[f"mixed_{name}"]


@pytest.mark.parametrize("dt", ("uint8",) + DTYPES)
def test_sqrt_gives_float32(dt):
    """(fixtures/record_sqrt_uints.py)"""
    with open(os.path.join(FIXTURES, "sqrt_uints.json")) as f:
        want = json.load(f)[dt]
    got = ops.sqrt(Tensor(np.array([4, 9, 0, 2], dt)))
    assert str(got.dtype) == want["dtype"]
    np.testing.assert_allclose(got.asnumpy(), want["value"], rtol=1e-6)
