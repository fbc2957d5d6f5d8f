"""Seeded shuffles give MindSpore 2.10's orders (fixtures/record_shuffle.py)."""
import json
import os

import graphkiln.dataset as ds

from .fixtures.shuffle_cases import run_cases

with open(os.path.join(os.path.dirname(__file__), "fixtures", "shuffle_reference.json")) as _f:
    REFERENCE = json.load(_f)


def test_seeded_shuffles_match_mindspore():
    seed = ds.config.get_seed()
    try:
        got = run_cases(ds)
    finally:
        ds.config.set_seed(seed)
    assert sorted(got) == sorted(REFERENCE)
    for name in REFERENCE:
        assert got[name] == REFERENCE[name], name
