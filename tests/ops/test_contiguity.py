"""The layout of PyNative views (``is_contiguous()``, ``stride()``, ``storage_offset()``)
against MindSpore 2.10 (fixtures/contiguity.json by fixtures/record_contiguity.py)."""
import json
import os
import sys

import numpy as np
import pytest

import graphkiln as ms
from graphkiln import ops

FIXTURES = os.path.join(os.path.dirname(__file__), "fixtures")
sys.path.insert(0, FIXTURES)
from contiguity_cases import CASES  # noqa: E402

with open(os.path.join(FIXTURES, "contiguity.json")) as _f:
    RECORDED = json.load(_f)


@pytest.fixture(autouse=True)
def _pynative():
    before = ms.get_context("mode")
    ms.set_context(mode=ms.PYNATIVE_MODE)
    yield
    ms.set_context(mode=before)


def test_fixture_covers_the_cases():
    assert sorted(RECORDED) == sorted(CASES)


@pytest.mark.parametrize("name", sorted(CASES))
def test_layout_is_mindspores(name):
    x = ms.Tensor(np.arange(6, dtype=np.float32).reshape(2, 3))
    t = ops.transpose(x, (1, 0))
    v = eval(CASES[name], {"ms": ms, "ops": ops, "x": x, "t": t})  # noqa: S307
    want = RECORDED[name]
    got = {"is_contiguous": v.is_contiguous(), "stride": v.stride(),
           "storage_offset": v.storage_offset()}
    assert got == {k: want[k] for k in got}
    np.testing.assert_array_equal(v.asnumpy(), want["value"])
    assert v.contiguous().is_contiguous()


def test_graph_results_are_contiguous():
    out = ms.jit(lambda a: ops.transpose(a, (1, 0)))(ms.Tensor(np.ones((2, 3), np.float32)))
    assert out.is_contiguous() and out.stride() == [2, 1]
