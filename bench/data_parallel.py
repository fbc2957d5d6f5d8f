"""Data-parallel training: launcher start-up, step time with 1 and 2 workers, gradient
bucketing, and all-reduce time against message size; graphkiln beside real MindSpore.

1. start-up: from starting the launcher to the end of the first training step of a
   20-step MLP script, and the whole run (``graphkiln msrun`` and MindSpore's ``msrun``).
2. step time of a compute-dominated MLP (global batch 512, 3 x 2048 hidden) with 1 worker
   and 2 workers (each half the batch). Each worker gets ``--threads`` BLAS threads (1 by
   default, so 2 workers use the 2 cores one worker would use with 2 threads; the
   1-worker, 2-thread row shows that alternative).
3. gradient reduction of 64 small gradients (16 KiB each), compiled: bucketed (one fused
   AllReduce) against one AllReduce per gradient (``fusion_type=0``).
4. AllReduce time for 4 KiB .. 64 MiB of float32 on 2 workers: graphkiln's ``ops.AllReduce``
   (PyNative; including the shape/dtype agreement check) next to raw mpi4py
   ``Allreduce`` on the same communicator, and MindSpore's ``ops.AllReduce``.

5. ``--torch``: the engine choice. torch.distributed with gloo (``--torch-python``) against
   graphkiln's MPI engine in the same run: all-reduce of the sizes above, and one
   data-parallel step of the MLP of 2. on 2 workers (torch's ``DistributedDataParallel``
   against graphkiln's ``TrainOneStepCell`` in DATA_PARALLEL mode). Written to
   ``results/data_parallel_torch.json``.

    python bench/data_parallel.py [--mindspore-msrun /work/msvenv/bin/msrun] [--torch]
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time

import numpy as np
from _harness import HERE, table, write_json

ROOT = os.path.dirname(HERE)
SIZES_KIB = [4, 64, 1024, 16384, 65536]
# MindSpore's CPU AllReduce (a TCP ring) failed on 64 MiB here ("RingAllReduce wait sending
# failed"), so its column stops at 16 MiB
MINDSPORE_MAX_KIB = 16384
BIG = (512, 1024, 2048, 10)  # global batch, input, hidden, classes


# ------------------------------------------------------------------ worker side

def _worker(kind: str, out: str, threads: int, max_kib: int) -> None:
    """Runs inside each launched process, with ``mindspore`` (graphkiln or the real one)."""
    # only the launched workers import MindSpore's API (graphkiln under graphkiln msrun)
    import mindspore as ms
    from mindspore import Tensor, nn, ops
    from mindspore.communication import get_group_size, get_rank, init

    init()
    rank, size = get_rank(), get_group_size()
    result: dict = {"workers": size}
    if kind in ("startup", "step"):
        ms.set_context(mode=ms.GRAPH_MODE)
        ms.set_auto_parallel_context(parallel_mode=ms.ParallelMode.DATA_PARALLEL,
                                     gradients_mean=True)
        batch, n_in, hidden, n_out = (64, 32, 64, 4) if kind == "startup" else BIG
        layers = [nn.Dense(n_in, hidden), nn.ReLU(), nn.Dense(hidden, hidden), nn.ReLU(),
                  nn.Dense(hidden, hidden), nn.ReLU(), nn.Dense(hidden, n_out)]
        net = nn.SequentialCell(layers)
        step = nn.TrainOneStepCell(nn.WithLossCell(net, nn.MSELoss()),
                                   nn.SGD(net.trainable_params(), learning_rate=0.01))
        rng = np.random.default_rng(rank)
        x = Tensor(rng.standard_normal((batch // size, n_in)).astype(np.float32))
        y = Tensor(rng.standard_normal((batch // size, n_out)).astype(np.float32))
        steps = 20 if kind == "startup" else 12
        times = []
        for i in range(steps):
            t = time.perf_counter()
            step(x, y).asnumpy()
            times.append(time.perf_counter() - t)
            if i == 0:
                result["first_step_end"] = time.time()
        result["step_ms"] = 1000 * float(np.median(times[2:]))
    elif kind == "buckets":
        ms.set_context(mode=ms.GRAPH_MODE)  # compiled, as inside a training step
        params = [ms.Parameter(Tensor(np.zeros(4096, np.float32)), name=f"p{i}")
                  for i in range(64)]
        grads = tuple(Tensor(np.ones(4096, np.float32)) for _ in params)
        for label, fusion in (("fused_ms", 1), ("per_param_ms", 0)):
            reducer = nn.DistributedGradReducer(params, mean=True, fusion_type=fusion)
            result[label] = _time_ms(lambda r=reducer: [g.asnumpy() for g in r(grads)], 30)
    elif kind == "allreduce":
        allreduce = ops.AllReduce()
        comm = _raw_comm()
        for kib in SIZES_KIB:
            if kib > max_kib:
                break
            data = np.ones(kib * 256, np.float32)
            x = Tensor(data)
            result[f"ops_{kib}"] = _time_ms(lambda x=x: allreduce(x).asnumpy(), _reps(kib))
            if comm is not None:
                buf = np.empty_like(data)
                result[f"raw_{kib}"] = _time_ms(lambda d=data, b=buf: comm.Allreduce(d, b),
                                                _reps(kib))
    if rank == 0:
        with open(out, "w") as f:
            json.dump(result, f)


def _raw_comm():
    """The MPI communicator graphkiln's collectives use (None under real MindSpore)."""
    try:  # present under graphkiln msrun only
        from graphkiln.common import comm_engine
    except ImportError:
        return None
    return comm_engine.world().comm


