"""``Profiler`` records the kernels of compiled steps and PyNative ops and writes MindSpore's
CPU profiler files (names and headers recorded from MindSpore 2.10 by
fixtures/record_profiler_layout.py); profiling changes no result and is off otherwise."""
import csv
import json
import os

import numpy as np
import pytest

import graphkiln as ms
from graphkiln import Tensor, nn
from graphkiln.common.op_timeline import TIMELINE
from graphkiln.profiler import Profiler

with open(os.path.join(os.path.dirname(__file__), "fixtures", "mindspore_layout.json")) as f:
    LAYOUT = json.load(f)
X = Tensor(np.arange(8, dtype=np.float32).reshape(2, 4))


def _rows(path):
    with open(path) as f:
        return list(csv.reader(f))


def _profile(tmp_path, mode, calls=3):
    ms.set_context(mode=mode)
    net = nn.Dense(4, 3)
    plain = net(X).asnumpy()
    prof = Profiler(output_path=str(tmp_path))
    outs = [net(X).asnumpy() for _ in range(calls)]
    run_dir = prof.analyse()
    for out in outs:
        np.testing.assert_array_equal(out, plain)
    return run_dir


@pytest.mark.parametrize("mode", [ms.GRAPH_MODE, ms.PYNATIVE_MODE])
def test_files_and_headers_are_mindspore_s(tmp_path, mode):
    run_dir = _profile(tmp_path, mode)
    assert os.listdir(tmp_path) == [os.path.basename(run_dir)]  # no temporary left behind
    assert run_dir.endswith("_ascend_ms")
    for name, want in LAYOUT["files"].items():
        path = os.path.join(run_dir, name)
        assert os.path.isfile(path), name
        if want["header"] is not None:
            assert _rows(path)[0] == want["header"].split(","), name


def test_graph_step_kernels_counted_per_step(tmp_path):
    run_dir = _profile(tmp_path, ms.GRAPH_MODE)
    types = {r[0]: r for r in _rows(os.path.join(run_dir, "FRAMEWORK",
                                                 "cpu_op_type_info_0.csv"))[1:]}
    assert types["MatMul"][1:3] == next(r for r in LAYOUT["type_rows"] if r[0] == "MatMul")[1:]
    detail = _rows(os.path.join(run_dir, "FRAMEWORK", "cpu_op_detail_info_0.csv"))[1:]
    assert {r[3] for r in detail} == {"Default/MatMul-op0", "Default/Add-op0"}
    total = sum(float(r[5]) for r in detail)
    assert abs(sum(float(r[7]) for r in detail) - 1.0) < 1e-4 and total > 0
    trace = json.load(open(os.path.join(run_dir, "ASCEND_PROFILER_OUTPUT", "trace_view.json")))
    runs = [e for e in trace if e["ph"] == "X"]
    assert len(runs) == 6 and all(float(e["dur"]) >= 0 for e in runs)
    assert [float(e["ts"]) for e in runs] == sorted(float(e["ts"]) for e in runs)
    shapes = open(os.path.join(run_dir, "FRAMEWORK", "cpu_framework_0.txt")).read()
    assert "MatMul;MatMul-op0;1;input_1:[2, 4];input_2:[3, 4];" in shapes


def test_nothing_is_recorded_without_a_profiler(tmp_path):
    ms.set_context(mode=ms.GRAPH_MODE)
    net = nn.Dense(4, 3)
    with Profiler(output_path=str(tmp_path), start_profile=False):
        pass
    net(X)
    ms.ops.add(X, X)
    assert not TIMELINE.active and TIMELINE.runs == []


def test_start_stop_and_steps(tmp_path):
    ms.set_context(mode=ms.GRAPH_MODE)
    net = nn.Dense(4, 3)
    prof = Profiler(output_path=str(tmp_path), start_profile=False)
    net(X)  # before start: not recorded
    prof.start()
    for _ in range(4):
        net(X)
        prof.step()
    prof.stop()
    net(X)  # after stop: not recorded
    run_dir = prof.analyse()
    types = {r[0]: r for r in _rows(os.path.join(run_dir, "FRAMEWORK",
                                                 "cpu_op_type_info_0.csv"))[1:]}
    assert types["MatMul"][1:3] == ["4", "1"]


def test_bad_arguments():
    with pytest.raises(TypeError, match="output_path"):
        Profiler(output_path=3)
    with pytest.raises(TypeError, match="profile_memory"):
        Profiler(profile_memory="yes")
