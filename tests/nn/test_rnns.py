"""Recurrent layers: one tensor loop per layer and direction (not unrolled), gradients
against finite differences in float64, PYNATIVE == GRAPH. Values against MindSpore are in
test_vs_mindspore.py."""
import numpy as np
import pytest

import graphkiln as ms
from graphkiln import nn


def test_lstm_compiles_to_one_loop_per_layer_and_direction():
    ms.set_context(mode=ms.GRAPH_MODE)
    net = nn.LSTM(3, 4, num_layers=2, bidirectional=True)
    net(ms.Tensor(np.ones((9, 2, 3), np.float32)))
    info = ms.compile_info(net)
    assert info.count("While") == 4
    assert info.count("Sigmoid") == 3 * 4  # the cell appears once per loop body, not 9 times


@pytest.mark.parametrize("cls", [nn.GRU, nn.LSTM, nn.RNN])
def test_gradient_matches_finite_differences_float64(cls):
    ms.set_seed(0)
    net = cls(2, 3, bidirectional=True, dtype=ms.float64)
    r = np.random.default_rng(1)
    x = r.standard_normal((4, 2, 2))
    lengths = ms.Tensor(np.array([4, 2], np.int32))
    w = ms.Tensor(r.standard_normal((4, 2, 6)))

    def loss(a):
        return (net(a, None, lengths)[0] * w).sum()

    grads = {}
    for mode in (ms.GRAPH_MODE, ms.PYNATIVE_MODE):
        ms.set_context(mode=mode)
        grads[mode] = ms.grad(loss)(ms.Tensor(x)).asnumpy()
    np.testing.assert_allclose(grads[ms.GRAPH_MODE], grads[ms.PYNATIVE_MODE], rtol=1e-12)
    eps, numeric = 1e-6, np.zeros_like(x)
    for idx in np.ndindex(x.shape):
        plus, minus = x.copy(), x.copy()
        plus[idx] += eps
        minus[idx] -= eps
        numeric[idx] = (float(loss(ms.Tensor(plus)).asnumpy())
                        - float(loss(ms.Tensor(minus)).asnumpy())) / (2 * eps)
    np.testing.assert_allclose(grads[ms.GRAPH_MODE], numeric, rtol=1e-5, atol=1e-8)
