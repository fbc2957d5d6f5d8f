"""``with`` statements whose body returns, breaks or continues (under Python and Tensor
conditions) give MindSpore's recorded results (``fixtures/with_programs.py``, recorded by
``fixtures/record_ms_programs.py --programs with_programs --out ms_with.json``), in
GRAPH_MODE and PYNATIVE_MODE; the context manager exits once, when the body leaves."""
import json
from pathlib import Path

import pytest

import graphkiln as ms
from graphkiln import Tensor, compat

FIXTURES = Path(__file__).parent / "fixtures"
EXPECTED = json.loads((FIXTURES / "ms_with.json").read_text())
PROGRAMS = compat.import_mindspore_module(FIXTURES / "with_programs.py")


@pytest.mark.parametrize("mode", ["GRAPH_MODE", "PYNATIVE_MODE"])
@pytest.mark.parametrize("name", sorted(PROGRAMS.PROGRAMS))
def test_matches_mindspore(mode, name):
    ms.set_context(mode=getattr(ms, mode))  # (the suite's conftest resets the context)
    assert PROGRAMS.run(name) == EXPECTED[mode][name]


class _Log:
    """A context manager recording when it is entered and left."""

    def __init__(self):
        self.events = []

    def __enter__(self):
        self.events.append("enter")
        return 1

    def __exit__(self, *exc):
        self.events.append("exit")
        return False


def test_the_manager_exits_once_before_the_code_after_the_with():
    log = _Log()

    @ms.jit
    def f(x):
        for i in range(4):
            with log as one:
                if i == 2:
                    break
                x = x + one
        return x

    assert f(Tensor([0])).asnumpy().tolist() == [2]
    assert log.events == ["enter", "exit"] * 3
