"""``LayerNormGradGrad`` against MindSpore 2.10 CPU (fixtures/layer_norm_grad_grad.json, by
fixtures/record_layer_norm_grad_grad.py), GRAPH == PYNATIVE, its errors, and its outputs as
the derivatives of LayerNorm's backward by finite differences (NumPy, the statistics taken
from ``x``)."""
import json
import os
import sys

import numpy as np
import pytest

import graphkiln as ms
from graphkiln import Tensor
from graphkiln.ops.auto_generate import LayerNormGradGrad

FIXTURES = os.path.join(os.path.dirname(__file__), "fixtures")
sys.path.insert(0, FIXTURES)
from layer_norm_grad_grad_cases import CASES, inputs, run  # noqa: E402

with open(os.path.join(FIXTURES, "layer_norm_grad_grad.json")) as f:
    RECORDED = json.load(f)


@pytest.mark.parametrize("name", sorted(CASES))
def test_matches_mindspore(name):
    tol = 2e-2 if CASES[name][1] == "float16" else 1e-4
    for got, want in zip(run(LayerNormGradGrad, Tensor, name), RECORDED[name]):
        np.testing.assert_allclose(got, want, rtol=tol, atol=tol)


@pytest.mark.parametrize("name", ["groups_of_12", "float16"])
def test_graph_equals_pynative(name):
    args = [Tensor(v) for v in inputs(name)]
    op = LayerNormGradGrad(**CASES[name][0])
    eager = op(*args)
    graph = ms.jit(lambda *a: op(*a))(*args)
    for e, g in zip(eager, graph):
        np.testing.assert_array_equal(e.asnumpy(), g.asnumpy())


def _layer_norm_backward(x, dy, gamma):
    """``(dx, dgamma, dbeta)`` of LayerNorm over rows of ``gamma.size``, float64."""
    rows = x.reshape(-1, gamma.size)
    xc = rows - rows.mean(axis=1, keepdims=True)
    r = 1 / np.sqrt((xc * xc).mean(axis=1, keepdims=True))
    xh, d = xc * r, dy.reshape(rows.shape)
    dxh = d * gamma.reshape(-1)
    dx = r * (dxh - dxh.mean(axis=1, keepdims=True)
              - xh * (dxh * xh).mean(axis=1, keepdims=True))
    return (dx.reshape(x.shape), (d * xh).sum(axis=0).reshape(gamma.shape),
            d.sum(axis=0).reshape(gamma.shape))


def _numeric(f, v, eps=1e-6):
    g = np.zeros_like(v)
    for i in np.ndindex(v.shape):
        up, down = v.copy(), v.copy()
        up[i] += eps
        down[i] -= eps
        g[i] = (f(up) - f(down)) / (2 * eps)
    return g


def test_outputs_are_derivatives_of_the_backward():
    x, dy, _, _, gamma, a, b, c = (v.astype(np.float64) for v in inputs("groups_of_4"))

    def pairing(x_, dy_, gamma_):
        dx, dg, db = _layer_norm_backward(x_, dy_, gamma_)
        return (a * dx).sum() + (b * dg).sum() + (c * db).sum()

    want = (_numeric(lambda v: pairing(v, dy, gamma), x),
            _numeric(lambda v: pairing(x, v, gamma), dy),
            _numeric(lambda v: pairing(x, dy, v), gamma))
    got = LayerNormGradGrad(begin_norm_axis=2, begin_params_axis=2)(
        *[Tensor(v) for v in inputs("groups_of_4")])
    for g, w in zip(got, want):
        np.testing.assert_allclose(g.asnumpy(), w, rtol=1e-3, atol=1e-4)


def test_errors_as_mindspore():
    args = [Tensor(v) for v in inputs("groups_of_4")]
    bad = list(args)
    bad[2] = Tensor(-np.ones((2, 3, 1), np.float32))
    with pytest.raises(ValueError, match="variance must be positive"):
        LayerNormGradGrad(2, 2)(*bad)
    with pytest.raises(TypeError, match="float16|Float16"):
        LayerNormGradGrad(2, 2)(*[Tensor(a.asnumpy().astype(np.float64)) for a in args])
    with pytest.raises(ValueError, match="shape"):
        LayerNormGradGrad(2, 2)(*args[:6], Tensor(np.ones(3, np.float32)), args[7])
