"""Tensor method forms (``x.cumsum(dim=)``, ``x.max(d, k, initial=None)``, ``x.cauchy()``,
``x.fill_diagonal()``, ``x.geqrf()``, ``x.lu_solve()``) against MindSpore 2.10
(fixtures/api_method_forms.json by fixtures/record_api_cases.py); GRAPH == PYNATIVE."""
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
from api_case_check import check_graph, check_recorded, load  # noqa: E402

FAM = load("method_forms")


@pytest.mark.parametrize("name", sorted(FAM.cases))
def test_matches_mindspore(name):
    check_recorded(FAM, name)


@pytest.mark.parametrize("name", sorted(FAM.cases))
def test_graph_equals_pynative(name):
    check_graph(FAM, name)
