"""Optimizers hold the same Parameters as MindSpore 2.10's, under the same paths and names
and with the same ``requires_grad`` (every one True, the learning rates too), so
``trainable_params()`` and ``parameters_and_names()`` list the same weights in the same
order (recorded by fixtures/record_optimizer_lr_params.py). The learning rate still only
changes as its schedule says: training never writes a gradient into it."""
import json
import sys
from pathlib import Path

import numpy as np
import pytest

import graphkiln as ms
from graphkiln import Tensor, nn, ops

FIXTURES = Path(__file__).with_name("fixtures")
sys.path.insert(0, str(FIXTURES))
import record_optimizer_lr_params as recorder  # noqa: E402

EXPECTED = json.loads((FIXTURES / "optimizer_lr_params.json").read_text())
CASES = {case[0]: case for case in recorder.CASES}


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_optimizer_parameters_match_mindspore(name):
    assert recorder.describe(ms, CASES[name]) == EXPECTED[name]


def _train(mode: int, name: str):
    """Two steps of a TrainOneStepCell: (the learning rates before, the optimizer)."""
    ms.set_context(mode=mode)
    ms.set_seed(0)
    opt = recorder.make(ms, CASES[name])
    lrs = {p.name: p.asnumpy().copy() for p in opt.trainable_params()
           if p.name.startswith("learning_rate")}
    weights = opt.parameters
    initial = weights[0].asnumpy().copy()
    net = nn.Dense(3, 1)  # its weights stand for the network's (opt trains 4 of them)
    net.weight, net.bias = weights[2], weights[3]

    def head(x):
        return ops.matmul(x, weights[0].T) + weights[1]

    class Chain(nn.Cell):
        def construct(self, x):
            return net(head(x))

    train = nn.TrainOneStepCell(nn.WithLossCell(Chain(), nn.MSELoss()), opt)
    x = Tensor(np.arange(12, dtype=np.float32).reshape(4, 3) / 10)
    y = Tensor(np.ones((4, 1), np.float32))
    for _ in range(2):
        train(x, y)
    assert not np.allclose(weights[0].asnumpy(), initial)  # (it trained)
    return lrs, opt


@pytest.mark.parametrize("name", ["Momentum_float", "Momentum_groups", "Adam_dynamic",
                                  "Adam_groups_dynamic"])
def test_training_leaves_the_learning_rates_alone(name):
    trained = {}
    for mode in (ms.GRAPH_MODE, ms.PYNATIVE_MODE):
        lrs, opt = _train(mode, name)
        assert lrs and all(p.requires_grad for p in opt.trainable_params())
        for p in opt.trainable_params():
            if p.name in lrs:
                np.testing.assert_array_equal(p.asnumpy(), lrs[p.name])
        assert opt.global_step.asnumpy().tolist() == [2]
        trained[mode] = [p.asnumpy() for p in opt.parameters]
    for g, p in zip(*trained.values()):
        np.testing.assert_allclose(g, p, rtol=1e-6, atol=1e-7)
