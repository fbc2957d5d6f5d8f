"""In-place writes into plain Tensor arguments (``Assign``, ``AssignAdd``, ``AssignSub``,
optimizer primitives) give MindSpore's recorded results (``fixtures/inplace_programs.py``,
recorded by ``fixtures/record_ms_programs.py --programs inplace_programs --out
ms_inplace.json``): reads before a write see the old value, reads after it the new one, and
the caller's Tensor holds the new value, in GRAPH_MODE, under ``@jit`` in PYNATIVE_MODE, and
at every ``MS_DEV_SIDE_EFFECT_LOAD_ELIM`` level."""
import json
from pathlib import Path

import numpy as np
import pytest

import graphkiln.ops.operations as P
from graphkiln import Tensor, compat, jit

FIXTURES = Path(__file__).parent / "fixtures"
EXPECTED = json.loads((FIXTURES / "ms_inplace.json").read_text())


PROGRAMS = compat.import_mindspore_module(FIXTURES / "inplace_programs.py")


@pytest.mark.parametrize("mode", ["GRAPH_MODE", "PYNATIVE_MODE"], indirect=True)
@pytest.mark.parametrize("name", sorted(PROGRAMS.PROGRAMS))
def test_matches_mindspore(mode, name):
    got = PROGRAMS.run(name)
    np.testing.assert_equal(got, EXPECTED[mode][name])


@pytest.mark.parametrize("level", ["0", "1", "2", "3"])
def test_every_load_elim_level(monkeypatch, level):
    monkeypatch.setenv("MS_DEV_SIDE_EFFECT_LOAD_ELIM", level)
    got = PROGRAMS.run("reads_before_and_after")
    np.testing.assert_equal(got, EXPECTED["GRAPH_MODE"]["reads_before_and_after"])


def test_large_input_with_planned_buffers():
    """Arrays big enough for the memory planner: no planned buffer is the input's."""
    @jit
    def f(a, c):
        before = (a + c) * 2
        P.AssignAdd()(a, c * 3)
        after = (a + c) * 2
        return before, after

    a0 = np.arange(1024, dtype=np.float32)
    a, c = Tensor(a0.copy()), Tensor(np.ones(1024, np.float32))
    before, after = f(a, c)
    np.testing.assert_array_equal(before.asnumpy(), (a0 + 1) * 2)
    np.testing.assert_array_equal(a.asnumpy(), a0 + 3)
    np.testing.assert_array_equal(after.asnumpy(), (a0 + 4) * 2)

