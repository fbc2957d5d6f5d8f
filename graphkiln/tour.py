"""``python -m graphkiln tour``: run one small example of every technique that works
today and print a table of (technique, result, time).

Each entry is a ``(name, function)`` pair in :data:`ENTRIES`; the function takes no
arguments, checks its own result (raising ``AssertionError`` when it is wrong) and
returns a short text for the table. Add an entry with the :func:`entry` decorator::

    @entry("vmap: hswish over a batch")
    def _vmap_hswish() -> str:
        ...
        return "matches the loop"

The runner resets the global context after every entry, so entries may switch modes.
"""
from __future__ import annotations

import os
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

import graphkiln as ms
from graphkiln import dataset as ds
from graphkiln import nn
from graphkiln.train import (
    CheckpointConfig,
    History,
    LossMonitor,
    Model,
    ModelCheckpoint,
    load_checkpoint,
)

from . import context
from .examples import spec
from .examples.models import lenet5

ENTRIES: list[tuple[str, Callable[[], str]]] = []


def entry(name: str):
    """Register the decorated function as a tour entry called ``name``."""
    def register(fn: Callable[[], str]) -> Callable[[], str]:
        ENTRIES.append((name, fn))
        return fn
    return register


@dataclass
class Result:
    name: str
    ok: bool
    text: str
    ms: float


def run(entries: list[tuple[str, Callable[[], str]]] | None = None) -> list[Result]:
    """Run ``entries`` (default: all) in order; a failing entry is reported, not raised."""
    results = []
    for name, fn in (ENTRIES if entries is None else entries):
        start = time.perf_counter()
        try:
            text, ok = str(fn()), True
        except Exception as exc:  # a tour reports every failure and goes on
            text, ok = f"FAILED: {type(exc).__name__}: {exc}", False
        finally:
            context.reset_context()
        results.append(Result(name, ok, text, (time.perf_counter() - start) * 1e3))
    return results


def format_table(results: list[Result]) -> str:
    """The results as an aligned text table with a summary line."""
    headers = ("technique", "result", "time ms")
    rows = [(r.name, r.text, f"{r.ms:.2f}") for r in results]
    widths = [max(len(h), *(len(row[i]) for row in rows)) if rows else len(h)
              for i, h in enumerate(headers)]

    def line(cells) -> str:
        return "  ".join(c.ljust(w) if i < 2 else c.rjust(w)
                         for i, (c, w) in enumerate(zip(cells, widths))).rstrip()

    out = [line(headers), "  ".join("-" * w for w in widths)]
    out += [line(row) for row in rows]
    passed = sum(r.ok for r in results)
    out.append(f"{passed} of {len(results)} techniques work")
    return "\n".join(out)


# ---------------------------------------------------------------- the entries
# Each spec technique runs on its embedded default (graphkiln/examples/spec.py holds the
# spec's code as a user writes it); the time column is the whole entry, compiles included.

def _spec(name: str):
    return getattr(spec, name)()


for _title, _fn in [
    ("@lazy_inline: GPT_Model of 24 Blocks", "lazy_inline"),
    ("@jit compile: spec func (200 steps) -> [601.]", "compile_func"),
    ("tensor `if` vs ops.select (if_net / select_net)", "if_vs_select"),
    ("vmap(hswish) vs manually batched loop (100 x 2)", "vmap"),
    ("HyperMap(MultitypeFuncGraph) vs for loop (200 elems)", "hypermap"),
    ("compile cache: cold vs warm (enable_compile_cache)", "compile_cache"),
    ("@jit_class attributes, methods, __call__", "jit_class"),
    ("Depend orders NPU float-status ops", "depend_float_status"),
    ("autodiff + MS_DEV_SIDE_EFFECT_LOAD_ELIM 0/1/2/3", "load_elim"),
    ("Assign in tensor loop + branches, both modes", "print_assign_order"),
]:
    entry(_title)(lambda _n=_fn: _spec(_n))
del _title, _fn


