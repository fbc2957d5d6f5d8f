"""``repr`` of COO/CSR/Row tensors against MindSpore 2.10 (fixtures/sparse_repr.json, recorded
by fixtures/record_sparse_repr.py): the parts are written as MindSpore's C++ writes a tensor
(``value=[0 1 2]``, no commas), not as a Tensor's own ``repr``."""
import json
import os
import sys

import pytest

import graphkiln as ms

FIXTURES = os.path.join(os.path.dirname(__file__), "fixtures")
sys.path.insert(0, FIXTURES)
from sparse_repr_cases import CASES  # noqa: E402

with open(os.path.join(FIXTURES, "sparse_repr.json")) as f:
    RECORDED = json.load(f)


@pytest.mark.parametrize("name", sorted(CASES))
def test_repr_matches_mindspore(name):
    assert repr(CASES[name](ms)) == RECORDED[name]


def test_str_is_repr():
    sp = CASES["coo_float32"](ms)
    assert str(sp) == RECORDED["coo_float32"]
