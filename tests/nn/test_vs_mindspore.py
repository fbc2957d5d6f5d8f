"""Layers and losses against numbers recorded from MindSpore 2.10 CPU
(fixtures/record_layers.py): outputs, input and weight gradients, BatchNorm moving
statistics and parameter names, each in PYNATIVE and GRAPH mode."""
import sys
from pathlib import Path

import numpy as np
import pytest

import graphkiln as ms
from graphkiln import nn, ops

FIXTURES = Path(__file__).resolve().parent / "fixtures"
sys.path.insert(0, str(FIXTURES))
from layer_cases import (  # noqa: E402
    cotangent,
    layer_cases,
    loss_cases,
    make_input,
    set_weights,
)

LAYERS = np.load(FIXTURES / "layers.npz")
LOSSES = np.load(FIXTURES / "losses.npz")
MODES = {"pynative": ms.PYNATIVE_MODE, "graph": ms.GRAPH_MODE}


def _close(got, key, fixture):
    """float32 agreement: relative 2e-4, absolute 2e-5 of the largest expected value."""
    want = fixture[key]
    scale = max(1.0, float(np.abs(want).max())) if want.size else 1.0
    np.testing.assert_allclose(got.asnumpy(), want, rtol=2e-4, atol=2e-5 * scale, err_msg=key)


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("name", sorted(layer_cases(nn, ops)))
def test_layer_matches_mindspore(name, mode):
    ms.set_context(mode=MODES[mode])
    factory, specs, train = layer_cases(nn, ops)[name]
    net = factory()
    names = set_weights(ms, name, net)
    assert [f"{n}:{list(s)}" for n, s in names] == LAYERS[f"{name}/params"].tolist()
    net.set_train(train)
    xs = [ms.Tensor(make_input(name, i, s)) for i, s in enumerate(specs)]
    y = net(*xs)
    _close(y, f"{name}/y", LAYERS)
    for pname, p in net.parameters_and_names():
        if not p.requires_grad:
            _close(p, f"{name}/after/{pname}", LAYERS)
    net2 = factory()
    set_weights(ms, name, net2)
    net2.set_train(train)
    cot = ms.Tensor(cotangent(name, tuple(y.shape)))
    weights = net2.trainable_params()
    float_pos = tuple(i for i, s in enumerate(specs) if s[1] == "f")
    if not float_pos and not weights:
        return
    grads = ms.grad(lambda *a: (net2(*a) * cot).sum(), grad_position=float_pos or None,
                    weights=weights or None)(*xs)
    gin, gw = grads if float_pos and weights else (grads, ()) if float_pos else ((), grads)
    gin = gin if isinstance(gin, tuple) else (gin,)
    for i, g in zip(float_pos, gin):
        _close(g, f"{name}/dx{i}", LAYERS)
    for p, g in zip(weights, gw):
        _close(g, f"{name}/dw/{p.name}", LAYERS)


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("name", sorted(loss_cases(nn, ms)))
def test_loss_matches_mindspore(name, mode):
    ms.set_context(mode=MODES[mode])
    factory, specs = loss_cases(nn, ms)[name]
    loss = factory()
    xs = [ms.Tensor(make_input(name, i, s)) for i, s in enumerate(specs)]
    y = loss(*xs)
    _close(y, f"{name}/y", LOSSES)
    cot = ms.Tensor(cotangent(name, tuple(y.shape)))
    g = ms.grad(lambda first, *rest: (loss(first, *rest) * cot).sum())(*xs)
    _close(g, f"{name}/dx0", LOSSES)
