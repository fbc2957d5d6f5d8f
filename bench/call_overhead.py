"""Per-call cost of a compiled call outside its generated function: ``@jit`` func200
(bench/compile_time.py's ``func``) and the MLP train step (bench/train_step.py's ``mlp``).
Each is timed three ways in one process (best of 7 rounds, CPU time): the full call, the
generated function alone on the same arrays, and the full call with the generated function
swapped for one returning its saved output (the dispatch alone: call cache key, guards,
argument arrays, ``Executable.__call__``, output tensor).

    python bench/call_overhead.py [--calls 3000]
"""
from __future__ import annotations

import argparse
import os
import time

import compile_time
import train_step
from _harness import table, write_json

import graphkiln as ms
from graphkiln.compile import api


def _per_call_us(fn, calls: int) -> float:
    best = float("inf")
    for _ in range(7):
        t = time.process_time()
        for _ in range(calls):
            fn()
        best = min(best, (time.process_time() - t) / calls)
    return best * 1e6


def _measure(call, exe, inputs, calls: int) -> list[float]:
    weights = [w._data for w in exe.weights]
    real = exe.fn
    full = _per_call_us(call, calls)
    body = _per_call_us(lambda: real(*inputs, *weights), calls)
    saved = real(*inputs, *weights)
    exe.fn = lambda *a: saved
    try:
        dispatch = _per_call_us(call, calls * 4)
    finally:
        exe.fn = real
    return [full, body, dispatch]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--calls", type=int, default=3000)
    args = ap.parse_args()
    fns, fargs = compile_time._define(ms)
    func = fns["func"]
    a = fargs["func"]
    func(*a)
    (func_exe,) = func._cache.entries.values()  # the executable the call cache holds
    step = train_step._ms_step(ms, "mlp")
    step()
    cell = next(c for c in api._CELL_CACHES if type(c).__name__ == "TrainOneStepCell")
    (step_exe,) = api._CELL_CACHES[cell].entries.values()
    x, y = (ms.Tensor(v) for v in train_step._data("mlp"))
    rows = [["func200", *_measure(lambda: func(*a), func_exe, [t._data for t in a],
                                  args.calls)],
            ["mlp step", *_measure(lambda: cell(x, y), step_exe, [x._data, y._data],
                                   max(1, args.calls // 10))]]
    print(f"load {os.getloadavg()[0]:.1f}")
    print(table(rows, ["case", "full call us", "generated fn us", "dispatch us"]))
    print("wrote", write_json("call_overhead", {
        "load": os.getloadavg()[0],
        "results": {r[0]: dict(zip(["full_us", "generated_us", "dispatch_us"], r[1:]))
                    for r in rows}}))


if __name__ == "__main__":
    main()
