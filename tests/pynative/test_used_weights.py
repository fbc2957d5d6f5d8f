"""PyNative ``GradOperation(get_by_list=True)(net)`` given no weights differentiates the
Parameters the output depends on, in order of first use (frozen and dropped ones left
out), also those a ``@jit`` sub-cell reads: recorded on MindSpore 2.10
(fixtures/record_used_weights.py)."""
import json
import sys
from pathlib import Path

import numpy as np
import pytest

import graphkiln as ms

FIXTURES = Path(__file__).resolve().parent / "fixtures"
sys.path.insert(0, str(FIXTURES))
from used_weights_cases import CASES, run, run_returned  # noqa: E402

RECORDED = json.loads((FIXTURES / "used_weights.json").read_text())


@pytest.mark.parametrize("name", sorted(CASES))
def test_weights_in_order_of_use_match_mindspore(name):
    before = ms.get_context("mode")
    try:
        got = run(ms, name)
    finally:
        ms.set_context(mode=before)
    want = RECORDED[name]
    np.testing.assert_allclose(got["weights"], want["weights"], rtol=1e-6)
    np.testing.assert_allclose(got["all"][0], want["all"][0], rtol=1e-6)
    np.testing.assert_allclose(got["all"][1], want["all"][1], rtol=1e-6)


def test_returned_parameter_is_used():
    before = ms.get_context("mode")
    try:
        got = run_returned(ms)
    finally:
        ms.set_context(mode=before)
    np.testing.assert_allclose(got, RECORDED["returned"], rtol=1e-6)
