"""``ops.nanmean``'s dtype check and ``ops.repeat_interleave``'s ``axis`` against MindSpore
2.10 (fixtures/api_ops_s15o2.json by fixtures/record_api_cases.py); GRAPH == PYNATIVE."""
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
from api_case_check import check_graph, check_recorded, load  # noqa: E402

FAM = load("ops_s15o2")


@pytest.mark.parametrize("name", sorted(FAM.cases))
def test_matches_mindspore(name):
    check_recorded(FAM, name)


@pytest.mark.parametrize("name", sorted(set(FAM.cases) - set(FAM.pynative_only)))
def test_graph_equals_pynative(name):
    check_graph(FAM, name)
