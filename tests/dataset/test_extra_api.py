"""Fashion-MNIST and KMNIST read as MindSpore 2.10 reads them, and ``Dataset.apply``
(fixtures/record_extra_api.py)."""
import json
import os

import pytest

import graphkiln.dataset as ds

from .fixtures.extra_api_cases import run_cases

with open(os.path.join(os.path.dirname(__file__), "fixtures",
                       "extra_api_reference.json")) as _f:
    REFERENCE = json.load(_f)

RESULTS = run_cases(ds)


@pytest.mark.parametrize("name", sorted(REFERENCE))
def test_matches_mindspore(name):
    got, want = RESULTS[name], REFERENCE[name]
    if "message" in want:  # graphkiln may add the reader's name after MindSpore's text
        assert got["error"] == want["error"] and got["message"].startswith(want["message"])
    else:
        assert got == want
