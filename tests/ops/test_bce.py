"""``BinaryCrossEntropy`` and ``BCEWithLogitsLoss`` against values, gradients (zero for
``weight`` and ``pos_weight``, as MindSpore gives) and errors recorded from MindSpore 2.10 CPU
(fixtures/bce.json, by fixtures/record_bce.py); GRAPH == PYNATIVE."""
import json
import os
import sys

import numpy as np
import pytest

import graphkiln as ms
from graphkiln import Tensor, ops
from graphkiln.ops import operations as P

FIXTURES = os.path.join(os.path.dirname(__file__), "fixtures")
sys.path.insert(0, FIXTURES)
from bce_cases import CALLS, LABEL, LOGITS, POS_WEIGHT, ROW_WEIGHT, outcome  # noqa: E402
from call_outcome import assert_outcome  # noqa: E402

with open(os.path.join(FIXTURES, "bce.json")) as f:
    RECORDED = json.load(f)


@pytest.mark.parametrize("name", sorted(CALLS))
def test_matches_mindspore(name):
    got, want = outcome(lambda: CALLS[name](ms, ops, P, Tensor)), RECORDED[name]
    assert_outcome(got, want, rtol=1e-5, half_rtol=1e-3, grad_atol=1e-6)


@pytest.mark.parametrize("reduction", ["none", "mean", "sum"])
def test_graph_equals_pynative(reduction):
    args = [Tensor(a.astype(np.float32)) for a in (LOGITS, LABEL, ROW_WEIGHT, POS_WEIGHT)]
    eager = P.BCEWithLogitsLoss(reduction)(*args)
    graph = ms.jit(lambda *a: P.BCEWithLogitsLoss(reduction)(*a))(*args)
    np.testing.assert_array_equal(eager.asnumpy(), graph.asnumpy())
