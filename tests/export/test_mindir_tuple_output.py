"""A MINDIR graph returning a tuple of numbers (``x.shape + (1,)``): graphkiln writes the
whole output, constants included (for a fixed input shape the graph returns one constant
tuple), as files MindSpore 2.10 ran with its own exports' output
(fixtures/record_mindir_tuple_output.py), and runs them to the same tuple."""
import hashlib
import json

import pytest

import graphkiln as ms
from graphkiln import compat, nn
from tests.export.recorded import FIXTURES

RECORDED = json.loads((FIXTURES / "mindir_tuple_output.json").read_text())
RECORDER = compat.import_mindspore_module(FIXTURES / "record_mindir_tuple_output.py")


@pytest.mark.parametrize("mode", [ms.GRAPH_MODE, ms.PYNATIVE_MODE])
@pytest.mark.parametrize("variant", ["fixed", "dynamic"])
def test_tuple_output_is_written_whole_and_runs_as_on_mindspore(variant, mode, tmp_path):
    RECORDER.export(str(tmp_path / variant), variant)
    path = tmp_path / f"{variant}.mindir"
    recorded = RECORDED[f"graphkiln/{variant}"]
    assert hashlib.sha256(path.read_bytes()).hexdigest() == recorded["sha256"], (
        "graphkiln now writes another file: check it with record_mindir_tuple_output.py")
    assert recorded["output"] == RECORDED[f"mindspore/{variant}"] == [4, 2, 3, 1]
    ms.set_context(mode=mode)
    out = nn.GraphCell(ms.load(str(path)))(ms.Tensor(RECORDER.SAMPLE))
    assert tuple(out) == (4, 2, 3, 1)
