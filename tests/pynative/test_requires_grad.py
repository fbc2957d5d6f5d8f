"""A weight whose ``requires_grad`` is False when a PyNative forward ends (set before the
call or inside ``construct``) gets a zero gradient; a graph differentiates it anyway. Both
recorded on MindSpore 2.10 (fixtures/record_requires_grad.py)."""
import json
import sys
from pathlib import Path

import numpy as np
import pytest

import graphkiln as ms

FIXTURES = Path(__file__).resolve().parent / "fixtures"
sys.path.insert(0, str(FIXTURES))
from requires_grad_cases import CASES, run  # noqa: E402

RECORDED = json.loads((FIXTURES / "requires_grad.json").read_text())


@pytest.mark.parametrize("name", sorted(CASES))
def test_weight_gradients_match_mindspore(name):
    before = ms.get_context("mode")
    try:
        got = run(ms, *CASES[name])
    finally:
        ms.set_context(mode=before)
    np.testing.assert_allclose(got, RECORDED[name], rtol=1e-6)
