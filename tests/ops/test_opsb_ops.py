"""The primitives and behaviours added for the ``tests/st/ops`` slice every 15th file from the
5th against values, gradients and error types recorded from MindSpore 2.10 CPU in GRAPH_MODE
(fixtures/opsb.json, by fixtures/record_opsb.py), and PYNATIVE == GRAPH."""
import json
import os
import sys

import numpy as np
import pytest

import graphkiln as ms
from graphkiln import Tensor, ops

FIXTURES = os.path.join(os.path.dirname(__file__), "fixtures")
sys.path.insert(0, FIXTURES)
from opsb_cases import CALLS, outcome  # noqa: E402

with open(os.path.join(FIXTURES, "opsb.json")) as f:
    RECORDED = json.load(f)


def _matches(got, want) -> None:
    assert got[0] == want[0], got
    if got[0] == "error":
        assert got[1] == want[1]
    elif got[0] == "grads":
        for g, w in zip(got[1], want[1]):
            np.testing.assert_allclose(g, w, rtol=1e-5, atol=1e-6)
    else:
        rtol = 2e-3 if got[0] == "Float16" else 1e-5
        np.testing.assert_allclose(got[1], want[1], rtol=rtol, atol=1e-6)


@pytest.fixture(params=[ms.GRAPH_MODE, ms.PYNATIVE_MODE], ids=["graph", "pynative"])
def mode(request):
    old = ms.get_context("mode")
    ms.set_context(mode=request.param)
    yield request.param
    ms.set_context(mode=old)


@pytest.mark.parametrize("name", sorted(CALLS))
def test_matches_mindspore(name, mode):
    _matches(outcome(lambda: CALLS[name](ms, ops, Tensor)), RECORDED[name])


def test_recorded_every_case():
    assert sorted(RECORDED) == sorted(CALLS)
