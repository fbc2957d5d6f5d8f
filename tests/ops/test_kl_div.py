"""``KLDivLoss``, ``KLDivLossGrad`` and ``ops.kl_div`` against values, gradients (``-target *
dout`` for the logits, zero for the target) and errors recorded from MindSpore 2.10 CPU
(fixtures/kl_div.json, by fixtures/record_kl_div.py); GRAPH == PYNATIVE."""
import json
import os
import sys

import numpy as np
import pytest

import graphkiln as ms
from graphkiln import Tensor, ops
from graphkiln.ops import operations as P
from graphkiln.ops.operations import _grad_ops as G

FIXTURES = os.path.join(os.path.dirname(__file__), "fixtures")
sys.path.insert(0, FIXTURES)
from call_outcome import assert_outcome  # noqa: E402
from kl_div_cases import CALLS, LOGITS, TARGET, outcome  # noqa: E402

with open(os.path.join(FIXTURES, "kl_div.json")) as f:
    RECORDED = json.load(f)


@pytest.mark.parametrize("name", sorted(CALLS))
def test_matches_mindspore(name):
    got, want = outcome(lambda: CALLS[name](ms, ops, P, G, Tensor)), RECORDED[name]
    assert_outcome(got, want, rtol=1e-6, half_rtol=1e-3, grad_atol=1e-7)


@pytest.mark.parametrize("reduction", ["none", "mean", "sum", "batchmean"])
def test_graph_equals_pynative(reduction):
    x, y = Tensor(LOGITS.astype(np.float32)), Tensor(TARGET.astype(np.float32))
    eager = P.KLDivLoss(reduction)(x, y)
    graph = ms.jit(lambda a, b: P.KLDivLoss(reduction)(a, b))(x, y)
    np.testing.assert_array_equal(eager.asnumpy(), graph.asnumpy())
