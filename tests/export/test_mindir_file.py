"""``ms.load_mindir``/``ms.save_mindir``: the ModelProto MindSpore 2.10 reads from its own
export (fixtures/record_mindir_file.py), a round trip that ``ms.load`` still runs, and
MindSpore's error types."""
import json
from pathlib import Path

import numpy as np
import pytest

import graphkiln as ms
from graphkiln import Tensor, nn
from tests.export.recorded import NETS

FIXTURES = Path(__file__).resolve().parent / "fixtures"
REC = json.loads((FIXTURES / "mindir_file.json").read_text())


def test_reads_what_mindspore_reads():
    model = ms.load_mindir(str(FIXTURES / "ms_resnet_block.mindir"))
    got = {"producer_name": model.producer_name, "graph_name": model.graph.name,
           "nodes": len(model.graph.node), "parameters": len(model.graph.parameter),
           "inputs": len(model.graph.input)}
    assert got == {k: REC[k] for k in got}


def test_round_trip_still_runs(tmp_path):
    model = ms.load_mindir(str(FIXTURES / "ms_resnet_block.mindir"))
    model.model_version = "edited"
    ms.save_mindir(model, str(tmp_path / "copy"))  # ".mindir" is appended
    saved = tmp_path / "copy.mindir"
    assert saved.exists() and saved.stat().st_mode & 0o777 == 0o400  # read-only, as MS
    assert ms.load_mindir(str(saved)).model_version == "edited"
    original = nn.GraphCell(ms.load(str(FIXTURES / "ms_resnet_block.mindir")))
    copy = nn.GraphCell(ms.load(str(saved)))
    x = Tensor(NETS.sample("resnet_block"))
    np.testing.assert_array_equal(copy(x).asnumpy(), original(x).asnumpy())
    ms.save_mindir(model, str(saved))  # overwrites a read-only file


@pytest.mark.parametrize("name,thunk", [
    ("missing", lambda: ms.load_mindir(str(FIXTURES / "nope"))),
    ("save_type", lambda: ms.save_mindir("x", "/tmp/_mindir_t")),
    ("bad_name", lambda: ms.load_mindir("a*b.mindir"))])
def test_errors_match_mindspore(name, thunk):
    with pytest.raises(Exception) as info:
        thunk()
    assert type(info.value).__name__ == REC["errors"][name]
