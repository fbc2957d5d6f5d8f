"""f-strings that format graph values (Tensors, run-time numbers) give MindSpore's recorded
strings when returned from a graph, joined across the branches of a tensor ``if`` or raised
(``fixtures/fstring_programs.py``, recorded by ``fixtures/record_ms_programs.py --programs
fstring_programs --out ms_fstrings.json``), in GRAPH_MODE and PYNATIVE_MODE."""
import json
from pathlib import Path

import pytest

import graphkiln as ms
from graphkiln import compat

FIXTURES = Path(__file__).parent / "fixtures"
EXPECTED = json.loads((FIXTURES / "ms_fstrings.json").read_text())
PROGRAMS = compat.import_mindspore_module(FIXTURES / "fstring_programs.py")


@pytest.mark.parametrize("mode", ["GRAPH_MODE", "PYNATIVE_MODE"])
@pytest.mark.parametrize("name", sorted(PROGRAMS.PROGRAMS))
def test_matches_mindspore(mode, name):
    ms.set_context(mode=getattr(ms, mode))  # (the suite's conftest resets the context)
    assert PROGRAMS.run(name) == EXPECTED[mode][name]


def test_a_branch_string_joins_a_constant_string():
    """One branch formats a Tensor, the other gives a plain string: the graph picks one
    when it runs, every call."""
    @ms.jit
    def f(x):
        if x.sum() > 0:
            text = f"positive {x}"
        else:
            text = "not positive"
        return text

    assert [f(ms.Tensor([1, 2])), f(ms.Tensor([-3, 1]))] == ["positive [1 2]", "not positive"]


def _fail(message):
    raise ValueError(message)


def test_an_fstring_passed_to_a_raising_helper_keeps_its_text():
    """The f-string is made outside the ``raise`` (a run-time string); the helper's raise
    still formats it, as before the f-string became a run-time value."""
    @ms.jit
    def f(x):
        if x.shape[0] > 3:
            _fail(f"Check failed. Wrong shape, {x}.")
        return x

    with pytest.raises(ValueError, match="Check failed. Wrong shape, ") as info:
        f(ms.Tensor([1.0, 2.0, 3.0, 4.0]))
    assert "PyObject" not in str(info.value)


def test_format_specs_format_the_run_time_values():
    """``f"{x:.2f}"`` inside a graph formats the value when the graph runs, with its spec, as
    Python does on the same values. (MindSpore 2.10's jit drops the specs, giving
    "1.5|7|3.0" here; graphkiln keeps Python's meaning rather than copying that.)"""
    def f(x, n):
        return f"{x:.2f}|{n:>4}|{x * 2:08.3f}"

    assert ms.jit(f)(ms.Tensor(1.5), ms.mutable(7)) == f(ms.Tensor(1.5), 7) == "1.50|   7|0003.000"
