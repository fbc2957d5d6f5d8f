"""Per-call cost of a PyNative gradient of a small MLP (``value_and_grad`` of the loss
with respect to the weights; batch 16, 32 -> 64 -> 10, softmax cross-entropy). Run it on
two checkouts to compare (e.g. the traced PyNative gradient before eager autodiff):

    PYTHONPATH=<repo> python bench/eager_grad.py [--calls 2000]

Prints the best of 7 rounds of CPU time per call, and the first call's time.
"""
from __future__ import annotations

import argparse
import time

import numpy as np

import graphkiln as ms
from graphkiln import nn


class _MLP(nn.Cell):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Dense(32, 64)
        self.relu = nn.ReLU()
        self.fc2 = nn.Dense(64, 10)

    def construct(self, x):
        return self.fc2(self.relu(self.fc1(x)))


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--calls", type=int, default=2000)
    args = ap.parse_args()
    ms.set_context(mode=ms.PYNATIVE_MODE)
    ms.set_seed(0)
    net = _MLP()
    loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    rng = np.random.default_rng(0)
    x = ms.Tensor(rng.normal(size=(16, 32)).astype(np.float32))
    y = ms.Tensor(rng.integers(0, 10, 16).astype(np.int32))
    step = ms.value_and_grad(lambda a, b: loss(net(a), b), None, net.trainable_params())
    t = time.process_time()
    step(x, y)
    first = time.process_time() - t
    best = float("inf")
    for _ in range(7):
        t = time.process_time()
        for _ in range(args.calls):
            step(x, y)
        best = min(best, (time.process_time() - t) / args.calls)
    print(f"{ms.__file__}: first call {first * 1e3:.1f} ms, then {best * 1e6:.1f} us per call")


if __name__ == "__main__":
    main()
