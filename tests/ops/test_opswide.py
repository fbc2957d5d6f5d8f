"""Ops of the "opswide" conformance round (CTCLossV2 with labels past the class count and
targets holding the blank, ...) against values, gradients and errors recorded from MindSpore
2.10 CPU (fixtures/opswide.json, by fixtures/record_opswide.py)."""
import json
import os
import sys

import numpy as np
import pytest

import graphkiln as ms
from graphkiln import Tensor, ops

FIXTURES = os.path.join(os.path.dirname(__file__), "fixtures")
sys.path.insert(0, FIXTURES)
from opswide_cases import CALLS, outcome  # noqa: E402

with open(os.path.join(FIXTURES, "opswide.json")) as f:
    RECORDED = json.load(f)


@pytest.mark.parametrize("name", sorted(CALLS))
def test_matches_mindspore(name):
    got, want = outcome(lambda: CALLS[name](ms, ops, Tensor)), RECORDED[name]
    assert got[0] == want[0], got
    if got[0] == "error":
        assert got[1] == want[1]
    elif got[0] == "grads":
        for g, w in zip(got[1], want[1]):
            np.testing.assert_allclose(g, w, rtol=2e-5, atol=2e-6)
    else:
        np.testing.assert_allclose(got[1], want[1], rtol=2e-5, atol=1e-6)


class _Apply(ms.nn.Cell):
    def __init__(self, fn):
        super().__init__()
        self.fn = fn

    def construct(self, *args):
        return self.fn(*args)


def test_randperm_length_known_at_run_time():
    net = _Apply(lambda n: ops.randperm(n, seed=5, dtype=ms.float16))
    net.set_inputs(Tensor(shape=[None], dtype=ms.int64))
    ms.set_context(mode=ms.GRAPH_MODE)
    try:
        for n in (6, 8):
            out = net(Tensor([n], ms.int64))
            assert out.shape == (n,) and out.dtype == ms.float16
            np.testing.assert_array_equal(out.asnumpy(), ops.randperm(n, seed=5).asnumpy())
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)
