"""PyNative behaviours MindSpore's own tests/st/pynative tests rely on, compared with
results recorded on MindSpore 2.10 (fixtures/record_st_pynative.py)."""
import json
import sys
from pathlib import Path

import numpy as np
import pytest

import graphkiln as ms

FIXTURES = Path(__file__).resolve().parent / "fixtures"
sys.path.insert(0, str(FIXTURES))
from st_pynative_cases import CASES, run  # noqa: E402

RECORDED = json.loads((FIXTURES / "st_pynative.json").read_text())


def _same(got, want):
    if isinstance(want, dict):
        assert sorted(got) == sorted(want)
        for k in want:
            _same(got[k], want[k])
    elif isinstance(want, list) and want and isinstance(want[0], (int, float, list)) \
            and not isinstance(want[0], bool):
        np.testing.assert_allclose(np.asarray(got, np.float64), np.asarray(want), rtol=1e-5,
                                   atol=1e-6)
    else:
        assert got == want


@pytest.mark.parametrize("name", sorted(CASES))
def test_matches_mindspore(name):
    before = ms.get_context("mode")
    try:
        got = run(ms, name)
    finally:
        ms.set_context(mode=before)
    _same(got, RECORDED[name])
