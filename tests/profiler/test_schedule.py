"""``mindspore.profiler.schedule`` step actions (the sequence MindSpore 2.10 gives, written out
below), and ``profile`` + ``tensorboard_trace_handler`` saving one profile per recorded cycle
with only that cycle's kernels."""
import csv
import os

import numpy as np
import pytest

import graphkiln as ms
from graphkiln import Tensor, nn
from graphkiln.profiler import ProfilerAction, _ExperimentalConfig, profile, schedule
from graphkiln.profiler import tensorboard_trace_handler as handler

N, W, R, S = (ProfilerAction.NONE, ProfilerAction.WARM_UP, ProfilerAction.RECORD,
              ProfilerAction.RECORD_AND_SAVE)


def test_actions_follow_skip_wait_warmup_active_repeat():
    sched = schedule(wait=1, warmup=1, active=2, repeat=2, skip_first=2)
    got = [sched(step) for step in range(12)]
    assert got == [N, N, N, W, R, S, N, W, R, S, N, N]
    assert sched.to_dict() == {"wait": 1, "active": 2, "warmup": 1, "repeat": 2,
                               "skip_first": 2}
    endless = schedule(wait=0, active=1)
    assert [endless(step) for step in range(3)] == [S, S, S]
    with pytest.raises(ValueError, match="not less than 0"):
        sched(-1)


def test_bad_values_are_reset_with_a_warning():
    with pytest.warns(UserWarning, match="'active' should be of type int"):
        sched = schedule(wait=0, active=0)
    assert sched.active == 1
    with pytest.warns(UserWarning, match="'wait'"):
        assert schedule(wait=True, active=1).wait == 0


def _kernel_count(run_dir):
    with open(os.path.join(run_dir, "FRAMEWORK", "cpu_op_detail_info_0.csv")) as f:
        return sum(int(row[4]) for row in list(csv.reader(f))[1:])


def test_profile_saves_each_recorded_cycle(tmp_path):
    ms.set_context(mode=ms.GRAPH_MODE)
    net = nn.Dense(4, 3)
    x = Tensor(np.ones((2, 4), np.float32))
    net(x)
    saved = []
    write = handler(str(tmp_path), worker_name="worker0")

    def on_ready(prof):
        write(prof)
        saved.append(sorted(os.listdir(tmp_path)))

    config = _ExperimentalConfig(export_type=["text"])
    with profile(schedule=schedule(wait=1, warmup=0, active=2, repeat=2),
                 on_trace_ready=on_ready, experimental_config=config) as prof:
        for _ in range(8):
            net(x)
            prof.step()
    assert len(saved) == 2
    runs = [os.path.join(tmp_path, d) for d in saved[-1]]
    assert all(os.path.basename(d).startswith("worker0_") for d in runs)
    per_call = _kernel_count(runs[0])
    assert per_call > 0 and per_call % 2 == 0  # two recorded calls, none of the waiting ones
    assert _kernel_count(runs[1]) == per_call


def test_stop_inside_an_active_cycle_saves_it(tmp_path):
    net = nn.Dense(4, 3)
    x = Tensor(np.ones((2, 4), np.float32))
    prof = profile(schedule=schedule(wait=0, active=5), on_trace_ready=handler(str(tmp_path)))
    net(x)
    prof.step()
    net(x)
    prof.stop()
    assert len(os.listdir(tmp_path)) == 1
