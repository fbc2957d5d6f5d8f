"""Convolution kernels: graphkiln beside PyTorch CPU (oneDNN) per shape, forward, input
gradient and filter gradient timed separately, and the BLAS time alone (the same GEMMs,
the im2col formulation's sizes, through ``np.matmul`` on ready operands).

    python bench/conv.py [--torch-python /work/torchvenv/bin/python] [--threads 1]
                         [--baseline ../other-checkout] [--repeat 3]

Each (backend, shape) runs in a fresh process; with ``--repeat`` the workers run that many
times interleaved and the median is kept. Times are medians of ``--steps`` calls, wall and
CPU (the machine may be shared: CPU time is the steadier number).
"""
from __future__ import annotations

import argparse
import math
import os
import sys
import time

import numpy as np
from _harness import run_worker, table, write_json

# name: (input NCHW, out channels, kernel, stride, pad)
SHAPES = {
    "resnet 3x3 64": ((16, 64, 32, 32), 64, 3, 1, 1),
    "resnet 1x1 64->256": ((16, 64, 32, 32), 256, 1, 1, 0),
    "resnet 3x3 s2 64->128": ((16, 64, 32, 32), 128, 3, 2, 1),
    "lenet conv1": ((32, 1, 32, 32), 6, 5, 1, 0),
    "lenet conv2": ((32, 6, 14, 14), 16, 5, 1, 0),
}
PARTS = ("fwd", "dx", "dw")


def _arrays(shape_name: str):
    xs, o, k, stride, pad = SHAPES[shape_name]
    r = np.random.default_rng(0)
    out = [(n + 2 * pad - k) // stride + 1 for n in xs[2:]]
    x = r.standard_normal(xs).astype(np.float32)
    w = r.standard_normal((o, xs[1], k, k)).astype(np.float32)
    dy = r.standard_normal((xs[0], o, *out)).astype(np.float32)
    return x, w, dy, stride, pad


def _median_times(fn, steps: int) -> tuple[float, float]:
    fn()
    wall, cpu = [], []
    for _ in range(steps):
        t, c = time.perf_counter(), time.process_time()
        fn()
        wall.append(time.perf_counter() - t)
        cpu.append(time.process_time() - c)
    return float(np.median(wall)) * 1e3, float(np.median(cpu)) * 1e3


def _graphkiln_calls(x, w, dy, stride, pad):
    from graphkiln.ops.defs import conv as C  # the checkout on PYTHONPATH (or --baseline)

    geo = C.ConvGeometry("Conv2D", 2, x.shape[2:], w.shape[2:], "pad", pad, stride, 1, 1)
    return {"fwd": lambda: C.conv_forward(x, w, geo),
            "dx": lambda: C.conv_input_grad(dy, w, x.shape, geo),
            "dw": lambda: C.conv_filter_grad(dy, x, w.shape, geo)}


def _torch_calls(x, w, dy, stride, pad):
    import torch
    from torch.nn.grad import conv2d_input, conv2d_weight

    torch.set_num_threads(int(os.environ.get("OMP_NUM_THREADS", "1")))
    tx, tw, tdy = (torch.from_numpy(a) for a in (x, w, dy))
    return {"fwd": lambda: torch.nn.functional.conv2d(tx, tw, stride=stride, padding=pad),
            "dx": lambda: conv2d_input(tx.shape, tw, tdy, stride=stride, padding=pad),
            "dw": lambda: conv2d_weight(tx, tw.shape, tdy, stride=stride, padding=pad)}


def _blas_calls(x, w, dy, stride, pad):
    """The GEMMs of the im2col formulation on ready operands: per example
    (O, C*K) @ (C*K, L) forward, its transpose for the input gradient, (O, L) @ (L, C*K)
    summed over examples for the filter gradient."""
    n, o = dy.shape[:2]
    ck, length = x.shape[1] * math.prod(w.shape[2:]), math.prod(dy.shape[2:])
    r = np.random.default_rng(1)
    cols = r.standard_normal((n, ck, length)).astype(np.float32)
    w2, dy2 = w.reshape(o, ck), dy.reshape(n, o, length)
    return {"fwd": lambda: np.matmul(w2, cols),
            "dx": lambda: np.matmul(w2.T, dy2),
            "dw": lambda: np.matmul(dy2, cols.transpose(0, 2, 1))}


def worker(backend: str, shape_name: str, steps: int) -> dict:
    calls = {"graphkiln": _graphkiln_calls, "torch": _torch_calls,
             "blas": _blas_calls}[backend](*_arrays(shape_name))
    res = {}
    for part in PARTS:
        res[part], res[part + "_cpu"] = _median_times(calls[part], steps)
    return res


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--worker", nargs=3, metavar=("BACKEND", "SHAPE", "STEPS"))
    ap.add_argument("--torch-python")
    ap.add_argument("--baseline", help="another graphkiln checkout, run as 'baseline'")
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--steps", type=int, default=15)
    ap.add_argument("--repeat", type=int, default=1)
    ap.add_argument("--shapes", default=",".join(SHAPES))
    args = ap.parse_args()
    if args.worker:
        import json
        backend, shape_name, steps = args.worker
        print(json.dumps(worker(backend, shape_name, int(steps))))
        return
    env = {k: str(args.threads) for k in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS",
                                          "MKL_NUM_THREADS")}
    runs = [("graphkiln", "graphkiln", sys.executable, env), ("blas", "blas", sys.executable, env)]
    if args.baseline:
        runs.insert(0, ("baseline", "graphkiln", sys.executable,
                        dict(env, PYTHONPATH=os.path.abspath(args.baseline))))
    if args.torch_python:
        runs.append(("torch", "torch", args.torch_python, env))
    results: dict = {}
    for shape_name in args.shapes.split(","):
        samples: dict = {}
        for _ in range(args.repeat):
            for name, backend, python, run_env in runs:
                samples.setdefault(name, []).append(run_worker(
                    os.path.abspath(__file__), python, [backend, shape_name, str(args.steps)],
                    run_env))
        for name, got in samples.items():
            results.setdefault(shape_name, {})[name] = {
                key: float(np.median([g[key] for g in got])) for key in got[0]}
    names = [name for name, *_ in runs]
    rows = []
    for shape_name, by in results.items():
        for part in PARTS:
            gk, th = by["graphkiln"][part + "_cpu"], by.get("torch", {}).get(part + "_cpu")
            rows.append([shape_name, part] + [by[n][part + "_cpu"] for n in names] +
                        [th and gk / th])
        totals = {n: sum(by[n][p + "_cpu"] for p in PARTS) for n in names}
        rows.append([shape_name, "total"] + [totals[n] for n in names] +
                    [totals.get("torch") and totals["graphkiln"] / totals["torch"]])
    print(f"CPU ms per call (median of {args.steps}, {args.threads} thread(s), "
          f"load {os.getloadavg()[0]:.1f})")
    print(table(rows, ["shape", "part"] + [f"{n} ms" for n in names] + ["gk / torch"]))
    path = write_json("conv", {"threads": args.threads, "steps": args.steps,
                               "repeat": args.repeat, "shapes": {k: list(map(str, v)) for k, v
                                                                 in SHAPES.items()},
                               "results": results})
    print(f"wrote {path}")


if __name__ == "__main__":
    main()
