"""Sequences in MINDIR files (fixtures/record_mindir_sequences.py, MindSpore 2.10): a graph
returning a tuple of numbers (``x.shape + (1,)``) is written whole, constants included; a
``mutable`` list or tuple input (fixed or dynamic length) is one sequence input read by
``list_getitem``/``TupleGetItem``. graphkiln writes the files MindSpore ran to its own
exports' outputs, and runs them and MindSpore's sequence-input files to the same outputs."""
import hashlib
import json

import numpy as np
import pytest

import graphkiln as ms
from graphkiln import compat
from tests.export.recorded import FIXTURES

RECORDED = json.loads((FIXTURES / "mindir_sequences.json").read_text())
RECORDER = compat.import_mindspore_module(FIXTURES / "record_mindir_sequences.py")
MODES = {"graph": ms.GRAPH_MODE, "pynative": ms.PYNATIVE_MODE}


@pytest.mark.parametrize("case", sorted(RECORDER.CASES))
def test_writes_the_files_mindspore_ran_as_its_own(case, tmp_path):
    RECORDER.export(str(tmp_path / case), case)
    recorded = RECORDED[f"graphkiln/{case}"]
    digest = hashlib.sha256((tmp_path / f"{case}.mindir").read_bytes()).hexdigest()
    assert digest == recorded["sha256"], (
        "graphkiln now writes another file: check it with record_mindir_sequences.py")
    for out, want in zip(recorded["outputs"], RECORDED[f"mindspore/{case}"]):
        np.testing.assert_allclose(out, want, rtol=1e-6)


# graphkiln's files, and MindSpore's own sequence-input files (the fixtures keep those)
FILES = [(case, source) for case in sorted(RECORDER.CASES)
         for source in ("graphkiln", "mindspore") if source == "graphkiln"
         or not case.startswith("shape")]


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize(("case", "source"), FILES)
def test_runs_the_files_as_mindspore(case, source, mode, tmp_path):
    if source == "graphkiln":
        RECORDER.export(str(tmp_path / case), case)
        path = tmp_path / f"{case}.mindir"
    else:
        path = FIXTURES / f"mindspore_{case}.mindir"
    ms.set_context(mode=MODES[mode])
    got = RECORDER.run(str(path), case)
    for out, want in zip(got, RECORDED[f"mindspore/{case}"]):
        np.testing.assert_allclose(out, want, rtol=1e-6)
