"""Deterministic profile of the first (compiling) call of a ``compile_time.py`` program:
total Python call count and the top functions, for this checkout or any other graphkiln tree.

    PYTHONPATH=$PWD python bench/profile_compile.py func [--sort tottime] [--top 30]
    python bench/profile_compile.py func --tree /work/base-s3 --tree .   # side by side

Without ``--tree`` the profile runs in this process on the graphkiln that ``PYTHONPATH``
names; with ``--tree`` each tree runs in a fresh
process (``PYTHONPATH`` set to it) and the table compares their call counts and, per
function, call counts and tottime. Call counts do not depend on machine load, so they show
a regression that noisy wall-clock timings hide; times are the process's CPU time.
"""
from __future__ import annotations

import argparse
import cProfile
import json
import os
import pstats
import subprocess
import sys
import time

from _harness import table
from compile_time import CASES, _define

HERE = os.path.dirname(os.path.abspath(__file__))


def profile_first_call(case: str) -> pstats.Stats:
    """Profile only the first call of ``case`` (tracing, passes, codegen and its run)."""
    import graphkiln as ms  # the tree named by PYTHONPATH

    fns, args = _define(ms)
    profiler = cProfile.Profile(time.process_time)  # CPU time: other processes' load
    # on a shared machine does not land in whatever function was running
    profiler.enable()
    fns[case](*args[case])
    profiler.disable()
    return pstats.Stats(profiler)


def _label(func: tuple) -> str:
    """``path(name)`` without the line number, so the same function matches across trees
    (same-named functions of one file, e.g. comprehensions, are summed)."""
    path, _line, name = func
    if "graphkiln" in path:
        path = path[path.rindex("graphkiln"):]
    else:
        path = os.path.basename(path)
    return f"{path}({name})"


def summary(stats: pstats.Stats, top: int, sort: str) -> dict:
    """Total calls and the ``top`` functions by ``sort`` as plain data."""
    key = {"tottime": 2, "cumtime": 3, "calls": 1}[sort]
    merged: dict = {}
    for func, (_cc, nc, tt, ct, _callers) in stats.stats.items():
        old = merged.get(_label(func), (0, 0.0, 0.0))
        merged[_label(func)] = (old[0] + nc, old[1] + tt, old[2] + ct)
    rows = [(label, *totals) for label, totals in merged.items()]
    rows.sort(key=lambda r: r[key], reverse=True)
    return {"total_calls": stats.total_calls, "total_s": stats.total_tt,
            "functions": {r[0]: [r[1], r[2], r[3]] for r in rows},
            "top": [r[0] for r in rows[:top]]}


def _run_tree(tree: str, case: str, top: int, sort: str) -> dict:
    env = dict(os.environ, PYTHONPATH=os.path.abspath(tree))
    proc = subprocess.run([sys.executable, __file__, case, "--json", "--top", str(top),
                           "--sort", sort], capture_output=True, text=True, env=env,
                          timeout=600, cwd=HERE)
    if proc.returncode != 0:
        raise RuntimeError(f"profiling {case} on {tree} failed:\n{proc.stderr[-4000:]}")
    return json.loads(proc.stdout.splitlines()[-1])


def compare(trees: list[str], case: str, top: int, sort: str) -> None:
    """Side-by-side totals and per-function counts; ``sort="delta"`` lists the functions
    whose call count differs most between the first and the last tree."""
    runs = [_run_tree(t, case, top, "calls" if sort == "delta" else sort) for t in trees]
    names = [os.path.basename(os.path.abspath(t)) or t for t in trees]
    print(table([[n, r["total_calls"], r["total_s"] * 1e3] for n, r in zip(names, runs)],
                ["tree", "calls", "profiled ms"]))
    if sort == "delta":
        first, last = runs[0]["functions"], runs[-1]["functions"]

        def calls(fs: dict, f: str) -> int:
            return fs.get(f, [0])[0]

        changed = [f for f in set(first) | set(last) if calls(first, f) != calls(last, f)]
        changed.sort(key=lambda f: abs(calls(last, f) - calls(first, f)), reverse=True)
        funcs = changed[:top]
    else:
        funcs = []
        for r in runs:
            funcs += [f for f in r["top"] if f not in funcs]
    rows = []
    for f in funcs:
        row = [f]
        for r in runs:
            ncalls, tottime, _ = r["functions"].get(f, [0, 0.0, 0.0])
            row += [ncalls, tottime * 1e3]
        rows.append(row)
    header = ["function"] + [h for n in names for h in (f"{n} calls", f"{n} tot ms")]
    print()
    print(table(rows, header))


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("case", choices=CASES)
    p.add_argument("--tree", action="append", default=[],
                   help="a graphkiln checkout to profile in a fresh process (repeatable)")
    p.add_argument("--top", type=int, default=30)
    p.add_argument("--sort", choices=["tottime", "cumtime", "calls", "delta"],
                   default="tottime", help="delta (with --tree): largest change in calls")
    p.add_argument("--json", action="store_true", help="print the summary as one JSON line")
    a = p.parse_args()
    if a.tree:
        compare(a.tree, a.case, a.top, a.sort)
        return
    if a.sort == "delta":
        p.error("--sort delta compares trees: give --tree at least twice")
    stats = profile_first_call(a.case)
    if a.json:
        print(json.dumps(summary(stats, a.top, a.sort)))
        return
    print(f"{a.case}: {stats.total_calls} calls")
    stats.sort_stats(a.sort).print_stats(a.top)


if __name__ == "__main__":
    main()
