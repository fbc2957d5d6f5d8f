"""``not``/``and``/``if``/``bool()`` of a Tensor with more than one element raise
MindSpore's ValueError, in graphs and eagerly (``fixtures/truth_programs.py``,
recorded by ``fixtures/record_ms_programs.py --programs truth_programs --out
ms_truth.json``); ``not`` of a one-element Tensor stays a graph value."""
import json
from pathlib import Path

import pytest

import graphkiln as ms
from graphkiln import compat

FIXTURES = Path(__file__).parent / "fixtures"
EXPECTED = json.loads((FIXTURES / "ms_truth.json").read_text())
PROGRAMS = compat.import_mindspore_module(FIXTURES / "truth_programs.py")


@pytest.mark.parametrize("mode", ["GRAPH_MODE", "PYNATIVE_MODE"])
@pytest.mark.parametrize("name", sorted(PROGRAMS.PROGRAMS))
def test_matches_mindspore(mode, name):
    ms.set_context(mode=getattr(ms, mode))  # (the suite's conftest resets the context)
    got, want = PROGRAMS.run(name), EXPECTED[mode][name]
    assert got[0] == want[0]
    # graphkiln adds what to do after MindSpore's phrase
    assert got[1].startswith(want[1].rstrip(".")), (got, want)


def test_not_of_a_one_element_tensor_is_computed_when_the_graph_runs():
    @ms.jit
    def f(x):
        return not x

    assert [bool(f(ms.Tensor([0]))), bool(f(ms.Tensor([3])))] == [True, False]
