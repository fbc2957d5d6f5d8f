"""RSS over many calls of one ``@jit`` function with ever-new input shapes: once the call
cache's bound is reached (``GRAPHKILN_CALL_CACHE_SIZE``, default 64) memory stays flat.

    PYTHONPATH=. python bench/call_cache_memory.py [--calls 20000]
"""
from __future__ import annotations

import argparse
import gc
import os
import sys
import time
import warnings

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _harness import table, write_json  # noqa: E402

import graphkiln as ms  # noqa: E402
from graphkiln import ops  # noqa: E402


def rss_mib() -> float:
    """Resident set size of this process (Linux /proc)."""
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20


def run(calls: int, samples: int = 10) -> list[tuple[int, float]]:
    """``(calls so far, RSS MiB)`` at ``samples`` points; every call has a new shape."""
    @ms.jit
    def f(x):
        y = ops.exp(x) * 2 + 1
        return y.sum() + x.mean()

    points = []
    for n in range(1, calls + 1):
        f(ms.Tensor(np.ones(n, np.float32)))
        if n % (calls // samples) == 0:
            gc.collect()
            points.append((n, rss_mib()))
    return points


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--calls", type=int, default=20000)
    opts = ap.parse_args()
    warnings.simplefilter("ignore", RuntimeWarning)  # the recompilation warning, expected
    t0 = time.perf_counter()
    points = run(opts.calls)
    seconds = time.perf_counter() - t0
    base = points[0][1]
    print(table([[n, rss, rss - base] for n, rss in points], ["calls", "RSS MiB", "growth"]))
    per_call = (points[-1][1] - base) * 2**20 / (points[-1][0] - points[0][0])
    print(f"{opts.calls} calls in {seconds:.0f} s; growth after the first sample: "
          f"{per_call:.1f} bytes per call")
    write_json("call_cache_memory", {"calls": opts.calls, "seconds": seconds,
                                     "points": points, "bytes_per_call": per_call})


if __name__ == "__main__":
    main()
