"""Python's ``max``/``min``/``sum``/``all``/``any``/``round`` on Tensors and run-time numbers
inside graphs give MindSpore's recorded results, types and errors
(``fixtures/builtin_programs.py``, recorded by ``fixtures/record_ms_programs.py --programs
builtin_programs --out ms_builtins.json``), and GRAPH_MODE gives what PYNATIVE_MODE gives."""
import json
from pathlib import Path

import pytest

import graphkiln as ms
from graphkiln import compat

FIXTURES = Path(__file__).parent / "fixtures"
EXPECTED = json.loads((FIXTURES / "ms_builtins.json").read_text())
PROGRAMS = compat.import_mindspore_module(FIXTURES / "builtin_programs.py")


def _same(got, want):
    """Equal data; for an error, the same type and MindSpore's message (which MindSpore
    prints quoted)."""
    if want[:1] == ["error"]:
        assert got[:2] == want[:2], got
        assert want[2].strip("'") in got[2]
    else:
        assert got == want


@pytest.mark.parametrize("mode", ["GRAPH_MODE", "PYNATIVE_MODE"])
@pytest.mark.parametrize("name", sorted(PROGRAMS.PROGRAMS))
def test_matches_mindspore(mode, name):
    ms.set_context(mode=getattr(ms, mode))  # (the suite's conftest resets the context)
    _same(PROGRAMS.run(name), EXPECTED[mode][name])


def test_max_over_a_symbolic_vector_is_computed_when_the_graph_runs():
    """One compiled graph gives each call's own maximum (not a value fixed while compiling)."""
    @ms.jit
    def f(x):
        return max(x), min(x)

    a = f(ms.Tensor([1.0, 9.0, -2.0]))
    b = f(ms.Tensor([7.0, 0.5, 3.0]))
    assert [float(v) for v in a + b] == [9.0, -2.0, 7.0, 0.5]
