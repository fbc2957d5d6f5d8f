"""A tuple or list indexed by a run-time bool (bool Tensor, mutable bool) in graphs picks
element 1 or 0, as MindSpore 2.10 GRAPH mode does (fixtures/bool_index.json, recorded by
fixtures/record_bool_index.py)."""
import json
import os
import sys

import pytest

import graphkiln as ms

FIXTURES = os.path.join(os.path.dirname(__file__), "fixtures")
sys.path.insert(0, FIXTURES)
from bool_index_cases import INPUTS, run  # noqa: E402

with open(os.path.join(FIXTURES, "bool_index.json")) as f:
    RECORDED = json.load(f)


@pytest.mark.parametrize("name", sorted(INPUTS))
def test_run_time_bool_index_matches_mindspore(name):
    assert run(ms, name) == RECORDED[name]
