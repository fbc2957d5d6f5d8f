"""``mindspore.Profiler``: the kernels a program runs, with their times, in MindSpore's CPU
profiler files.

While a Profiler runs, compiled steps run a copy of their generated code whose kernels
note each run (``common/op_timeline.py``) and PyNative ops are timed as they run.
``analyse()`` writes, under ``<output_path>/<host>_<pid>_<time>_ascend_ms/``, the files
MindSpore 2.10 writes on CPU: ``FRAMEWORK/cpu_op_type_info_<rank>.csv`` (time per op type),
``cpu_op_detail_info_<rank>.csv`` (per op), ``cpu_op_execute_timestamp_<rank>.txt``,
``cpu_framework_<rank>.txt`` (input shapes) and ``ASCEND_PROFILER_OUTPUT/trace_view.json``
(a Chrome trace). Op names number the runs of a type within one step (``MatMul-op0``).
"""
from __future__ import annotations

import csv
import io
import json
import os
import shutil
import socket
import tempfile
import time
from collections import OrderedDict, defaultdict
from collections.abc import Callable

from ..common import comm_engine
from ..common.op_timeline import TIMELINE
from .schedule import ProfilerAction, Schedule

_BOOL_ARGS = ("profile_memory", "start_profile", "data_process", "parallel_strategy",
              "with_stack", "data_simplification", "record_shapes", "hbm_ddr", "pcie",
              "l2_cache", "sync_enable", "mstx")


class Profiler:
    """Record kernel runs from ``start()`` (or construction, by default) to ``stop()``;
    ``analyse()`` writes the files."""

    def __init__(self, output_path: str = "./data", profile_memory: bool = False,
                 start_profile: bool = True, schedule: Schedule | None = None,
                 on_trace_ready: Callable | None = None, **kwargs):
        if not isinstance(output_path, str):
            raise TypeError(f"For 'Profiler', the parameter 'output_path' must be str, but got "
                            f"{type(output_path).__name__}.")
        for name, value in (("profile_memory", profile_memory),
                            ("start_profile", start_profile), *kwargs.items()):
            if name in _BOOL_ARGS and not isinstance(value, bool):
                raise TypeError(f"For 'Profiler', the parameter '{name}' must be bool, but "
                                f"got {type(value).__name__}.")
        self.output_path = os.path.abspath(output_path)
        self.options = dict(kwargs, profile_memory=profile_memory)
        self._runs: list = []
        self._calls = 0
        self._steps = 0
        self._started_at = None
        self.schedule = schedule
        self.on_trace_ready = on_trace_ready
        self.worker_name = None  # names the profile directory (tensorboard_trace_handler)
        self.step_num = 0
        self.current_action = schedule(0) if schedule else ProfilerAction.RECORD
        self._running = False
        if start_profile:
            self.start()

    def start(self) -> None:
        """Start profiling; with a schedule, recording follows the schedule's actions."""
        self._running = True
        if self.current_action.records:
            self._record()

    def stop(self) -> None:
        """Stop recording and keep what was recorded for ``analyse`` (with a schedule, what
        was being recorded is handed to ``on_trace_ready``)."""
        recording = TIMELINE.active
        self._pause()
        self._running = False
        if self.schedule is not None and recording:
            self._trace_ready()

    def step(self) -> None:
        """Mark the end of a training step: the per-step columns divide by the steps, and a
        schedule moves to the next step's action (saving at the end of each active cycle)."""
        self._steps += 1
        if self.schedule is None or not self._running:
            return
        previous = self.current_action
        self.step_num += 1
        self.current_action = self.schedule(self.step_num)
        if previous is ProfilerAction.RECORD_AND_SAVE:
            self._pause()
            self._trace_ready()
        elif previous.records and not self.current_action.records:
            self._pause()  # a cycle cut short (a schedule of RECORD then NONE): not saved
            self._runs, self._calls = [], 0
        if self.current_action.records:
            self._record()

    def _record(self) -> None:
        if TIMELINE.active:
            return
        TIMELINE.clear()
        TIMELINE.active = True
        self._started_at = time.time_ns()

    def _pause(self) -> None:
        if not TIMELINE.active:
            return
        TIMELINE.active = False
        self._runs += TIMELINE.runs
        self._calls += TIMELINE.calls
        TIMELINE.clear()

    def _trace_ready(self) -> None:
        """One recorded cycle is complete: hand it to ``on_trace_ready``, then start afresh."""
        if self.on_trace_ready is not None:
            self.on_trace_ready(self)
        self._runs, self._calls, self._steps = [], 0, 0

    def __enter__(self) -> Profiler:
        self.start()
        return self

    def __exit__(self, *exc) -> None:
        self.stop()

    def analyse(self, offline_path=None, pretty: bool = False, step_list=None,
                mode: str = "sync", async_mode: bool = False) -> str:
        """Stop recording and write the profile files; returns their directory."""
        self._pause()
        rank = comm_engine.world().rank if comm_engine.initialized() else 0
        worker = self.worker_name or f"{socket.gethostname()}_{os.getpid()}"
        name = f"{worker}_{time.strftime('%Y%m%d%H%M%S')}" \
               f"{int(time.time() * 1000) % 1000:03d}_ascend_ms"
        os.makedirs(self.output_path, exist_ok=True)
        tmp = tempfile.mkdtemp(prefix=".profiling-", dir=self.output_path)
        try:
            final = os.path.join(self.output_path, name)
            self._write_files(tmp, rank, pretty)
            os.replace(tmp, final)
        except BaseException:
            shutil.rmtree(tmp, ignore_errors=True)  # never a half-written profile
            raise
        return final

    def _write_files(self, tmp: str, rank: int, pretty: bool) -> None:
        ops = _name_runs(self._runs)
        framework = os.path.join(tmp, "FRAMEWORK")
        os.makedirs(framework)
        steps = self._steps or max(self._calls, 1)
        _write(os.path.join(framework, f"cpu_op_type_info_{rank}.csv"), _type_info(ops, steps))
        _write(os.path.join(framework, f"cpu_op_detail_info_{rank}.csv"), _detail_info(ops))
        _write(os.path.join(framework, f"cpu_op_execute_timestamp_{rank}.txt"),
               _timestamps(ops))
        _write(os.path.join(framework, f"cpu_framework_{rank}.txt"), _framework(ops))
        trace = os.path.join(tmp, "ASCEND_PROFILER_OUTPUT")
        os.makedirs(trace)
        _write(os.path.join(trace, "trace_view.json"),
               json.dumps(_trace_events(ops), indent=1 if pretty else None))


