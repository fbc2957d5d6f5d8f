"""Every recorded API family against MindSpore 2.10: ``fixtures/api_<family>_cases.py``
gives the cases, ``fixtures/api_<family>.json`` (by ``fixtures/record_api_cases.py``) what
MindSpore 2.10 CPU returned or raised for each; each case also gives the same under ``@jit``
(GRAPH) as in PyNative, except those its module names in ``PYNATIVE_ONLY``.

A family is collected by adding its two fixture files; its other tests (gradients, errors,
vmap) live in a module of their own."""
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
from api_case_check import FIXTURES, check_graph, check_recorded, load  # noqa: E402

FAMILIES = {path.name[len("api_"):-len("_cases.py")]: None
            for path in sorted(Path(FIXTURES).glob("api_*_cases.py"))}
for _family in FAMILIES:
    FAMILIES[_family] = load(_family)

RECORDED = [(f, name) for f, fam in FAMILIES.items() for name in sorted(fam.cases)]
GRAPH = [(f, name) for f, name in RECORDED if name not in FAMILIES[f].pynative_only]


@pytest.mark.parametrize("family, name", RECORDED)
def test_matches_mindspore(family, name):
    check_recorded(FAMILIES[family], name)


@pytest.mark.parametrize("family, name", GRAPH)
def test_graph_equals_pynative(family, name):
    check_graph(FAMILIES[family], name)
