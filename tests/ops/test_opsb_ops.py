"""The primitives and behaviours added for the ``tests/st/ops`` slice every 15th file from the
5th against values, gradients and error types recorded from MindSpore 2.10 CPU in GRAPH_MODE
(fixtures/opsb.json, by fixtures/record_opsb.py), and PYNATIVE == GRAPH."""
import json
import os
import sys

import pytest

import graphkiln as ms
from graphkiln import Tensor, ops

FIXTURES = os.path.join(os.path.dirname(__file__), "fixtures")
sys.path.insert(0, FIXTURES)
from call_outcome import assert_outcome  # noqa: E402
from opsb_cases import CALLS, outcome  # noqa: E402

with open(os.path.join(FIXTURES, "opsb.json")) as f:
    RECORDED = json.load(f)


def _matches(got, want) -> None:
    assert_outcome(got, want, rtol=1e-5, atol=1e-6, half_rtol=2e-3)


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