class profile(Profiler):  # noqa: N801  (MindSpore's name)
    """MindSpore's newer interface: the same profiler, configured by keyword (``schedule``,
    ``on_trace_ready``, ``activities``, ``experimental_config``, ...); files are written by
    ``on_trace_ready`` (for instance ``tensorboard_trace_handler``)."""

    def __init__(self, activities=None, with_stack: bool = False, profile_memory: bool = False,
                 data_process: bool = False, parallel_strategy: bool = False,
                 start_profile: bool = True, hbm_ddr: bool = False, pcie: bool = False,
                 sync_enable: bool = True, record_shapes: bool = False,
                 schedule: Schedule | None = None, on_trace_ready: Callable | None = None,
                 experimental_config=None):
        super().__init__(profile_memory=profile_memory, start_profile=start_profile,
                         schedule=schedule, on_trace_ready=on_trace_ready,
                         with_stack=with_stack, data_process=data_process,
                         parallel_strategy=parallel_strategy, hbm_ddr=hbm_ddr, pcie=pcie,
                         sync_enable=sync_enable, record_shapes=record_shapes,
                         activities=activities, experimental_config=experimental_config)


def tensorboard_trace_handler(dir_name: str | None = None, worker_name: str | None = None,
                              analyse_flag: bool = True, async_mode: bool = False) -> Callable:
    """An ``on_trace_ready`` that writes each recorded cycle's files under ``dir_name``
    (``./data`` by default), in a directory named after ``worker_name`` when given."""
    if not isinstance(analyse_flag, bool):
        analyse_flag = True

    def handler(prof: Profiler) -> None:
        if analyse_flag:
            prof.output_path = os.path.abspath(dir_name or "./data")
            prof.worker_name = worker_name
            prof.analyse(async_mode=async_mode)
    return handler


