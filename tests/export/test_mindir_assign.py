"""MINDIR graphs that write weights, recorded on MindSpore 2.10 by
fixtures/record_mindir_assign.py: ``ret = x * y * w; w += 1`` and whole train steps
(TrainOneStepCell with Momentum: convolution, pooling and their gradients, ``ApplyMomentum``,
``AssignAdd``...; with SGD, Adam, AdamWeightDecay, RMSProp, Adagrad, FTRL and Lamb).
graphkiln writes the files MindSpore ran (each train step as MindSpore's own train step
runs; Lamb's, which MindSpore cannot run on its CPU itself, as graphkiln's runs), and runs
them, and MindSpore's own files (the weight update an ``InplaceAddsExt``; the conv train
step's loss a ``SparseSoftmaxCrossEntropyWithLogits``; the Adagrad and FTRL steps'
``ApplyAdagrad``, ``ApplyFtrl`` and ``PowTensorScalar``), with the outputs and weights
MindSpore recorded."""
import hashlib
import json

import numpy as np
import pytest

import graphkiln as ms
from graphkiln import compat
from tests.export.recorded import FIXTURES

RECORDED = json.loads((FIXTURES / "mindir_assign.json").read_text())
RECORDER = compat.import_mindspore_module(FIXTURES / "record_mindir_assign.py")
MODES = {"graph": ms.GRAPH_MODE, "pynative": ms.PYNATIVE_MODE}


@pytest.fixture(scope="module")
def written(tmp_path_factory):
    directory = tmp_path_factory.mktemp("assign")
    for name in RECORDER.NETS:
        RECORDER.export(str(directory / name), name)
    return directory


def _assert_runs(recorded, got, rtol):
    for (out, weights), (want_out, want_weights) in zip(
            zip(got["outputs"], got["weights"]),
            zip(recorded["outputs"], recorded["weights"])):
        np.testing.assert_allclose(out, want_out, rtol=rtol, atol=1e-6)
        assert sorted(weights) == sorted(want_weights)
        for name, value in want_weights.items():
            np.testing.assert_allclose(weights[name], value, rtol=rtol, atol=1e-6,
                                       err_msg=name)


@pytest.mark.parametrize("name", sorted(RECORDER.NETS))
def test_writes_the_files_mindspore_ran(name, written):
    recorded = RECORDED[f"graphkiln_{name}"]
    digest = hashlib.sha256((written / f"{name}.mindir").read_bytes()).hexdigest()
    assert digest == recorded["sha256"], (
        "graphkiln now writes another file for this net: check it on MindSpore with "
        "tests/export/fixtures/record_mindir_assign.py")
    # what MindSpore computed from graphkiln's file is what it computes itself (or, for a
    # step it cannot run itself, what graphkiln computes)
    if name in RECORDER.NO_CPU_KERNEL:
        own = RECORDER.run_twice_cell(name)
    else:
        own = RECORDED["mindspore_file" if name == "assign" else f"mindspore_{name}"]
    _assert_runs(own, recorded, rtol=1e-4)


# recorded run -> (file, net name); MindSpore's own files are fixtures
SOURCES = {"mindspore_file": ("mindspore_assign.mindir", "assign"),
           **{f"mindspore_{name}_file": (f"mindspore_{name}.mindir", name)
              for name in RECORDER.MINDSPORE_FILES},
           **{f"graphkiln_{name}": (None, name) for name in RECORDER.NETS}}


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("source", sorted(SOURCES))
def test_graph_cell_updates_the_weights_as_mindspore(source, mode, written):
    ms.set_context(mode=MODES[mode])
    file_name, name = SOURCES[source]
    path = FIXTURES / file_name if file_name else written / f"{name}.mindir"
    got = RECORDER.run_twice(str(path), name)
    _assert_runs(RECORDED[source], got, rtol=1e-4)
