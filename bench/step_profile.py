"""Where one steady training step of a ``bench/train_step.py`` row spends its time: each
kernel of the compiled step timed by the profiler's timeline in this thread's CPU time (a
shared machine preempts long kernels: wall time would count the waits), the minimum over
``--steps`` runs of each kernel, summed per primitive, beside the step's CPU time and the
OpenBLAS kernels NumPy runs.

    python bench/step_profile.py resnet_block [--steps 5] [--top 12]
"""
from __future__ import annotations

import argparse
import collections
import time
import types

from _blas_core import blas_core
from train_step import ROWS, WARMUP, _ms_step


def profile(row: str, steps: int) -> tuple[float, dict, dict]:
    """(CPU ms of a step, {op: summed minimum us}, {op: kernels per step})."""
    import graphkiln as ms
    from graphkiln.common import op_timeline
    from graphkiln.common.op_timeline import TIMELINE

    # the timeline's clock, for this run: the thread's CPU time instead of the wall clock
    op_timeline.time = types.SimpleNamespace(perf_counter_ns=time.thread_time_ns,
                                             time_ns=time.time_ns)

    step = _ms_step(ms, row)
    for _ in range(WARMUP):
        step()
    t0 = time.process_time()
    for _ in range(steps):
        step()
    cpu_ms = (time.process_time() - t0) / steps * 1e3
    TIMELINE.clear()
    TIMELINE.active = True
    try:
        for _ in range(steps):
            step()
    finally:
        TIMELINE.active = False
    by_call = collections.defaultdict(list)
    for run in TIMELINE.runs:
        by_call[run.call].append(run)
    calls = list(by_call.values())
    total, count = collections.Counter(), collections.Counter()
    for i, first in enumerate(calls[0]):
        total[first.op_type] += min(c[i].duration_us for c in calls)
        count[first.op_type] += 1
    return cpu_ms, dict(total), dict(count)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("row", choices=ROWS)
    p.add_argument("--steps", type=int, default=5)
    p.add_argument("--top", type=int, default=12)
    a = p.parse_args()
    cpu_ms, total, count = profile(a.row, a.steps)
    kernels = sum(total.values()) / 1e3
    print(f"{a.row}: step {cpu_ms:.2f} ms CPU, kernels {kernels:.2f} ms "
          f"({sum(count.values())} runs), OpenBLAS core {blas_core()}")
    for op, us in sorted(total.items(), key=lambda kv: -kv[1])[:a.top]:
        print(f"  {op:<24}{count[op]:>4} x  {us / 1e3:8.3f} ms  {us / 10 / kernels:5.1f} %")


if __name__ == "__main__":
    main()
