"""Iterators give ``num_epochs`` epochs, then MindSpore 2.10's RuntimeError
(fixtures/record_epochs.py)."""
import json
import os

import pytest

import graphkiln.dataset as ds

from .fixtures.epochs_cases import run_cases

with open(os.path.join(os.path.dirname(__file__), "fixtures", "epochs_reference.json")) as _f:
    REFERENCE = json.load(_f)

RESULTS = run_cases(ds)


def _same(got, want) -> bool:
    """Equal values; errors of the same type whose text is in MindSpore's (it wraps it)."""
    if isinstance(want, dict) and "error" in want:
        return got.get("error") == want["error"] and \
            got.get("message", "") in want.get("message", "")
    if isinstance(want, list):
        return isinstance(got, list) and len(got) == len(want) and \
            all(_same(g, w) for g, w in zip(got, want))
    return got == want


@pytest.mark.parametrize("name", sorted(REFERENCE))
def test_epochs_match_mindspore(name):
    assert _same(RESULTS[name], REFERENCE[name]), RESULTS[name]


def test_error_text_is_mindspores():
    assert RESULTS["tuple_2_epochs"][2]["message"].startswith("EOF buffer encountered.")
