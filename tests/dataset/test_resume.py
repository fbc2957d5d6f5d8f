"""Pipelines resumed at a step (``set_init_step``) give MindSpore 2.10's rows, epochs and
errors, and ``Model.train`` resumes with its losses (fixtures/record_resume.py)."""
import json
import os

import pytest

import graphkiln as ms
import graphkiln.dataset as ds

from .fixtures.resume_cases import run_cases

with open(os.path.join(os.path.dirname(__file__), "fixtures", "resume_reference.json")) as _f:
    REFERENCE = json.load(_f)


@pytest.fixture(scope="module")
def results():
    seed = ds.config.get_seed()
    try:
        return run_cases(ms)
    finally:
        ds.config.set_seed(seed)


@pytest.mark.parametrize("name", sorted(n for n in REFERENCE if not n.startswith("error/")))
def test_resumed_rows_match_mindspore(results, name):
    assert results[name] == REFERENCE[name]


@pytest.mark.parametrize("name", sorted(n for n in REFERENCE if n.startswith("error/")))
def test_reset_errors_match_mindspore(results, name):
    got, want = results[name], REFERENCE[name]
    assert got["type"] == want["type"] == "RuntimeError"
    assert got["message"] and got["message"] in want["message"]

