"""Tensor methods of the functional APIs against MindSpore 2.10 (fixtures/api_methods.json by
fixtures/record_api_cases.py; NumPy where MindSpore's CPU cannot run them); GRAPH == PYNATIVE."""
import sys
from pathlib import Path

import numpy as np
import pytest

import graphkiln as ms

sys.path.insert(0, str(Path(__file__).resolve().parent))
from api_case_check import check_graph, check_recorded, load  # noqa: E402

FAM = load("methods")


@pytest.mark.parametrize("name", sorted(FAM.cases))
def test_matches_mindspore(name):
    check_recorded(FAM, name)


@pytest.mark.parametrize("name", sorted(set(FAM.cases) - set(FAM.pynative_only)))
def test_graph_equals_pynative(name):
    check_graph(FAM, name)


def test_remainder_writes_in_place():
    """(MindSpore 2.10 CPU returns the remainders but leaves the Tensor unchanged; its
    documentation and graphkiln write them in place.)"""
    x = ms.Tensor(np.array([5.0, -3.0, 7.5], np.float32))
    out = x.remainder_(2)
    assert out is x
    np.testing.assert_array_equal(x.asnumpy(), [1.0, 1.0, 1.5])
