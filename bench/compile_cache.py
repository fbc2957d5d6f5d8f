"""Compile cache: first call of the spec's ``func`` in a fresh process with the cache off,
cold (empty cache) and warm (second process), and the same for a cell with branches; each
the fastest of ``--repeat`` processes.
The spec reports the warm run at about 1/7 of the cold one.

    python bench/compile_cache.py [--baseline /path/to/other/checkout]

With ``--baseline`` the same cases also run on that checkout's graphkiln in the same run
(rows marked ``baseline``), to compare before and after a change.
"""
from __future__ import annotations

import argparse
import json
import shutil
import sys
import tempfile
import time

from _harness import run_worker, table, write_json


def worker(mode: str, path: str, case: str) -> None:
    import numpy as np

    import graphkiln as ms
    from graphkiln import nn

    if mode != "off":
        ms.set_context(enable_compile_cache=True, compile_cache_path=path)

    @ms.jit
    def func(input_x, input_y):
        output = input_x
        for _ in range(200):
            output = input_x + input_x * input_y + output
        return output

    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.w = ms.Parameter(ms.Tensor(np.ones(4, np.float32)), name="w")

        def construct(self, x):
            for _ in range(50):
                if x.sum() > 0:
                    x = x * self.w - 1
                else:
                    x = x + self.w
            return x

    x = ms.Tensor(np.ones(4, np.float32))
    if case == "func":
        call = (lambda: func(x, x))
    else:
        ms.set_context(mode=ms.GRAPH_MODE)
        net = Net()
        call = (lambda: net(x))
    t0 = time.perf_counter()
    out = call()
    first = time.perf_counter() - t0
    print(json.dumps({"first_s": first, "value": out.asnumpy().tolist()}))


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--worker", nargs=3, metavar=("MODE", "PATH", "CASE"))
    p.add_argument("--baseline", metavar="CHECKOUT",
                   help="also run the cases on the graphkiln of this checkout")
    p.add_argument("--repeat", type=int, default=3,
                   help="processes per mode and case (the fastest counts)")
    a = p.parse_args()
    if a.worker:
        worker(*a.worker)
        return
    results, rows = {}, []
    trees = [("this", None)] + ([("baseline", a.baseline)] if a.baseline else [])
    for (tree, root), case in [(t, c) for t in trees for c in ("func", "cell_with_branches")]:
        env = {"PYTHONPATH": root} if root else None
        runs: dict = {"off": [], "cold": [], "warm": []}
        for _ in range(a.repeat):  # the fastest of the repeats: the machine may be shared
            path = tempfile.mkdtemp(prefix="gk-cache-")
            try:
                for m in runs:
                    runs[m].append(run_worker(__file__, sys.executable,
                                              [m if m != "warm" else "on", path, case], env))
            finally:
                shutil.rmtree(path, ignore_errors=True)
        r = {m: min(rs, key=lambda x: x["first_s"]) for m, rs in runs.items()}
        results[f"{tree}:{case}"] = r
        label = case if tree == "this" else f"{case} (baseline)"
        rows.append([label, r["off"]["first_s"] * 1e3, r["cold"]["first_s"] * 1e3,
                     r["warm"]["first_s"] * 1e3, r["cold"]["first_s"] / r["warm"]["first_s"],
                     r["cold"]["value"] == r["warm"]["value"] == r["off"]["value"]])
    print(table(rows, ["case", "cache off ms", "cold ms", "warm ms", "cold / warm",
                       "same value"]))
    print(f"\nwrote {write_json('compile_cache', {'python': sys.version, 'results': results})}")


if __name__ == "__main__":
    main()
