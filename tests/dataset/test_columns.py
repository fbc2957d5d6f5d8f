"""Missing or clashing columns fail as in MindSpore 2.10: a RuntimeError with its text
when the pipeline is built (or read), not when the operation is added
(fixtures/record_columns.py)."""
import json
import os

import pytest

import graphkiln.dataset as ds

from .fixtures.columns_cases import run_cases

with open(os.path.join(os.path.dirname(__file__), "fixtures", "columns_reference.json")) as _f:
    REFERENCE = json.load(_f)

RESULTS = run_cases(ds)


@pytest.mark.parametrize("name", sorted(REFERENCE))
def test_column_errors_match_mindspore(name):
    assert RESULTS[name] == REFERENCE[name]
