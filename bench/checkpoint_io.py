"""Checkpoint save and load time: the same parameters (a dict of float32 tensors, 8 x 16 MB
and 200 small ones) written and read as .ckpt and .safetensors, graphkiln beside MindSpore,
each backend in a fresh process; also whether the two backends' files are byte-identical.

    python bench/checkpoint_io.py [--mindspore-python ../msvenv/bin/python]
"""
from __future__ import annotations

import argparse
import hashlib
import json
import os
import sys
import tempfile
import time

from _harness import run_cases, table, write_json

CASES = ["ckpt", "safetensors"]
REPEATS = 3


def worker(backend: str, case: str) -> None:
    import numpy as np

    ms = __import__("mindspore" if backend == "mindspore" else "graphkiln")
    rng = np.random.default_rng(0)
    params = {f"big.{i}": ms.Parameter(ms.Tensor(rng.random((2048, 2048), np.float32)),
                                       name=f"big.{i}") for i in range(8)}
    params.update({f"small.{i}": ms.Parameter(ms.Tensor(rng.random(64, np.float32)),
                                              name=f"small.{i}") for i in range(200)})
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, f"w.{case}")
        save, load = [], []
        for _ in range(REPEATS):
            t0 = time.perf_counter()
            ms.save_checkpoint(params, path, format=case)
            save.append(time.perf_counter() - t0)
            t0 = time.perf_counter()
            loaded = ms.load_checkpoint(path, format=case)
            load.append(time.perf_counter() - t0)
        with open(path, "rb") as f:
            digest = hashlib.sha256(f.read()).hexdigest()
        size = os.path.getsize(path)
    assert sorted(loaded) == sorted(params)
    print(json.dumps({"save_s": min(save), "load_s": min(load), "bytes": size,
                      "sha256": digest}))


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--worker", nargs=2, metavar=("BACKEND", "CASE"))
    p.add_argument("--mindspore-python")
    a = p.parse_args()
    if a.worker:
        worker(*a.worker)
        return
    results = run_cases(__file__, CASES, a.mindspore_python)
    rows = []
    for case, by_backend in results.items():
        for backend, r in by_backend.items():
            same = None
            if "mindspore" in by_backend:
                same = by_backend["mindspore"]["sha256"] == by_backend["graphkiln"]["sha256"]
            rows.append([case, backend, r["bytes"] / 1e6, r["save_s"] * 1e3, r["load_s"] * 1e3,
                         same])
    print(table(rows, ["format", "backend", "MB", "save ms", "load ms", "same bytes"]))
    print(f"\nwrote {write_json('checkpoint_io', {'python': sys.version, 'results': results})}")


if __name__ == "__main__":
    main()
