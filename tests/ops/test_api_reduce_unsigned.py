"""``ReduceMax``/``ReduceMin`` of uint16/uint32/uint64 against MindSpore 2.10
(fixtures/api_reduce_unsigned.json by fixtures/record_api_cases.py); GRAPH == PYNATIVE."""
import sys
from pathlib import Path

import numpy as np
import pytest

from graphkiln import Tensor, ops

sys.path.insert(0, str(Path(__file__).resolve().parent))
from api_case_check import check_graph, check_recorded, load  # noqa: E402

FAM = load("reduce_unsigned")


@pytest.mark.parametrize("name", sorted(FAM.cases))
def test_matches_mindspore(name):
    check_recorded(FAM, name)


@pytest.mark.parametrize("name", sorted(FAM.cases))
def test_graph_equals_pynative(name):
    check_graph(FAM, name)


@pytest.mark.parametrize("op", [ops.ReduceMax, ops.ReduceMin])
def test_bool_is_refused(op):
    # (MindSpore's CPU kernels have no bool version either)
    with pytest.raises(TypeError, match="Bool"):
        op()(Tensor(np.array([True, False])), 0)
