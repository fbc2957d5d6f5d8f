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

import time
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

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
    from . import context

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

@entry("PyNative: tensor arithmetic (spec func, 200 steps)")
def _tensor_arithmetic() -> str:
    import graphkiln as ms

    x = ms.Tensor([1], ms.float32)
    y = ms.Tensor([2], ms.float32)
    output = x
    for _ in range(200):
        output = x + x * y + output
    value = output.asnumpy()
    assert value.dtype == np.float32 and value.tolist() == [601.0], value
    return f"out = {value.tolist()} (Float32)"


@entry("PyNative: tensor `if` vs ops.select (spec if_net/select_net)")
def _if_vs_select() -> str:
    import graphkiln as ms
    from graphkiln import ops

    def if_net(x, y):
        out = 0
        for _ in range(100):
            if x < y:
                x = x - y
            else:
                x = x + y
            out = out + x
        return out

    def select_net(x, y):
        out = x
        for _ in range(100):
            x = ops.select(x < y, x - y, x + y)
            out = out + x
        return out

    a = if_net(ms.Tensor([0]), ms.Tensor([1])).asnumpy()
    b = select_net(ms.Tensor([0]), ms.Tensor([1])).asnumpy()
    assert a.tolist() == [-5050] and b.tolist() == [-5050], (a, b)
    return f"if: {a.tolist()}, select: {b.tolist()} (equal)"


@entry("PyNative: Parameter + ops.assign (spec ForwardNet)")
def _parameter_assign() -> str:
    import graphkiln as ms
    from graphkiln import nn, ops

    class ForwardNet(nn.Cell):
        def __init__(self):
            super().__init__()
            self.weight = ms.Parameter(ms.Tensor(np.array(0), ms.int32), name="param")

        def construct(self, x):
            out = 0
            i = 0
            while i < 3:
                ops.assign(self.weight, i)
                out = x * self.weight + out
                i = i + 1
            return out

    net = ForwardNet()
    out = net(ms.Tensor(np.array(1), ms.int32))
    assert int(out) == 3 and int(net.weight) == 2, (out, net.weight)
    return f"out = {int(out)}, weight '{net.weight.name}' = {int(net.weight)}"


@entry("PyNative: ops.Depend orders a side effect")
def _depend() -> str:
    import graphkiln as ms
    from graphkiln import ops

    p = ms.Parameter(ms.Tensor(np.array(1.0, np.float32)), name="p")
    y = ms.Tensor(np.array(5.0, np.float32))
    a = ops.assign(p, ms.Tensor(np.array(7.0, np.float32)))
    y = ops.Depend()(y, a)
    assert float(y) == 5.0 and float(p) == 7.0, (y, p)
    return f"Depend(y, assign) = {float(y)}, p = {float(p)}"


@entry("nn: parameter names (BackwardNet, auto_prefix=False)")
def _cell_names() -> str:
    import graphkiln as ms
    from graphkiln import nn

    class ForwardNet(nn.Cell):
        def __init__(self):
            super().__init__()
            self.weight = ms.Parameter(ms.Tensor(np.array(0), ms.int32), name="param")
            self.fc = nn.Dense(2, 2)

        def construct(self, x):
            return x

    class BackwardNet(nn.Cell):
        def __init__(self, net):
            super().__init__(auto_prefix=False)
            self.forward_net = net

        def construct(self, x):
            return x

    names = [p.name for p in BackwardNet(ForwardNet()).trainable_params()]
    assert names == ["param", "fc.weight", "fc.bias"], names
    return ", ".join(names)


@entry("nn: SequentialCell(Dense, ReLU, Dense) forward vs NumPy")
def _dense_forward() -> str:
    import graphkiln as ms
    from graphkiln import nn

    ms.set_seed(0)
    net = nn.SequentialCell([nn.Dense(4, 3, activation="relu"), nn.Dense(3, 2)])
    x = np.linspace(-1.0, 1.0, 8, dtype=np.float32).reshape(2, 4)
    got = net(ms.Tensor(x)).asnumpy()
    (w1, b1), (w2, b2) = [(d.weight.asnumpy(), d.bias.asnumpy()) for d in net]
    ref = np.maximum(x @ w1.T + b1, 0) @ w2.T + b2
    assert got.shape == (2, 2) and np.allclose(got, ref, atol=1e-6), (got, ref)
    return f"shape {list(got.shape)}, max |err| {float(np.abs(got - ref).max()):.1e}"


@entry("nn: Embedding + LayerNorm + Softmax vs NumPy")
def _embedding_norm_softmax() -> str:
    import graphkiln as ms
    from graphkiln import nn

    ms.set_seed(0)
    emb, norm, soft = nn.Embedding(10, 4), nn.LayerNorm((4,)), nn.Softmax()
    ids = np.array([[1, 2, 3], [9, 0, 4]], np.int32)
    got = soft(norm(emb(ms.Tensor(ids)))).asnumpy()
    h = emb.embedding_table.asnumpy()[ids]
    h = (h - h.mean(-1, keepdims=True)) / np.sqrt(h.var(-1, keepdims=True) + 1e-7)
    ref = np.exp(h) / np.exp(h).sum(-1, keepdims=True)
    assert got.shape == (2, 3, 4) and np.allclose(got, ref, atol=1e-5), (got, ref)
    return f"shape {list(got.shape)}, max |err| {float(np.abs(got - ref).max()):.1e}"