@entry("nn: SequentialCell(Dense, ReLU, Dense) vs NumPy, graph mode")
def _dense_forward() -> str:
    ms.set_seed(0)
    ms.set_context(mode=ms.GRAPH_MODE)
    net = nn.SequentialCell([nn.Dense(4, 3, activation="relu"), nn.Dense(3, 2)])
    x = np.linspace(-1.0, 1.0, 8, dtype=np.float32).reshape(2, 4)
    got = net(ms.Tensor(x)).asnumpy()
    (w1, b1), (w2, b2) = [(d.weight.asnumpy(), d.bias.asnumpy()) for d in net]
    ref = np.maximum(x @ w1.T + b1, 0) @ w2.T + b2
    assert got.shape == (2, 2) and np.allclose(got, ref, atol=1e-6), (got, ref)
    return f"shape {list(got.shape)}, max |err| {float(np.abs(got - ref).max()):.1e}"


@entry("nn: TrainOneStepCell(WithLossCell, SGD), graph mode == PyNative")
def _train_one_step() -> str:
    rng = np.random.default_rng(0)
    x = rng.standard_normal((16, 3)).astype(np.float32)
    y = x.sum(1, keepdims=True).astype(np.float32)
    finals = []
    for mode in (ms.GRAPH_MODE, ms.PYNATIVE_MODE):
        ms.set_context(mode=mode)
        ms.set_seed(3)
        net = nn.SequentialCell([nn.Dense(3, 8, activation="relu"), nn.Dense(8, 1)])
        step = nn.TrainOneStepCell(nn.WithLossCell(net, nn.MSELoss()),
                                   nn.SGD(net.trainable_params(), learning_rate=0.05))
        losses = [float(step(ms.Tensor(x), ms.Tensor(y))) for _ in range(30)]
        finals.append(losses)
    (g, e) = finals
    assert g[-1] < 0.5 * g[0] and np.allclose(g, e, rtol=1e-4), (g[-1], e[-1])
    return f"loss {g[0]:.3f} -> {g[-1]:.3f} in 30 steps; PyNative {e[-1]:.3f}"


@entry("train: LeNet-5 via Model.train (Adam, LossMonitor, ModelCheckpoint), graph mode")
def _train_lenet() -> str:
    ms.set_context(mode=ms.GRAPH_MODE)
    ms.set_seed(1)
    images, labels = _synthetic_digits(samples=256, seed=0)
    data = ds.NumpySlicesDataset({"image": images, "label": labels}, shuffle=False).batch(32)
    net = lenet5(ms)
    loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    model = Model(net, loss, nn.Adam(net.trainable_params(), 0.003), metrics={"accuracy"})
    history = History()
    with tempfile.TemporaryDirectory() as directory:
        saver = ModelCheckpoint("lenet", directory,
                                CheckpointConfig(save_checkpoint_steps=data.get_dataset_size()))
        start = time.perf_counter()
        # LossMonitor prints MindSpore's line once per epoch; on a terminal Model.train also
        # draws the live progress bar, and stays quiet when stdout is redirected.
        model.train(3, data, callbacks=[LossMonitor(data.get_dataset_size()), saver, history])
        seconds = time.perf_counter() - start
        saved = sorted(os.listdir(directory))
        restored = load_checkpoint(os.path.join(directory, saver.latest_ckpt_file_name))
    losses = [float(v) for v in history.history["net_output"]]
    accuracy = model.eval(data)["accuracy"]
    assert losses[-1] < 0.25 * losses[0] and accuracy > 0.9, (losses, accuracy)
    assert "lenet-3_8.ckpt" in saved and "conv1.weight" in restored, saved
    checkpoints = sum(name.endswith(".ckpt") for name in saved)
    return (f"loss {losses[0]:.3f} -> {losses[-1]:.3f} in 3 epochs x 8 steps, accuracy "
            f"{accuracy:.2f}, {checkpoints} .ckpt saved; trained in {seconds:.2f} s with compile")


def _synthetic_digits(samples: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """A learnable stand-in for MNIST: ten fixed 32x32 patterns, one per class, plus noise."""
    rng = np.random.default_rng(seed)
    patterns = rng.standard_normal((10, 1, 32, 32)).astype(np.float32)
    labels = rng.integers(0, 10, samples).astype(np.int32)
    noise = rng.standard_normal((samples, 1, 32, 32)).astype(np.float32)
    return patterns[labels] + 0.5 * noise, labels
