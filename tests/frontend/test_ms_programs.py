"""MindSpore programs (``fixtures/ms_programs.py``) give MindSpore's recorded results in
GRAPH_MODE and in PYNATIVE_MODE."""
import json
from pathlib import Path

import numpy as np
import pytest

import graphkiln as ms
from graphkiln import compat

FIXTURES = Path(__file__).parent / "fixtures"
EXPECTED = json.loads((FIXTURES / "ms_programs.json").read_text())


PROGRAMS = compat.import_mindspore_module(FIXTURES / "ms_programs.py")


def _same(got, want, where):
    """Equal structure and numbers; a recorded error must have the same type and message."""
    if isinstance(want, list) and want[:1] == ["error"]:
        assert isinstance(got, list) and got == want, (where, got, want)
        return
    if isinstance(want, str):  # a type name
        assert got == want, (where, got, want)
        return
    if isinstance(want, list) and any(isinstance(w, (list, str)) for w in want):
        assert isinstance(got, list) and len(got) == len(want), (where, got, want)
        for i, (g, w) in enumerate(zip(got, want)):
            _same(g, w, f"{where}[{i}]")
        return
    np.testing.assert_allclose(np.asarray(got, dtype=np.float64),
                               np.asarray(want, dtype=np.float64), rtol=1e-5, err_msg=where)


@pytest.mark.parametrize("name", sorted(PROGRAMS.PROGRAMS))
@pytest.mark.parametrize("mode", ["GRAPH_MODE", "PYNATIVE_MODE"])
def test_program_matches_mindspore(name, mode):
    ms.set_context(mode=getattr(ms, mode))
    _same(PROGRAMS.run(name), EXPECTED[mode][name], f"{mode} {name}")