def _time_ms(fn, reps: int) -> float:
    """Median milliseconds of ``reps`` calls of ``fn``. The count is fixed, never taken
    from a time budget: every rank must run the same collectives."""
    fn()
    fn()
    times = []
    for _ in range(reps):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return 1000 * float(np.median(times))


def _reps(kib: int) -> int:
    return max(5, min(100, 20000 // kib))


def _torch_worker(rank: int, size: int, port: int, out: str) -> None:
    """Runs inside each torch process: gloo all-reduce times and DDP step time."""
    # torch is only in the comparison's own environment (--torch-python)
    import torch
    import torch.distributed as dist

    torch.set_num_threads(1)
    dist.init_process_group("gloo", init_method=f"tcp://127.0.0.1:{port}", rank=rank,
                            world_size=size)
    result: dict = {"workers": size}
    for kib in SIZES_KIB:
        t = torch.ones(kib * 256)
        result[f"allreduce_{kib}"] = _time_ms(lambda t=t: dist.all_reduce(t), _reps(kib))
    batch, n_in, hidden, n_out = BIG
    torch.manual_seed(0)
    net = torch.nn.Sequential(torch.nn.Linear(n_in, hidden), torch.nn.ReLU(),
                              torch.nn.Linear(hidden, hidden), torch.nn.ReLU(),
                              torch.nn.Linear(hidden, hidden), torch.nn.ReLU(),
                              torch.nn.Linear(hidden, n_out))
    model = torch.nn.parallel.DistributedDataParallel(net)
    opt = torch.optim.SGD(model.parameters(), lr=0.01)
    x, y = torch.randn(batch // size, n_in), torch.randn(batch // size, n_out)

    def step():
        opt.zero_grad()
        torch.nn.functional.mse_loss(model(x), y).backward()
        opt.step()

    result["step_ms"] = _time_ms(step, 10)
    dist.destroy_process_group()
    if rank == 0:
        with open(out, "w") as f:
            json.dump(result, f)


# ------------------------------------------------------------------ driver side

def _launch_torch(python: str, workers: int, port: int) -> dict:
    env = dict(os.environ, OMP_NUM_THREADS="1", OPENBLAS_NUM_THREADS="1", MKL_NUM_THREADS="1")
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "result.json")
        procs = [subprocess.Popen([python, os.path.abspath(__file__), "--torch-worker",
                                   str(r), str(workers), str(port), out], env=env,
                                  stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
                 for r in range(workers)]
        errors = []
        for p in procs:
            _, err = p.communicate(timeout=900)
            if p.returncode:
                errors.append(err[-3000:])
        if errors:
            raise RuntimeError("torch.distributed run failed:\n" + "\n".join(errors))
        with open(out) as f:
            return json.load(f)


def _compare_torch(python: str, port) -> None:
    """Section 5: torch.distributed (gloo) against graphkiln's MPI engine, one run."""
    ours_ar = _launch("graphkiln", "", 2, "allreduce", 1, next(port))
    ours_step = _launch("graphkiln", "", 2, "step", 1, next(port))
    torch_r = _launch_torch(python, 2, next(port))
    rows = [[f"all-reduce {kib} KiB", ours_ar[f"ops_{kib}"], ours_ar[f"raw_{kib}"],
             torch_r[f"allreduce_{kib}"], torch_r[f"allreduce_{kib}"] / ours_ar[f"ops_{kib}"]]
            for kib in SIZES_KIB]
    rows.append([f"data-parallel MLP step (batch {BIG[0]})", ours_step["step_ms"], None,
                 torch_r["step_ms"], torch_r["step_ms"] / ours_step["step_ms"]])
    print("5. engine choice on 2 workers: graphkiln (MPI) against torch.distributed (gloo), "
          "ms, median")
    print(table(rows, ["", "graphkiln ops", "raw mpi4py", "torch gloo", "torch / graphkiln"]))
    path = write_json("data_parallel_torch", {
        "load_average": os.getloadavg(), "cpus": os.cpu_count(),
        "graphkiln_allreduce": ours_ar, "graphkiln_step": ours_step, "torch": torch_r})
    print(f"wrote {path}")


def _launch(backend: str, msrun: str, workers: int, kind: str, threads: int,
            port: int, max_kib: int = SIZES_KIB[-1]) -> dict:
    env = dict(os.environ, PYTHONPATH=ROOT, OMP_NUM_THREADS=str(threads),
               OPENBLAS_NUM_THREADS=str(threads), MKL_NUM_THREADS=str(threads))
    env.pop("GRAPHKILN_VERIFY", None)
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "result.json")
        flags = [f"--worker_num={workers}", f"--local_worker_num={workers}",
                 f"--master_port={port}", f"--log_dir={tmp}/logs"]
        if backend == "graphkiln":
            cmd = [sys.executable, "-m", "graphkiln", "msrun", *flags]
        else:
            cmd = [msrun, *flags, "--join=True"]
            env["PATH"] = os.path.dirname(msrun) + os.pathsep + env["PATH"]
        cmd += [os.path.abspath(__file__), "--bench-worker", kind, out, str(threads),
                str(max_kib)]
        start = time.time()
        proc = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=900)
        total = time.time() - start
        if proc.returncode != 0 or not os.path.exists(out):
            logs = ""
            log_dir = os.path.join(tmp, "logs")
            for name in sorted(os.listdir(log_dir) if os.path.isdir(log_dir) else []):
                with open(os.path.join(tmp, "logs", name), errors="replace") as f:
                    logs += f"--- {name}\n{f.read()[-3000:]}\n"
            raise RuntimeError(f"{backend} {kind} x{workers} failed:\n{proc.stderr[-3000:]}"
                               f"\n{logs}")
        with open(out) as f:
            result = json.load(f)
    result["total_s"] = total
    if "first_step_end" in result:
        result["first_step_s"] = result.pop("first_step_end") - start
    return result


def main() -> None:
    if len(sys.argv) > 1 and sys.argv[1] == "--bench-worker":
        _worker(sys.argv[2], sys.argv[3], int(sys.argv[4]), int(sys.argv[5]))
        return
    if len(sys.argv) > 1 and sys.argv[1] == "--torch-worker":
        _torch_worker(int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]), sys.argv[5])
        return
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mindspore-msrun", default="/work/msvenv/bin/msrun",
                        help="MindSpore's msrun (skipped when missing)")
    parser.add_argument("--torch", action="store_true",
                        help="only section 5: torch.distributed (gloo) against graphkiln")
    parser.add_argument("--torch-python", default="/work/torchvenv/bin/python",
                        help="a Python with torch, for --torch")
    args = parser.parse_args()
    if args.torch:
        _compare_torch(args.torch_python, iter(range(8300, 8400)))
        return
    backends = ["graphkiln"] + (["mindspore"] if os.access(args.mindspore_msrun, os.X_OK)
                                else [])
    port = iter(range(8200, 8300))
    results: dict = {"load_average_at_start": os.getloadavg(), "cpus": os.cpu_count(),
                     "startup": {}, "step": {}, "buckets": {}, "allreduce": {}}

    rows = []
    for backend in backends:
        for workers in (1, 2):
            r = _launch(backend, args.mindspore_msrun, workers, "startup", 1, next(port))
            results["startup"][f"{backend}_x{workers}"] = r
            rows.append([backend, workers, r["first_step_s"], r["total_s"]])
    print("1. launcher start-up, 20-step MLP script (seconds)")
    print(table(rows, ["backend", "workers", "to first step", "whole run"]))

    rows = []
    for backend in backends:
        base = None
        for workers, threads in ((1, 1), (1, 2), (2, 1)):
            r = _launch(backend, args.mindspore_msrun, workers, "step", threads, next(port))
            results["step"][f"{backend}_x{workers}_t{threads}"] = r
            base = base or r["step_ms"]
            rows.append([backend, workers, threads, r["step_ms"], base / r["step_ms"]])
    print(f"\n2. step time, MLP batch {BIG[0]}, hidden {BIG[2]} (ms per step, median)")
    print(table(rows, ["backend", "workers", "threads each", "step ms", "speed-up"]))

    r = _launch("graphkiln", args.mindspore_msrun, 2, "buckets", 1, next(port))
    results["buckets"] = r
    print("\n3. reducing 64 gradients of 16 KiB on 2 workers (ms per reduction)")
    print(table([["bucketed (1 message)", r["fused_ms"]],
                 ["one AllReduce per gradient", r["per_param_ms"]]], ["graphkiln", "ms"]))

    per_backend = {"graphkiln": _launch("graphkiln", "", 2, "allreduce", 1, next(port))}
    if "mindspore" in backends:
        try:
            per_backend["mindspore"] = _launch("mindspore", args.mindspore_msrun, 2,
                                               "allreduce", 1, next(port),
                                               MINDSPORE_MAX_KIB)
        except RuntimeError as e:  # recorded, not fatal: the other figures still count
            per_backend["mindspore"] = {"error": str(e).splitlines()[0]}
    results["allreduce"] = per_backend
    rows = []
    for kib in SIZES_KIB:
        g = per_backend["graphkiln"]
        ms_ = per_backend.get("mindspore", {})
        rows.append([f"{kib} KiB", g[f"ops_{kib}"], g[f"raw_{kib}"], ms_.get(f"ops_{kib}"),
                     kib / 1024 / (g[f"ops_{kib}"] / 1000)])
    print("\n4. AllReduce of float32 on 2 workers (ms, median)")
    print(table(rows, ["size", "graphkiln ops.AllReduce", "raw mpi4py", "MindSpore",
                       "graphkiln MiB/s"]))
    results["load_average_at_end"] = os.getloadavg()
    print(f"\nload average (1 min) at start {results['load_average_at_start'][0]:.1f}, at end "
          f"{results['load_average_at_end'][0]:.1f}, on {os.cpu_count()} CPUs")
    print(f"wrote {write_json('data_parallel', results)}")


if __name__ == "__main__":
    main()