def _name_runs(runs: list) -> OrderedDict:
    """``{full op name: [runs]}``, in first-run order: the k-th run of a type within one
    step is ``Default/<type>-op<k>``."""
    ops: OrderedDict = OrderedDict()
    seen: dict = defaultdict(int)
    for run in runs:
        k = seen[(run.call, run.op_type)]
        seen[(run.call, run.op_type)] = k + 1
        ops.setdefault(f"Default/{run.op_type}-op{k}", []).append(run)
    return ops


def _csv(header: list, rows: list) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(header)
    writer.writerows(rows)
    return out.getvalue()


def _total_ms(runs: list) -> float:
    return sum(r.duration_us for r in runs) / 1000.0


def _type_info(ops: OrderedDict, steps: int) -> str:
    by_type: dict = defaultdict(list)
    for runs in ops.values():
        by_type[runs[0].op_type] += runs
    total = sum(_total_ms(r) for r in by_type.values()) or 1.0
    rows = [(t, len(r), _number(len(r) / steps), round(_total_ms(r), 6),
             round(_total_ms(r) / len(r), 7), round(_total_ms(r) / total, 6))
            for t, r in sorted(by_type.items(), key=lambda kv: -_total_ms(kv[1]))]
    return _csv(["op_type", "type_occurrences", "execution_frequency(per-step)",
                 "total_compute_time", "avg_time(ms)", "percent"], rows)


def _number(x: float):
    return int(x) if x == int(x) else round(x, 6)


def _detail_info(ops: OrderedDict) -> str:
    total = sum(_total_ms(r) for r in ops.values()) or 1.0
    rows = [("Host", r[0].op_type, full.split("/", 1)[1], full, len(r),
             round(_total_ms(r), 6), round(_total_ms(r) / len(r), 7),
             round(_total_ms(r) / total, 6), "Default", os.getpid())
            for full, r in sorted(ops.items(), key=lambda kv: kv[0])]
    return _csv(["op_side", "op_type", "op_name", "full_op_name", "op_occurrences",
                 "op_total_time(ms)", "op_avg_time(ms)", "total_proportion", "subgraph",
                 "pid"], rows)


def _timestamps(ops: OrderedDict) -> str:
    return "".join(
        f"{full};HostCpuOps;" + " ".join(f"{r.start_ns},{r.duration_us / 1000.0:.6f},0"
                                         for r in runs) + " \n"
        for full, runs in ops.items())


def _framework(ops: OrderedDict) -> str:
    lines = []
    for full, runs in ops.items():
        for r in runs:
            shapes = "".join(f"input_{i + 1}:{list(s) if s is not None else 'NoShape'};"
                             for i, s in enumerate(r.shapes))
            lines.append(f"{r.op_type};{full.split('/', 1)[1]};{r.call};{shapes}\n")
    return "".join(lines)


def _trace_events(ops: OrderedDict) -> list:
    meta = [{"ph": "M", "name": "process_name", "pid": 2, "tid": 0,
             "args": {"name": "CPU OP"}},
            {"ph": "M", "name": "thread_name", "pid": 2, "tid": 0,
             "args": {"name": "Thread 0"}}]
    events = [{"ph": "X", "name": full, "pid": 2, "tid": 0, "ts": f"{r.start_ns / 1000:.3f}",
               "dur": f"{r.duration_us:.3f}", "cat": "", "args": {"type": "HostCpuOps"}}
              for full, runs in ops.items() for r in runs]
    return meta + sorted(events, key=lambda e: float(e["ts"]))


def _write(path: str, text: str) -> None:
    with open(path, "w") as f:
        f.write(text)
        f.flush()
        os.fsync(f.fileno())


__all__ = ["Profiler"]
