"""``nn.Range`` against MindSpore 2.10 (fixtures/record_range.py) in both modes."""
import json
import sys
from pathlib import Path

import pytest

import graphkiln as ms

FIXTURES = Path(__file__).resolve().parent / "fixtures"
sys.path.insert(0, str(FIXTURES))
import record_range  # noqa: E402

EXPECTED = json.loads((FIXTURES / "range.json").read_text())


@pytest.mark.parametrize("mode", [ms.PYNATIVE_MODE, ms.GRAPH_MODE])
def test_range_matches_mindspore(mode):
    ms.set_context(mode=mode)
    assert record_range.run(ms) == EXPECTED


def test_zero_delta():
    with pytest.raises(ValueError, match="'delta' can not be zero"):
        ms.nn.Range(1, 2, 0)
