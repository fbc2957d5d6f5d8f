"""A MINDIR graph that writes its weight (``ret = x * y * w; w += 1``): graphkiln writes the
``Assign`` as MindSpore does (the file MindSpore 2.10 ran, updating the weight, when
fixtures/record_mindir_assign.py ran) and runs MindSpore's file (whose update is an
``InplaceAddsExt``) and its own with the outputs and weights MindSpore recorded."""
import hashlib
import json

import numpy as np
import pytest

import graphkiln as ms
from graphkiln import compat, nn
from tests.export.recorded import FIXTURES

RECORDED = json.loads((FIXTURES / "mindir_assign.json").read_text())
RECORDER = compat.import_mindspore_module(FIXTURES / "record_mindir_assign.py")
MODES = {"graph": ms.GRAPH_MODE, "pynative": ms.PYNATIVE_MODE}


@pytest.fixture(scope="module")
def graphkiln_file(tmp_path_factory):
    directory = tmp_path_factory.mktemp("assign")
    RECORDER.export(str(directory / "assign"))
    return directory / "assign.mindir"


def test_writes_the_file_mindspore_ran(graphkiln_file):
    recorded = RECORDED["graphkiln_file"]
    assert hashlib.sha256(graphkiln_file.read_bytes()).hexdigest() == recorded["sha256"], (
        "graphkiln now writes another file for this net: check it on MindSpore with "
        "tests/export/fixtures/record_mindir_assign.py")
    assert recorded["outputs"] == RECORDED["mindspore_file"]["outputs"]
    assert recorded["weights"] == RECORDED["mindspore_file"]["weights"]


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("source", ["mindspore_file", "graphkiln_file"])
def test_graph_cell_updates_the_weight_as_mindspore(source, mode, graphkiln_file):
    ms.set_context(mode=MODES[mode])
    path = FIXTURES / "ms_assign.mindir" if source == "mindspore_file" else graphkiln_file
    cell = nn.GraphCell(ms.load(str(path)))
    x, y = ms.Tensor(RECORDER.X), ms.Tensor(RECORDER.Y)
    for output, weight in zip(RECORDED[source]["outputs"], RECORDED[source]["weights"]):
        np.testing.assert_array_equal(cell(x, y).asnumpy(), output)
        np.testing.assert_array_equal(cell.trainable_params()[0].asnumpy(), weight)
