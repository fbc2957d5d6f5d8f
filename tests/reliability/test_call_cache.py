"""The in-memory call cache: non-tensor arguments keyed by value (never by an ``id`` a
freed object leaves behind), mutated objects recompile, a bounded number of signatures
per function with a warning, and generated sources that leave linecache with their code."""
from __future__ import annotations

import gc
import linecache
import warnings

import numpy as np
import pytest

import graphkiln as ms
from graphkiln import ops
from graphkiln.common.jit_class import jit_class

X = ms.Tensor(np.ones((2,), np.float32))


@jit_class
class Scale:
    def __init__(self, k):
        self.k = k


class Config:
    def __init__(self, k):
        self.k = k


@ms.jit
def scaled(x, cfg):
    return x * cfg.k


@pytest.mark.parametrize("kind", [Scale, Config])
def test_freed_objects_never_lend_their_graph_to_new_ones(kind):
    wrong = []
    for k in range(16):
        cfg = kind(float(k))
        got = scaled(X, cfg).asnumpy()
        if not np.allclose(got, k):
            wrong.append((k, got.tolist()))
        del cfg
        gc.collect()
    assert not wrong, wrong


def test_mutated_argument_object_recompiles():
    cfg = Scale(2.0)
    assert np.allclose(scaled(X, cfg).asnumpy(), 2.0)
    cfg.k = 5.0
    assert np.allclose(scaled(X, cfg).asnumpy(), 5.0)


@pytest.mark.parametrize("value,other", [(2, 3), ((1, 2), (1, 3)), ({"a": 1.0}, {"a": 2.0}),
                                         (ms.float32, ms.float16), ("sum", "mean"),
                                         (np.float32(1.5), np.float32(2.5))])
def test_python_values_are_keyed_by_value(value, other):
    @ms.jit
    def f(x, v):
        return x, v

    assert f(X, value)[1] == value
    assert f(X, other)[1] == other
    assert f(X, value)[1] == value


def test_small_array_argument_edited_in_place_recompiles():
    @ms.jit
    def f(x, a):
        return x + ms.Tensor(a)

    a = np.array([1.0, 2.0], np.float32)
    assert f(X, a).asnumpy().tolist() == [2.0, 3.0]
    a[0] = 10.0
    assert f(X, a).asnumpy().tolist() == [11.0, 3.0]


def test_signatures_per_function_are_bounded_with_one_warning(monkeypatch):
    monkeypatch.setenv("GRAPHKILN_CALL_CACHE_SIZE", "8")

    @ms.jit
    def f(x):
        return ops.exp(x) + 1

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        for n in range(1, 21):
            assert f(ms.Tensor(np.zeros(n, np.float32))).shape == (n,)
    assert len(f._cache.entries) == 8
    msgs = [str(w.message) for w in caught if "different input signatures" in str(w.message)]
    assert len(msgs) == 1 and "'f'" in msgs[0], msgs
    assert f(ms.Tensor(np.zeros(20, np.float32))).shape == (20,)  # a kept one still runs


def test_generated_sources_leave_linecache_with_their_function():
    def make():
        @ms.jit
        def g(x):
            return x * 3 + 1
        for n in range(1, 4):
            g(ms.Tensor(np.zeros(n, np.float32)))
        return g

    before = {k for k in linecache.cache if k.startswith("<graphkiln")}
    g = make()
    during = {k for k in linecache.cache if k.startswith("<graphkiln")} - before
    assert len(during) >= 3
    del g
    gc.collect()
    after = {k for k in linecache.cache if k.startswith("<graphkiln")}
    assert not during & after


def test_memory_stays_flat_with_ever_new_shapes(monkeypatch):
    """A smaller run of bench/call_cache_memory.py (which does 20,000 calls)."""
    import os
    import sys
    sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "bench"))
    from call_cache_memory import run

    monkeypatch.setenv("GRAPHKILN_CALL_CACHE_SIZE", "16")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        points = run(300, samples=3)
    growth = points[-1][1] - points[0][1]
    assert growth < 0.75, f"RSS grew {growth:.2f} MiB over 200 calls after the bound: {points}"
