"""Training on changing input sizes: one dynamic-shape compile (``set_inputs`` with None for
the batch and the image size / sequence length) against a static compile per size, for
graphkiln and real MindSpore, on the networks of tests/frontend/fixtures/dynamic_nets_programs.py.

    python bench/dynamic_shapes.py [--mindspore-python /work/msvenv/bin/python]
                                   [--baseline ../other-checkout] [--repeat 3]

Each (backend, case) runs in a fresh process. ``first_s``: the first pass over the sizes
(every compile included); ``step_ms``: the median step of three more passes; ``compiles``:
how many graphs graphkiln built. ``--baseline`` runs the static cases on another checkout
too (the static path must not get slower).
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time

from _harness import run_cases, table, write_json

FIXTURES = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                        "tests", "frontend", "fixtures")
SIZES = {  # per network: the input shapes of one pass
    "lenet": [(8, 1, 16, 16), (16, 1, 20, 20), (8, 1, 24, 24), (16, 1, 16, 20)],
    "attention": [(8, 16, 8), (16, 24, 8), (8, 32, 8), (16, 16, 8)],
}
CASES = [f"{net} {kind}" for net in SIZES for kind in ("static", "dynamic")]


def worker(backend: str, case: str) -> None:
    if backend == "graphkiln":
        from graphkiln import compat  # noqa: PLC0415 - only the graphkiln worker aliases
        compat.install()
    sys.path.insert(0, FIXTURES)
    import dynamic_nets_programs as P  # noqa: PLC0415
    import mindspore as ms  # noqa: PLC0415 - graphkiln or MindSpore, chosen above

    ms.set_context(mode=ms.GRAPH_MODE)
    net, kind = case.split()
    dynamic = kind == "dynamic"
    if net == "lenet":
        step, data = P.lenet_step(dynamic), P.batches(SIZES[net], classes=5)
    else:
        step, data = P.transformer_step(dynamic), P.batches(SIZES[net])
    graphs = set()
    t = time.perf_counter()
    for x, y in data:
        step(x, y).asnumpy()
        if backend == "graphkiln":
            graphs.add(id(ms.compile_info(step)))
    first = time.perf_counter() - t
    times = []
    for _ in range(3):
        for x, y in data:
            t = time.perf_counter()
            step(x, y).asnumpy()
            times.append(time.perf_counter() - t)
    print(json.dumps({"first_s": first, "step_ms": statistics.median(times) * 1e3,
                      "compiles": len(graphs) if backend == "graphkiln" else None}))


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--worker", nargs=2, metavar=("BACKEND", "CASE"))
    ap.add_argument("--mindspore-python", default=None)
    ap.add_argument("--baseline", default=None)
    ap.add_argument("--repeat", type=int, default=1)
    args = ap.parse_args()
    if args.worker:
        return worker(*args.worker)
    script = os.path.abspath(__file__)
    results = run_cases(script, CASES, args.mindspore_python, repeat=args.repeat)
    if args.baseline:  # the other checkout may not compile the dynamic cases
        static = [c for c in CASES if c.endswith("static")]
        for case, by in run_cases(script, static, None, baseline=args.baseline,
                                  repeat=args.repeat).items():
            results[case]["baseline"] = by["baseline"]
    rows = []
    for case, by in results.items():
        for backend, r in by.items():
            rows.append([case, backend, r["first_s"], r["step_ms"], r["compiles"]])
    print(table(rows, ["case", "backend", "first pass s", "step ms", "compiles"]))
    print("wrote", write_json("dynamic_shapes", {"sizes": SIZES, "results": results}))


if __name__ == "__main__":
    main()
