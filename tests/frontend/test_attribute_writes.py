"""Graph code that sets a plain attribute of its cell: the write happens when the graph
runs, every call, and a later call reads the new value (the compiled graph had folded the
old one in, so it compiles again), as MindSpore 2.10 gives (fixtures/ms_attribute_writes.json,
recorded by fixtures/record_attribute_writes.py)."""
import json
from pathlib import Path

import pytest

import graphkiln as ms
from graphkiln import compat

FIXTURES = Path(__file__).parent / "fixtures"
EXPECTED = json.loads((FIXTURES / "ms_attribute_writes.json").read_text())


PROGRAMS = compat.import_mindspore_module(FIXTURES / "attribute_write_programs.py")


@pytest.mark.parametrize("name", sorted(PROGRAMS.PROGRAMS))
def test_attribute_writes_match_mindspore(name):
    try:
        assert PROGRAMS.run(PROGRAMS.PROGRAMS[name]) == EXPECTED[name]
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)
