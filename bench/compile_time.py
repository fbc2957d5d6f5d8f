"""First-call compile time and steady-state call time of the spec's ``func``, ``if_net``
and ``select_net``, each in a fresh process (import excluded), for graphkiln and, when
``--mindspore-python`` is given, for the real MindSpore side by side.

    python bench/compile_time.py [--mindspore-python ../msvenv/bin/python] [--steady 200]
                                 [--baseline ../other-checkout --repeat 3]

``--baseline`` runs the same cases on another graphkiln checkout in the same run (before /
after a change); ``--repeat`` keeps the median of that many fresh processes per case.
"""
from __future__ import annotations

import argparse
import json
import sys
import time

from _harness import run_cases, table, write_json

CASES = ["func", "if_net", "select_net"]


def _define(ms):
    ops = ms.ops

    @ms.jit
    def func(input_x, input_y):
        output = input_x
        for _ in range(200):
            output = input_x + input_x * input_y + output
        return output

    @ms.jit
    def if_net(x, y):
        out = 0
        for _ in range(100):
            if x < y:
                x = x - y
            else:
                x = x + y
            out = out + x
        return out

    @ms.jit
    def select_net(x, y):
        out = x
        for _ in range(100):
            cond = x < y
            x = ops.select(cond, x - y, x + y)
            out = out + x
        return out

    args = {
        "func": (ms.Tensor([1], ms.float32), ms.Tensor([2], ms.float32)),
        "if_net": (ms.Tensor([0]), ms.Tensor([1])),
        "select_net": (ms.Tensor([0]), ms.Tensor([1])),
    }
    return {"func": func, "if_net": if_net, "select_net": select_net}, args


def worker(backend: str, case: str, steady: int) -> None:
    if backend == "mindspore":
        import mindspore as ms
    else:
        import graphkiln as ms
    fns, args = _define(ms)
    fn, a = fns[case], args[case]
    t0 = time.perf_counter()
    out = fn(*a)
    first = time.perf_counter() - t0
    t0 = time.perf_counter()
    for _ in range(steady):
        out = fn(*a)
    per_call = (time.perf_counter() - t0) / steady
    value = out.asnumpy().tolist()
    result = {"first_s": first, "steady_s": per_call, "value": value}
    if backend == "graphkiln":
        info = ms.compile_info(fn)
        result.update(nodes=info.nodes, cnodes=info.cnodes, subgraphs=info.subgraphs,
                      stages={r.name: r.seconds for r in info.records},
                      trace_s=info.trace_seconds, codegen_s=info.codegen_seconds)
    print(json.dumps(result))


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--worker", nargs=3, metavar=("BACKEND", "CASE", "STEADY"))
    p.add_argument("--mindspore-python", default=None)
    p.add_argument("--steady", type=int, default=200)
    p.add_argument("--baseline", default=None, help="another graphkiln checkout to compare")
    p.add_argument("--repeat", type=int, default=1)
    a = p.parse_args()
    if a.worker:
        worker(a.worker[0], a.worker[1], int(a.worker[2]))
        return
    results = run_cases(__file__, CASES, a.mindspore_python, (str(a.steady),), a.baseline,
                        a.repeat)
    rows = []
    for case in CASES:
        g = results[case]["graphkiln"]
        m = results[case].get("mindspore")
        rows.append([case, g["first_s"] * 1e3, g["steady_s"] * 1e3, g["cnodes"],
                     m["first_s"] * 1e3 if m else None, m["steady_s"] * 1e3 if m else None,
                     (m["first_s"] / g["first_s"]) if m else None,
                     (g["value"] == m["value"]) if m else None])
    print(table(rows, ["case", "gk compile ms", "gk call ms", "gk cnodes", "ms compile ms",
                       "ms call ms", "compile speedup", "same value"]))
    if a.baseline:
        base_rows = []
        for case in CASES:
            g, b = results[case]["graphkiln"], results[case]["baseline"]
            base_rows.append([case, b["first_s"] * 1e3, g["first_s"] * 1e3,
                              g["first_s"] / b["first_s"], b["steady_s"] * 1e3,
                              g["steady_s"] * 1e3, b["cnodes"] == g["cnodes"],
                              b["value"] == g["value"]])
        print(f"\nbaseline {a.baseline} vs this checkout (median of {a.repeat}):")
        print(table(base_rows, ["case", "base compile ms", "compile ms", "ratio",
                                "base call ms", "call ms", "same cnodes", "same value"]))
    path = write_json("compile_time", {"python": sys.version, "results": results})
    print(f"\nwrote {path}")


if __name__ == "__main__":
    main()
