"""Every kind of state a trace folds in, changed between calls of one compiled function in
one process: the next call must equal PYNATIVE (the new-process side is in
test_compile_cache_attacks.py). Property-style: each kind, several random new values."""
from __future__ import annotations

import random
import types

import numpy as np
import pytest

import graphkiln as ms
from graphkiln import nn
from graphkiln.common.jit_class import jit_class

X = ms.Tensor(np.array([1.0, -2.0], np.float32))
SCALE = 2.0
TABLE = (1.0, 2.0)
settings = types.ModuleType("gk_guard_settings")
settings.EPS = 0.5


class Shift(nn.Cell):
    bias = 1.0  # a class attribute read as self.bias

    def construct(self, x):
        return x + self.bias


@jit_class
class Config:
    def __init__(self, k):
        self.k = k


def _make_closure():
    k = 1.0

    def f(x):
        return x * k

    def set_k(v):
        nonlocal k
        k = v
    return f, set_k


def uses_global(x):
    return x * SCALE + TABLE[1]


def uses_module_attribute(x):
    return x + settings.EPS


def uses_config(x, cfg):
    return x * cfg.k


def _set_global(v):
    global SCALE, TABLE
    SCALE, TABLE = v, (0.0, v * 2)


CASES = {
    "global": (uses_global, lambda v: _set_global(v), ()),
    "module_attribute": (uses_module_attribute, lambda v: setattr(settings, "EPS", v), ()),
}


@pytest.mark.parametrize("kind", sorted(CASES))
def test_changed_globals_recompile(kind):
    fn, mutate, extra = CASES[kind]
    jf = ms.jit(fn)
    rng = random.Random(kind)
    for _ in range(4):
        mutate(rng.uniform(-3, 3))
        np.testing.assert_allclose(jf(X, *extra).asnumpy(), fn(X, *extra).asnumpy())


def test_changed_closure_cell_recompiles():
    f, set_k = _make_closure()
    jf = ms.jit(f)
    for v in (1.0, 3.0, -2.0, 3.0):
        set_k(v)
        np.testing.assert_allclose(jf(X).asnumpy(), f(X).asnumpy())


def test_changed_class_attribute_recompiles():
    ms.set_context(mode=ms.GRAPH_MODE)
    net = Shift()
    for v in (1.0, 5.0, -1.0):
        Shift.bias = v
        np.testing.assert_allclose(net(X).asnumpy(), X.asnumpy() + v)
    Shift.bias = 1.0


def test_changed_jit_class_instance_recompiles():
    jf = ms.jit(uses_config)
    cfg = Config(2.0)
    for v in (2.0, 4.0, 0.5):
        cfg.k = v
        np.testing.assert_allclose(jf(X, cfg).asnumpy(), uses_config(X, cfg).asnumpy())


def test_unchanged_state_does_not_recompile():
    jf = ms.jit(uses_global)
    jf(X)
    first = jf.compile_info
    for _ in range(3):
        jf(X)
    assert jf.compile_info is first and len(jf._cache.entries) == 1
