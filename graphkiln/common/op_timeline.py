"""The kernel timeline a Profiler records: one entry per kernel run, from compiled steps
(their kernels wrapped in timers, see backend/codegen.py ``GeneratedCode.load``) and from
PyNative ops (``ir/primitive.apply``). Off by default; when off nothing is timed."""
from __future__ import annotations

import threading
import time
from dataclasses import dataclass, field


@dataclass
class KernelRun:
    """One kernel run: its op type, start (ns since the epoch), duration (us) and input
    shapes (``None`` for an input that is not an array)."""

    op_type: str
    start_ns: int
    duration_us: float
    shapes: tuple
    call: int


@dataclass
class Timeline:
    """Kernel runs recorded while ``active``; ``calls`` counts the compiled steps run (a
    PyNative op is a call of its own)."""

    active: bool = False
    runs: list = field(default_factory=list)
    calls: int = 0
    lock: threading.Lock = field(default_factory=threading.Lock)

    def begin_call(self) -> None:
        with self.lock:
            self.calls += 1

    def clear(self) -> None:
        with self.lock:
            self.runs, self.calls = [], 0

    def note(self, op_type: str, t0: int, t1: int, args: tuple) -> None:
        shapes = tuple(getattr(a, "shape", None) for a in args)
        # perf_counter_ns for the duration, wall clock for the start (as traces show)
        run = KernelRun(op_type, time.time_ns() - (t1 - t0), (t1 - t0) / 1000.0, shapes,
                        self.calls)
        with self.lock:
            self.runs.append(run)


TIMELINE = Timeline()


def timed(op_type: str, kernel):
    """``kernel`` that notes each run in :data:`TIMELINE`."""
    def run(*args, **attrs):
        t0 = time.perf_counter_ns()
        try:
            return kernel(*args, **attrs)
        finally:
            TIMELINE.note(op_type, t0, time.perf_counter_ns(), args)
    return run


__all__ = ["KernelRun", "Timeline", "TIMELINE", "timed"]
