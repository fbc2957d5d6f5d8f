"""``ops.max``/``ops.min`` (``axis``, ``keepdims``, ``initial``, ``where``) against MindSpore
2.10 CPU (fixtures/ops_max.json, recorded by fixtures/record_ops_max.py); GRAPH == PYNATIVE."""
import json
import os
import sys

import numpy as np
import pytest

import graphkiln as ms

FIXTURES = os.path.join(os.path.dirname(__file__), "fixtures")
sys.path.insert(0, FIXTURES)
from ops_max_cases import CASES, ERRORS, error, run  # noqa: E402

with open(os.path.join(FIXTURES, "ops_max.json")) as f:
    RECORDED = json.load(f)


@pytest.mark.parametrize("name", sorted(CASES))
def test_matches_mindspore(name):
    assert run(ms, name) == RECORDED["cases"][name]


@pytest.mark.parametrize("name", sorted(ERRORS))
def test_errors_match_mindspore(name):
    kind, message = RECORDED["errors"][name]
    assert error(ms, name) == [kind, message.replace("mindspore.common", "graphkiln.common")]

@pytest.mark.parametrize("name", ["max_axis1", "max_where", "min_where_keep", "max_initial"])
def test_graph_equals_pynative(name):
    graph = ms.jit(lambda: CASES[name](ms))()
    for g, p in zip(graph, CASES[name](ms)):
        np.testing.assert_array_equal(g.asnumpy(), p.asnumpy())
