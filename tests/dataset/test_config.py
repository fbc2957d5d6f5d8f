"""``dataset.config`` settings: MindSpore 2.10's defaults, values and errors
(fixtures/record_config.py)."""
import json
import os

import pytest

import graphkiln.dataset as ds

from .fixtures.config_cases import run_cases

with open(os.path.join(os.path.dirname(__file__), "fixtures", "config_reference.json")) as _f:
    REFERENCE = json.load(_f)

RESULTS = run_cases(ds)


@pytest.mark.parametrize("name", sorted(REFERENCE))
def test_config_matches_mindspore(name):
    assert RESULTS[name] == REFERENCE[name]
