"""Training-step speed: graphkiln beside real MindSpore 2.10 (``nn.TrainOneStepCell``) and
PyTorch CPU eager, each row in a fresh process.

Rows: MLP 784-256-10 (batch 64, sparse softmax cross entropy, Momentum); LeNet-5 (batch 32,
1x32x32); a ResNet basic block (3x3 convs, BatchNorm, 64 channels, 16x64x32x32) with global
pooling and Dense; a GPT block (d 128, 4 heads, seq 64, batch 8, MLP 512, GELU, vocab 1000,
Adam). For each: the model's construction (its weights drawn as the framework draws them),
the first call of the train step after it (compile + one step, fresh process, import
excluded: the issue's and the guide's "first call") and the steady step (median of
``--steps`` after warm-up). The table gives MindSpore's first call against graphkiln's, and
the same with each construction added (``build+first x``).

    python bench/train_step.py [--mindspore-python /work/msvenv/bin/python]
                               [--torch-python /work/torchvenv/bin/python] [--threads 1]
                               [--baseline ../main-before-checkout] [--repeat 3]
                               [--openblas-coretype SkylakeX]

MindSpore and PyTorch run from those venvs when they exist (``--mindspore-python ''`` or
``--torch-python ''`` skips one). The table shows each row's steady step against PyTorch
eager's (``x torch``, below 1 is faster) and MindSpore's first call against graphkiln's.
With ``--repeat N`` each backend runs N fresh processes per row, interleaved with the
others, and the run with the median steady step is kept, with the median first call,
construction and compile of the N runs (a shared machine is noisy).

Each run records the OpenBLAS kernels NumPy used (``blas_core``); ``--openblas-coretype``
sets ``OPENBLAS_CORETYPE`` for every worker and writes ``train_step_<core>.json`` (this
machine's environment pins ``OPENBLAS_CORETYPE=Haswell``, the AVX2 kernels, on an AVX-512
CPU; docs/performance.md).

``--baseline`` also runs graphkiln from another checkout (before / after a change); for
graphkiln the table adds what one steady step allocates at its peak (tracemalloc) and how
many array buffers NumPy allocates in one steady step (a counting NumPy memory handler,
``_numpy_allocs.py``), and every backend its peak RSS.
"""
from __future__ import annotations

import argparse
import importlib.util
import json
import os
import resource
import sys
import time
import tracemalloc

import numpy as np
from _blas_core import blas_core
from _harness import run_worker, table, write_json
from _numpy_allocs import count_numpy_allocations

HERE = os.path.dirname(os.path.abspath(__file__))
MODELS = os.path.join(os.path.dirname(HERE), "graphkiln", "examples", "models.py")
ROWS = ["mlp", "lenet", "resnet_block", "gpt_block"]
WARMUP = 3
# MindSpore's CPU convolutions take seconds per ResNet step: fewer steps keep the run
# inside the worker time limit (the JSON records the count used)
SLOW_STEPS = {("mindspore", "resnet_block"): 3}
DEFAULT_PYTHONS = {"mindspore": "/work/msvenv/bin/python", "torch": "/work/torchvenv/bin/python"}


def _default_python(backend: str) -> str | None:
    path = DEFAULT_PYTHONS[backend]
    return path if os.path.exists(path) else None


def _data(row: str):
    r = np.random.default_rng(0)
    if row == "mlp":
        return r.standard_normal((64, 784)).astype(np.float32), \
            r.integers(0, 10, 64).astype(np.int32)
    if row == "lenet":
        return r.standard_normal((32, 1, 32, 32)).astype(np.float32), \
            r.integers(0, 10, 32).astype(np.int32)
    if row == "resnet_block":
        return r.standard_normal((16, 64, 32, 32)).astype(np.float32), \
            r.integers(0, 10, 16).astype(np.int32)
    return r.integers(0, 1000, (8, 64)).astype(np.int32), \
        r.integers(0, 1000, 8 * 64).astype(np.int32)


def _models():
    spec = importlib.util.spec_from_file_location("graphkiln_bench_models", MODELS)
    mod = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = mod  # MindSpore's graph parser imports the model's module
    spec.loader.exec_module(mod)
    return mod


