"""Runtime of a compiled training step: graphkiln (this checkout and, with ``--baseline``,
another one) beside real MindSpore 2.10 (``TrainOneStepCell``) and PyTorch eager, each row
in a fresh process: the steady step (median), the first call, the peak RSS, and for
graphkiln the bytes a steady step allocates at its peak (tracemalloc; NumPy reports its
array buffers to it).

Rows: ``mlp`` (784-256-10, batch 64, softmax cross entropy, SGD momentum 0.9, lr 0.01).

    python bench/runtime_step.py [--baseline ../main-checkout] [--steps 200]
        [--mindspore-python /work/msvenv/bin/python] [--torch-python /work/torchvenv/bin/python]
"""
from __future__ import annotations

import argparse
import json
import os
import resource
import sys
import time
import tracemalloc

import numpy as np
from _harness import run_worker, table, write_json

ROWS = ["mlp"]
WARMUP = 5


def _data():
    r = np.random.default_rng(0)
    return r.standard_normal((64, 784)).astype(np.float32), \
        r.integers(0, 10, 64).astype(np.int32)


def _ms_step(ms):
    """graphkiln or MindSpore: TrainOneStepCell(WithLossCell(mlp, loss), momentum)."""
    nn = ms.nn
    ms.set_context(mode=ms.GRAPH_MODE)
    net = nn.SequentialCell([nn.Dense(784, 256), nn.ReLU(), nn.Dense(256, 10)])
    if hasattr(nn, "SoftmaxCrossEntropyWithLogits"):
        loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    else:  # graphkiln before nn landed its MindSpore-named losses (same computation)
        loss = nn.CrossEntropyLoss()
    if hasattr(nn, "Momentum"):
        opt = nn.Momentum(net.trainable_params(), 0.01, 0.9)
    else:
        opt = nn.SGD(net.trainable_params(), 0.01, 0.9)
    step = nn.TrainOneStepCell(nn.WithLossCell(net, loss), opt)
    step.set_train()
    x, y = (ms.Tensor(a) for a in _data())
    return lambda: step(x, y).asnumpy()


def _torch_step():
    import torch  # the PyTorch worker only
    from torch import nn

    torch.set_num_threads(1)
    torch.manual_seed(0)
    net = nn.Sequential(nn.Linear(784, 256), nn.ReLU(), nn.Linear(256, 10))
    opt = torch.optim.SGD(net.parameters(), 0.01, momentum=0.9)
    loss_fn = nn.CrossEntropyLoss()
    xa, ya = _data()
    x, y = torch.from_numpy(xa), torch.from_numpy(ya).long()

    def step():
        opt.zero_grad()
        loss = loss_fn(net(x), y)
        loss.backward()
        opt.step()
        return loss.detach().numpy()
    return step


def worker(backend: str, row: str, steps: int) -> None:
    t0 = time.perf_counter()
    if backend == "torch":
        step = _torch_step()
    else:
        if backend == "mindspore":
            import mindspore as ms  # the MindSpore worker only
        else:
            import graphkiln as ms  # the graphkiln workers (this checkout or the baseline)
        t0 = time.perf_counter()
        step = _ms_step(ms)
    first_loss = float(step())
    first = time.perf_counter() - t0
    for _ in range(WARMUP):
        step()
    times = []
    for _ in range(steps):
        t = time.perf_counter()
        step()
        times.append(time.perf_counter() - t)
    alloc = None
    if backend == "graphkiln":
        tracemalloc.start()
        step()
        before = tracemalloc.get_traced_memory()[0]
        tracemalloc.reset_peak()
        step()
        alloc = tracemalloc.get_traced_memory()[1] - before
        tracemalloc.stop()
    print(json.dumps({"first_s": first, "steady_ms": float(np.median(times)) * 1e3,
                      "steps": steps, "first_loss": first_loss,
                      "last_loss": float(step()), "step_peak_bytes": alloc,
                      "peak_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}))


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--worker", nargs=3, metavar=("BACKEND", "ROW", "STEPS"))
    p.add_argument("--steps", type=int, default=200)
    p.add_argument("--baseline", default=None, help="another graphkiln checkout to compare")
    p.add_argument("--mindspore-python", default="/work/msvenv/bin/python")
    p.add_argument("--torch-python", default="/work/torchvenv/bin/python")
    a = p.parse_args()
    if a.worker:
        worker(a.worker[0], a.worker[1], int(a.worker[2]))
        return
    env1 = {"OMP_NUM_THREADS": "1", "OPENBLAS_NUM_THREADS": "1", "MKL_NUM_THREADS": "1"}
    runs = [("graphkiln", "graphkiln", sys.executable, env1)]
    if a.baseline:
        runs.append(("baseline", "graphkiln", sys.executable, {**env1, "PYTHONPATH": a.baseline}))
    for name, python in (("mindspore", a.mindspore_python), ("torch", a.torch_python)):
        if python and os.path.exists(python):
            runs.append((name, name, python, env1))
    results: dict = {}
    for row in ROWS:
        for name, backend, python, env in runs:
            results.setdefault(row, {})[name] = run_worker(
                __file__, python, [backend, row, str(a.steps)], env)
    header = ["row", "backend", "steady ms", "first s", "step peak KB", "peak RSS MB",
              "first loss"]
    rows = []
    for row, by in results.items():
        for name, r in by.items():
            kb = r["step_peak_bytes"] / 1024 if r["step_peak_bytes"] is not None else None
            rows.append([row, name, r["steady_ms"], r["first_s"], kb, r["peak_rss_mb"],
                         r["first_loss"]])
    print(table(rows, header))
    print("wrote", write_json("runtime_step", {"threads": 1, "steps": a.steps,
                                               "results": results}))


if __name__ == "__main__":
    main()
