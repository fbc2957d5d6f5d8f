"""The spec's 200-element ``HyperMap(add)`` against the equivalent tensor ``for`` loop:
first-call time (fresh process, import excluded) and node counts, for graphkiln and, with
``--mindspore-python``, the real MindSpore side by side.

    python bench/hypermap.py [--mindspore-python ../msvenv/bin/python]
"""
from __future__ import annotations

import argparse
import json
import sys
import time

from _harness import run_cases, table, write_json

CASES = ["hyper_map_net", "for_loop_net"]


def _define(ms):
    ops = ms.ops
    add = ops.MultitypeFuncGraph("add")

    @add.register("Tensor", "Tensor")
    def add_tensor(x, y):
        return ops.add(x, y)

    add_map = ops.HyperMap(add)
    list1 = [ms.Tensor(i) for i in range(200)]
    list2 = [ms.Tensor(i) for i in range(200)]

    @ms.jit
    def hyper_map_net():
        output = add_map(list1, list2)
        return output

    @ms.jit
    def for_loop_net():
        out = []
        for i in range(200):
            out.append(ops.add(list1[i], list2[i]))
        return out

    return {"hyper_map_net": hyper_map_net, "for_loop_net": for_loop_net}


def worker(backend: str, case: str) -> None:
    if backend == "mindspore":
        import mindspore as ms
    else:
        import graphkiln as ms
    fn = _define(ms)[case]
    t0 = time.perf_counter()
    out = fn()
    first = time.perf_counter() - t0
    result = {"first_s": first, "value": [int(t.asnumpy()) for t in out]}
    if backend == "graphkiln":
        info = ms.compile_info(fn)
        parse = info.stage("parse")
        result.update(nodes_before=parse.nodes, cnodes_before=parse.cnodes,
                      nodes_after=info.nodes, cnodes_after=info.cnodes)
    print(json.dumps(result))


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--worker", nargs=2, metavar=("BACKEND", "CASE"))
    p.add_argument("--mindspore-python", default=None)
    a = p.parse_args()
    if a.worker:
        worker(*a.worker)
        return
    results = run_cases(__file__, CASES, a.mindspore_python)
    ms_hyper = results["hyper_map_net"].get("mindspore")
    rows = []
    for case in CASES:
        g = results[case]["graphkiln"]
        m = results[case].get("mindspore")
        rows.append([case, g["first_s"] * 1e3, g["nodes_before"], g["nodes_after"],
                     m["first_s"] * 1e3 if m else None,
                     (ms_hyper["first_s"] / g["first_s"]) if ms_hyper else None,
                     (g["value"] == m["value"]) if m else None])
    print(table(rows, ["case", "gk first ms", "gk nodes (parse)", "gk nodes (final)",
                       "ms first ms", "ms HyperMap / gk", "same value"]))
    same = results["hyper_map_net"]["graphkiln"]["value"] == \
        results["for_loop_net"]["graphkiln"]["value"]
    print(f"\nHyperMap and loop give the same values in graphkiln: {same}")
    path = write_json("hypermap", {"python": sys.version, "results": results})
    print(f"wrote {path}")


if __name__ == "__main__":
    main()
