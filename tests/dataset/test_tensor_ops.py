"""Mask, Slice, Unique and RandomOrder give MindSpore 2.10's outputs, dtypes and, under a
seed, its order of transforms (fixtures/record_tensor_ops.py)."""
import json
import os

import pytest

import graphkiln as ms
import graphkiln.dataset as ds

from .fixtures.tensor_ops_cases import run_cases

with open(os.path.join(os.path.dirname(__file__), "fixtures",
                       "tensor_ops_reference.json")) as _f:
    REFERENCE = json.load(_f)

RESULTS = run_cases(ms, ds)


@pytest.mark.parametrize("name", sorted(REFERENCE))
def test_tensor_ops_match_mindspore(name):
    assert RESULTS[name] == REFERENCE[name]
