"""``tensor in [a, b]`` / ``not in`` in graphs compare values (MindSpore 2.10 GRAPH mode,
fixtures/tensor_in.json recorded by fixtures/record_tensor_in.py)."""
import json
import os
import sys

import pytest

import graphkiln as ms
from graphkiln import Tensor

FIXTURES = os.path.join(os.path.dirname(__file__), "fixtures")
sys.path.insert(0, FIXTURES)
from tensor_in_cases import ARGS, run  # noqa: E402

with open(os.path.join(FIXTURES, "tensor_in.json")) as f:
    RECORDED = json.load(f)


@pytest.mark.parametrize("name", sorted(ARGS))
def test_tensor_membership_matches_mindspore(name):
    assert run(ms.jit, Tensor, name) == RECORDED[name]
