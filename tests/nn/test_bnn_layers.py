"""nn.probability.bnn_layers against MindSpore 2.10 (fixtures/record_bnn.py): KL losses
of fixed posteriors, parameter names, output shapes, WithBNNLossCell, in GRAPH_MODE and
PYNATIVE_MODE; and a Bayesian network trains."""
import os
import sys

import numpy as np
import pytest

import graphkiln as ms
from graphkiln import Tensor, nn
from graphkiln.nn.probability import bnn_layers

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "fixtures"))
from bnn_cases import run  # noqa: E402

EXPECTED = dict(np.load(os.path.join(HERE, "fixtures", "bnn.npz")))


@pytest.fixture(autouse=True)
def _restore_mode():
    mode = ms.get_context("mode")
    yield
    ms.set_context(mode=mode)


@pytest.mark.parametrize("mode", [ms.GRAPH_MODE, ms.PYNATIVE_MODE])
def test_bnn_layers_match_mindspore(mode):
    got = run(ms, mode)
    assert sorted(got) == sorted(EXPECTED)
    for key, want in EXPECTED.items():
        if want.dtype.kind == "f":
            np.testing.assert_allclose(got[key], want, rtol=1e-5, err_msg=key)
        else:
            np.testing.assert_array_equal(got[key], want, err_msg=key)


def test_bayesian_network_trains():
    ms.set_context(mode=ms.GRAPH_MODE)
    ms.set_seed(1)
    np.random.seed(1)
    net = nn.SequentialCell([bnn_layers.DenseReparam(4, 8, activation="relu"),
                             bnn_layers.DenseReparam(8, 1)])
    loss = bnn_layers.WithBNNLossCell(net, nn.MSELoss(), dnn_factor=1.0, bnn_factor=1e-4)
    step = nn.TrainOneStepCell(loss, nn.Adam(net.trainable_params(), learning_rate=0.05))
    rng = np.random.default_rng(0)
    x = rng.standard_normal((64, 4)).astype(np.float32)
    y = x.sum(axis=1, keepdims=True).astype(np.float32)
    losses = [float(step(Tensor(x), Tensor(y)).asnumpy()) for _ in range(60)]
    assert np.mean(losses[-10:]) < 0.3 * np.mean(losses[:5])


@pytest.mark.parametrize("make, error", [
    (lambda: bnn_layers.NormalPosterior(1, [2]), TypeError),
    (lambda: bnn_layers.NormalPosterior("w", 2), TypeError),
    (lambda: bnn_layers.DenseReparam(4, 3, activation=3), ValueError),
    (lambda: bnn_layers.DenseReparam(4, 3, weight_posterior_fn=lambda: None), TypeError),
    (lambda: bnn_layers.ConvReparam(2, 3, 3, pad_mode="full"), ValueError),
    (lambda: bnn_layers.WithBNNLossCell(nn.Dense(2, 2), nn.MSELoss(), dnn_factor=-1),
     ValueError),
    (lambda: bnn_layers.WithBNNLossCell(nn.Dense(2, 2), nn.MSELoss(), bnn_factor="1"),
     TypeError),
])
def test_bad_arguments(make, error):
    with pytest.raises(error):
        make()
