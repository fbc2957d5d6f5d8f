"""The spec's ``vmap`` example: ``vmap(hswish_func, in_axes=(0,))`` over a (100, 2) batch
against the ``manually_batched`` ``@jit`` loop. For each, the first call (fresh process,
import excluded: what the spec times) and the steady-state call, for graphkiln and, with
``--mindspore-python``, the real MindSpore side by side. Both must give the same values.

    python bench/vmap.py [--mindspore-python ../msvenv/bin/python] [--steady 200]
"""
from __future__ import annotations

import argparse
import json
import sys
import time

import numpy as np
from _harness import backends_for, run_cases, table, write_json

CASES = ["vmap", "loop"]
SHAPE = (100, 2)


def _define(ms):
    ops = ms.ops

    def hswish_func(x):
        return ops.HSwish()(x)

    @ms.jit
    def manually_batched(xs):
        output = []
        for i in range(xs.shape[0]):
            output.append(hswish_func(xs[i]))
        return ops.stack(output)

    x_np = (np.random.default_rng(0).standard_normal(SHAPE) * 100).astype(np.float32)
    x = ops.sub(ms.Tensor(x_np), 0)
    vmapped = ms.vmap(hswish_func, in_axes=(0,))
    return {"vmap": vmapped, "loop": manually_batched}, x


def worker(backend: str, case: str, steady: int) -> None:
    if backend == "mindspore":
        import mindspore as ms
    else:
        import graphkiln as ms
    fns, x = _define(ms)
    fn = fns[case]
    t0 = time.perf_counter()
    out = fn(x)
    first = time.perf_counter() - t0
    t0 = time.perf_counter()
    for _ in range(steady):
        out = fn(x)
    per_call = (time.perf_counter() - t0) / steady
    result = {"first_s": first, "steady_s": per_call,
              "checksum": float(np.abs(out.asnumpy()).sum()),
              "value": out.asnumpy().round(3).tolist()}
    if backend == "graphkiln":
        info = ms.compile_info(fn)
        result.update(cnodes=info.cnodes, trace_s=info.trace_seconds,
                      compile_s=info.total_seconds)
    print(json.dumps(result))


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--worker", nargs=3, metavar=("BACKEND", "CASE", "STEADY"))
    p.add_argument("--mindspore-python", default=None)
    p.add_argument("--steady", type=int, default=200)
    a = p.parse_args()
    if a.worker:
        worker(a.worker[0], a.worker[1], int(a.worker[2]))
        return
    backends = backends_for(a.mindspore_python)
    by_case = run_cases(__file__, CASES, a.mindspore_python, (str(a.steady),))
    results = {b: {c: by_case[c][b] for c in CASES} for b in backends}
    rows = []
    for backend in backends:
        r = results[backend]
        v, lp = r["vmap"], r["loop"]
        same = np.allclose(v["value"], lp["value"])
        rows.append([backend, v["first_s"] * 1e3, lp["first_s"] * 1e3,
                     lp["first_s"] / v["first_s"], v["steady_s"] * 1e3, lp["steady_s"] * 1e3,
                     lp["steady_s"] / v["steady_s"], v.get("cnodes"), lp.get("cnodes"), same])
    print(table(rows, ["backend", "vmap 1st ms", "loop 1st ms", "1st speedup", "vmap call ms",
                       "loop call ms", "call speedup", "vmap cnodes", "loop cnodes",
                       "same value"]))
    if len(backends) == 2:
        g, m = results["graphkiln"], results["mindspore"]
        vm = m["vmap"]["first_s"] / g["vmap"]["first_s"]
        lp = m["loop"]["first_s"] / g["loop"]["first_s"]
        same = np.allclose(g["vmap"]["value"], m["vmap"]["value"])
        print(f"\ngraphkiln vs MindSpore, first call: vmap {vm:.1f}x faster, loop {lp:.1f}x "
              f"faster; same values: {same}")
    for backend in backends:
        for case in CASES:
            results[backend][case].pop("value", None)
    path = write_json("vmap", {"python": sys.version, "shape": SHAPE, "steady": a.steady,
                               "results": results})
    print(f"\nwrote {path}")


if __name__ == "__main__":
    main()