def _ms_step(ms, row: str):
    """TrainOneStepCell(WithLossCell(net, sparse CE), optimizer) on ms (graphkiln or
    MindSpore), in graph mode."""
    ms.set_context(mode=ms.GRAPH_MODE)
    models = _models()
    net = {"mlp": models.mlp, "lenet": models.lenet5, "resnet_block": models.resnet_block,
           "gpt_block": models.gpt_block}[row](ms)
    loss = ms.nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    if row == "gpt_block":
        opt = ms.nn.Adam(net.trainable_params(), 1e-3)
    else:
        opt = ms.nn.Momentum(net.trainable_params(), 0.01, 0.9)
    step = ms.nn.TrainOneStepCell(ms.nn.WithLossCell(net, loss), opt)
    step.set_train()
    x, y = (ms.Tensor(a) for a in _data(row))

    def run() -> float:
        return float(step(x, y).asnumpy())
    run.cell = step
    return run


def _torch_step(row: str):
    import torch
    from torch import nn

    torch.manual_seed(0)
    if row == "mlp":
        net = nn.Sequential(nn.Linear(784, 256), nn.ReLU(), nn.Linear(256, 10))
    elif row == "lenet":
        net = nn.Sequential(nn.Conv2d(1, 6, 5), nn.ReLU(), nn.MaxPool2d(2, 2),
                            nn.Conv2d(6, 16, 5), nn.ReLU(), nn.MaxPool2d(2, 2), nn.Flatten(),
                            nn.Linear(400, 120), nn.ReLU(), nn.Linear(120, 84), nn.ReLU(),
                            nn.Linear(84, 10))
    elif row == "resnet_block":
        class Block(nn.Module):
            def __init__(self):
                super().__init__()
                self.c1 = nn.Conv2d(64, 64, 3, padding=1, bias=False)
                self.b1 = nn.BatchNorm2d(64)
                self.c2 = nn.Conv2d(64, 64, 3, padding=1, bias=False)
                self.b2 = nn.BatchNorm2d(64)
                self.fc = nn.Linear(64, 10)

            def forward(self, x):
                out = torch.relu(self.b1(self.c1(x)))
                out = torch.relu(self.b2(self.c2(out)) + x)
                return self.fc(out.mean((2, 3)))
        net = Block()
    else:
        class GPT(nn.Module):
            def __init__(self, vocab=1000, d=128, heads=4, seq=64, hidden=512):
                super().__init__()
                self.tok, self.pos = nn.Embedding(vocab, d), nn.Embedding(seq, d)
                self.ln1, self.ln2, self.lnf = nn.LayerNorm(d), nn.LayerNorm(d), nn.LayerNorm(d)
                self.qkv, self.proj = nn.Linear(d, 3 * d), nn.Linear(d, d)
                self.fc1, self.fc2 = nn.Linear(d, hidden), nn.Linear(hidden, d)
                self.head = nn.Linear(d, vocab)
                self.heads, self.seq, self.d = heads, seq, d
                self.register_buffer("mask", torch.triu(torch.full((seq, seq), -1e9), 1))

            def forward(self, ids):
                b, s, d, h = ids.shape[0], self.seq, self.d, self.heads
                x = self.tok(ids) + self.pos(torch.arange(s))
                qkv = self.qkv(self.ln1(x)).reshape(b, s, 3, h, d // h).permute(2, 0, 3, 1, 4)
                att = qkv[0] @ qkv[1].transpose(-1, -2) / (d // h) ** 0.5 + self.mask
                y = (att.softmax(-1) @ qkv[2]).transpose(1, 2).reshape(b, s, d)
                x = x + self.proj(y)
                x = x + self.fc2(nn.functional.gelu(self.fc1(self.ln2(x)), approximate="tanh"))
                return self.head(self.lnf(x)).reshape(b * s, -1)
        net = GPT()
    opt = torch.optim.Adam(net.parameters(), 1e-3) if row == "gpt_block" else \
        torch.optim.SGD(net.parameters(), 0.01, momentum=0.9)
    loss_fn = nn.CrossEntropyLoss()
    xa, ya = _data(row)
    x = torch.from_numpy(xa).long() if row == "gpt_block" else torch.from_numpy(xa)
    y = torch.from_numpy(ya).long()

    def step():
        opt.zero_grad()
        loss = loss_fn(net(x), y)
        loss.backward()
        opt.step()
        return float(loss)
    return step


def worker(backend: str, row: str, steps: int) -> None:
    warmup = 1 if steps < 5 else WARMUP
    if backend == "torch":
        import torch
        torch.set_num_threads(int(os.environ.get("OMP_NUM_THREADS", "1")))
        make = lambda: _torch_step(row)  # noqa: E731
    elif backend == "mindspore":
        import mindspore as ms
        make = lambda: _ms_step(ms, row)  # noqa: E731
    else:
        import graphkiln as ms
        make = lambda: _ms_step(ms, row)  # noqa: E731
    t0 = time.perf_counter()
    step = make()
    t1 = time.perf_counter()
    first_loss = step()
    first = time.perf_counter() - t1
    # graphkiln's first call: its compile (trace, passes, code generation), then the run
    compile_s = ms.compile_info(step.cell).total_seconds if backend == "graphkiln" else None
    for _ in range(warmup):
        step()
    times, cpu, losses = [], [], []
    for _ in range(steps):
        t, c = time.perf_counter(), time.process_time()
        losses.append(step())
        times.append(time.perf_counter() - t)
        cpu.append(time.process_time() - c)
    # on a loaded machine the process's CPU time per step is the steadier number
    print(json.dumps({"build_s": t1 - t0, "first_s": first, "compile_s": compile_s,
                      "steady_ms": float(np.median(times)) * 1e3,
                      "steady_cpu_ms": float(np.median(cpu)) * 1e3,
                      "first_loss": first_loss, "last_loss": losses[-1],
                      "step_peak_kb": _step_peak_kb(step) if backend == "graphkiln" else None,
                      "step_allocations": _step_allocations(step)
                      if backend == "graphkiln" else None,
                      "peak_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
                      "blas_core": blas_core()}))


def _step_peak_kb(step) -> float:
    """What one steady step allocates at its peak (tracemalloc sees NumPy's buffers)."""
    tracemalloc.start()
    step()
    before = tracemalloc.get_traced_memory()[0]
    tracemalloc.reset_peak()
    step()
    peak = tracemalloc.get_traced_memory()[1] - before
    tracemalloc.stop()
    return peak / 1024


def _step_allocations(step) -> int:
    """How many array buffers NumPy allocates in one steady step."""
    with count_numpy_allocations() as counts:
        step()
    return counts.allocations


def _median_run(runs: list[dict]) -> dict:
    """The run with the median steady step, with every run's steady step beside it; its
    first call, construction and compile are the medians over the runs (each run measures
    them once, so one stalled process would otherwise decide the row)."""
    chosen = sorted(runs, key=lambda r: r["steady_ms"])[len(runs) // 2]
    medians = {key: float(np.median([r[key] for r in runs])) if chosen.get(key) is not None
               else None for key in ("first_s", "build_s", "compile_s")}
    return dict(chosen, **medians, steady_ms_runs=[r["steady_ms"] for r in runs],
                first_s_runs=[r["first_s"] for r in runs])


def _built_first(run: dict) -> float:
    """Construction and first call, in seconds."""
    return run["build_s"] + run["first_s"]


def _ratio(by: dict, top: str, bottom: str, key: str) -> float | None:
    """``by[top][key] / by[bottom][key]``, or None when a backend did not run."""
    if top not in by or bottom not in by:
        return None
    return by[top][key] / by[bottom][key]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--worker", nargs=3, metavar=("BACKEND", "ROW", "STEPS"))
    ap.add_argument("--mindspore-python", default=_default_python("mindspore"))
    ap.add_argument("--torch-python", default=_default_python("torch"))
    ap.add_argument("--steps", type=int, default=30)
    ap.add_argument("--threads", type=int, default=1,
                    help="BLAS/OpenMP threads for every backend (the same for all)")
    ap.add_argument("--rows", default=",".join(ROWS))
    ap.add_argument("--repeat", type=int, default=1,
                    help="fresh processes per backend and row, interleaved; the median is kept")
    ap.add_argument("--baseline", help="another graphkiln checkout, run as 'baseline'")
    ap.add_argument("--openblas-coretype", default="",
                    help="OPENBLAS_CORETYPE for every worker (e.g. SkylakeX: the AVX-512 "
                         "kernels, which this machine's environment replaces by Haswell)")
    args = ap.parse_args()
    if args.worker:
        backend, row, steps = args.worker
        return worker(backend, row, int(steps))
    env = {k: str(args.threads) for k in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS",
                                          "MKL_NUM_THREADS")}
    if args.openblas_coretype:
        env["OPENBLAS_CORETYPE"] = args.openblas_coretype
    pythons = {"graphkiln": sys.executable, "mindspore": args.mindspore_python,
               "torch": args.torch_python, "baseline": args.baseline and sys.executable}
    results: dict = {}
    for row in args.rows.split(","):
        runs: dict = {}
        for _ in range(args.repeat):  # interleaved: every backend sees the same load
            for name, python in pythons.items():
                if python:
                    backend = "graphkiln" if name == "baseline" else name
                    steps = SLOW_STEPS.get((backend, row), args.steps)
                    run_env = dict(env, PYTHONPATH=args.baseline) if name == "baseline" \
                        else env
                    res = run_worker(os.path.abspath(__file__), python,
                                     [backend, row, str(steps)], run_env)
                    runs.setdefault(name, []).append(dict(res, steps=steps))
        results[row] = {name: _median_run(r) for name, r in runs.items()}
    rows = []
    for row, by in results.items():
        gk, msr, th = by.get("graphkiln"), by.get("mindspore"), by.get("torch")
        base = by.get("baseline")
        rows.append([row, gk["build_s"], gk["first_s"], gk["compile_s"], msr and msr["build_s"],
                     msr and msr["first_s"], msr and msr["first_s"] / gk["first_s"],
                     msr and _built_first(msr) / _built_first(gk), base and base["steady_ms"],
                     gk["steady_ms"], msr and msr["steady_ms"], th and th["steady_ms"],
                     msr and msr["steady_ms"] / gk["steady_ms"],
                     th and gk["steady_ms"] / th["steady_ms"],
                     th and gk["steady_cpu_ms"] / th["steady_cpu_ms"],
                     base and base["step_peak_kb"], gk["step_peak_kb"],
                     "/".join(str(r["step_allocations"]) if r else "-" for r in (base, gk)),
                     "/".join(f"{r['peak_rss_mb']:.0f}" if r else "-" for r in (gk, msr, th)),
                     "/".join(f"{r['steady_cpu_ms']:.1f}" if r else "-"
                              for r in (base, gk, msr, th))])
    print(table(rows, ["row", "gk build s", "gk first s", "gk compile s", "ms build s",
                       "ms first s", "first x",
                       "build+first x", "base steady ms",
                       "gk steady ms", "ms steady ms", "torch steady ms", "steady x vs ms",
                       "x torch", "x torch (CPU)",
                       "base step KB", "gk step KB", "allocs/step base/gk", "RSS MB gk/ms/torch",
                       "CPU ms base/gk/ms/torch"]))
    ratios = {row: {"graphkiln_steady_vs_torch": _ratio(by, "graphkiln", "torch", "steady_ms"),
                    "mindspore_first_vs_graphkiln": _ratio(by, "mindspore", "graphkiln",
                                                           "first_s"),
                    "mindspore_build_first_vs_graphkiln":
                        by.get("mindspore") and _built_first(by["mindspore"])
                        / _built_first(by["graphkiln"])}
              for row, by in results.items()}
    name = "train_step" + (f"_{args.openblas_coretype.lower()}" if args.openblas_coretype
                           else "")
    path = write_json(name, {"threads": args.threads, "steps": args.steps,
                       "repeat": args.repeat, "openblas_coretype": args.openblas_coretype or None,
                       "results": results, "ratios": ratios})
    print(f"wrote {path}")


if __name__ == "__main__":
    main()
