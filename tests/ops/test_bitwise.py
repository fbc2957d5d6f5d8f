"""``&``, ``|``, ``^`` and ``x.bitwise_and(y)``... on Tensors are bitwise (integers, uint64
too) or logical (bools), with MindSpore's result dtypes (fixtures/bitwise.json, recorded by
fixtures/record_bitwise.py); GRAPH == PYNATIVE; float Tensors are a TypeError."""
import json
import os
import sys

import numpy as np
import pytest

import graphkiln as ms
from graphkiln import Tensor

FIXTURES = os.path.join(os.path.dirname(__file__), "fixtures")
sys.path.insert(0, FIXTURES)
from bitwise_cases import OPERATORS, PAIRS, run, run_method  # noqa: E402

with open(os.path.join(FIXTURES, "bitwise.json")) as f:
    RECORDED = json.load(f)


@pytest.mark.parametrize("pair", sorted(PAIRS))
@pytest.mark.parametrize("op", sorted(OPERATORS))
def test_operator_matches_mindspore(op, pair):
    want = RECORDED[f"{op}_{pair}"]
    got = run(Tensor, op, pair)
    assert str(got.dtype) == want["dtype"]
    np.testing.assert_array_equal(got.asnumpy(), np.array(want["value"]))


@pytest.mark.parametrize("pair", sorted(p for p, (_, y) in PAIRS.items()
                                         if isinstance(y, np.ndarray)))
@pytest.mark.parametrize("op", sorted(OPERATORS))
def test_method_matches_mindspore(op, pair):
    want = RECORDED[f"method_{op}_{pair}"]
    got = run_method(Tensor, op, pair)
    assert str(got.dtype) == want["dtype"]
    np.testing.assert_array_equal(got.asnumpy(), np.array(want["value"]))


def test_graph_equals_pynative():
    @ms.jit
    def f(x, y):
        return x & y, x | y, x ^ y

    x, y = (Tensor(a) for a in PAIRS["int8_int32"])
    for got, want in zip(f(x, y), (x & y, x | y, x ^ y)):
        np.testing.assert_array_equal(got.asnumpy(), want.asnumpy())


def test_float_tensors_raise_type_error():
    assert "BitwiseAnd" in RECORDED["float_error"]
    with pytest.raises(TypeError, match="BitwiseAnd"):
        Tensor(np.array([1.5])) & Tensor(np.array([1.5]))
