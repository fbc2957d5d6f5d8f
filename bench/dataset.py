"""Input pipeline throughput (samples/s, epoch 1 and epoch 2), graphkiln beside MindSpore 2.10
and a PyTorch DataLoader (2 workers), each case the median of fresh processes.

Cases: a GeneratorDataset of 4096 uint8 32x32x3 images with labels, ``map`` with 2 workers,
``batch(32)``, with the map being
  vision    Rescale, Normalize, HWC2CHW (torch: the same math in torch ops)
  trivial   a Python callable returning its input
  numpy     the vision math written in NumPy in a Python callable
and ``mnist``: MnistDataset over 60,000 idx samples, ``batch(32)``.

    python bench/dataset.py [--mindspore-python ../msvenv/bin/python]
                            [--torch-python ../torchvenv/bin/python] [--repeats 3]
"""
from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time

import numpy as np
from _harness import run_worker, table, write_json

CASES = ["vision", "trivial", "numpy", "mnist"]
N_IMAGES, BATCH, WORKERS = 4096, 32, 2
MEAN = [0.4914 * 255, 0.4822 * 255, 0.4465 * 255]
STD = [0.247 * 255, 0.243 * 255, 0.261 * 255]
MNIST_DIR = os.path.join(tempfile.gettempdir(), "graphkiln_bench_mnist")


class Images:
    """Random-access source of uint8 HWC images and int32 labels."""

    def __init__(self):
        rng = np.random.default_rng(0)
        self.images = rng.integers(0, 256, (N_IMAGES, 32, 32, 3), dtype=np.uint8)
        self.labels = rng.integers(0, 10, N_IMAGES).astype(np.int32)

    def __getitem__(self, i):
        return self.images[i], self.labels[i]

    def __len__(self):
        return N_IMAGES


def numpy_math(img):
    x = img.astype(np.float32) * np.float32(1 / 255)
    x = (x * 255 - np.array(MEAN, np.float32)) / np.array(STD, np.float32)
    return np.ascontiguousarray(x.transpose(2, 0, 1))


def write_mnist(root: str, n: int = 60000) -> None:
    if os.path.exists(os.path.join(root, "train-labels-idx1-ubyte")):
        return
    os.makedirs(root, exist_ok=True)
    rng = np.random.default_rng(1)
    with open(os.path.join(root, "train-images-idx3-ubyte"), "wb") as f:
        f.write(np.array([2051, n, 28, 28], ">u4").tobytes())
        f.write(rng.integers(0, 256, (n, 28, 28), dtype=np.uint8).tobytes())
    with open(os.path.join(root, "train-labels-idx1-ubyte"), "wb") as f:
        f.write(np.array([2049, n], ">u4").tobytes())
        f.write(rng.integers(0, 10, n, dtype=np.uint8).tobytes())


def ms_pipeline(ds, case: str):
    if case == "mnist":
        return ds.MnistDataset(MNIST_DIR, usage="train", shuffle=False).batch(BATCH), 60000
    v = ds.vision
    ops = {"vision": [v.Rescale(1 / 255, 0), v.Normalize([m / 255 for m in MEAN],
                                                         [s / 255 for s in STD]), v.HWC2CHW()],
           "trivial": [lambda x: x], "numpy": [numpy_math]}[case]
    data = ds.GeneratorDataset(Images(), ["image", "label"], shuffle=False)
    data = data.map(ops, input_columns=["image"], num_parallel_workers=WORKERS)
    return data.batch(BATCH), N_IMAGES


def ms_worker(backend: str, case: str) -> dict:
    if backend == "mindspore":
        import mindspore.dataset as ds
    else:
        import graphkiln.dataset as ds
    pipeline, n = ms_pipeline(ds, case)
    it = pipeline.create_tuple_iterator(num_epochs=2)
    out = {}
    for epoch in (1, 2):
        t0 = time.perf_counter()
        count = sum(int(batch[0].shape[0]) for batch in it)
        out[f"epoch{epoch}"] = count / (time.perf_counter() - t0)
        assert count == n, (count, n)
    return out


def torch_worker(case: str) -> dict:
    import torch
    from torch.utils.data import DataLoader, Dataset

    mean = torch.tensor(MEAN).view(3, 1, 1) / 255
    std = torch.tensor(STD).view(3, 1, 1) / 255
    if case == "mnist":
        raw = np.fromfile(os.path.join(MNIST_DIR, "train-images-idx3-ubyte"), np.uint8)
        images = raw[16:].reshape(-1, 28, 28, 1)
        labels = np.fromfile(os.path.join(MNIST_DIR, "train-labels-idx1-ubyte"), np.uint8)[8:]
        source, fn = list(zip(images, labels.astype(np.uint32))), None
    else:
        src = Images()
        source = [src[i] for i in range(N_IMAGES)]
        fn = {"vision": lambda x: ((torch.from_numpy(x).permute(2, 0, 1).float() / 255) - mean)
              / std, "trivial": lambda x: x, "numpy": numpy_math}[case]

    class Mapped(Dataset):
        def __len__(self):
            return len(source)

        def __getitem__(self, i):
            img, label = source[i]
            return (fn(img) if fn else img), label

    loader = DataLoader(Mapped(), batch_size=BATCH, num_workers=0 if case == "mnist" else
                        WORKERS, persistent_workers=case != "mnist")
    out = {}
    for epoch in (1, 2):
        t0 = time.perf_counter()
        count = sum(int(b[0].shape[0]) for b in loader)
        out[f"epoch{epoch}"] = count / (time.perf_counter() - t0)
    return out


def worker(backend: str, case: str) -> None:
    import json
    result = torch_worker(case) if backend == "torch" else ms_worker(backend, case)
    print(json.dumps(result))


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--mindspore-python")
    ap.add_argument("--torch-python")
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--worker", nargs=2)
    args = ap.parse_args()
    if args.worker:
        worker(*args.worker)
        return
    write_mnist(MNIST_DIR)
    load_before = os.getloadavg()[0]
    pythons = {"graphkiln": sys.executable, "mindspore": args.mindspore_python,
               "torch": args.torch_python}
    pythons = {k: v for k, v in pythons.items() if v}
    results: dict = {}
    for case in CASES:
        for backend, python in pythons.items():
            runs = [run_worker(__file__, python, [backend, case]) for _ in range(args.repeats)]
            results.setdefault(case, {})[backend] = {
                k: statistics.median(r[k] for r in runs) for k in ("epoch1", "epoch2")}
    rows = []
    for case in CASES:
        row = [case]
        for backend in pythons:
            r = results[case][backend]
            row += [r["epoch1"], r["epoch2"]]
        rows.append(row)
    header = ["case"] + [f"{b} e{e}" for b in pythons for e in (1, 2)]
    print(f"samples/s, median of {args.repeats} fresh processes")
    print(table([[r[0], *[round(x) for x in r[1:]]] for r in rows], header))
    load = [round(load_before, 1), round(os.getloadavg()[0], 1)]
    print(f"machine load average (1 min) before/after: {load} on {os.cpu_count()} cores")
    path = write_json("dataset", {"unit": "samples/s", "repeats": args.repeats,
                                  "batch": BATCH, "workers": WORKERS, "cpus": os.cpu_count(),
                                  "load_average_before_after": load, "results": results})
    print(f"wrote {path}")


if __name__ == "__main__":
    main()
