"""Optimizers, parameter groups, dynamic learning rates and schedules against MindSpore
2.10 CPU (fixtures/record_optim.py): losses of three TrainOneStepCell steps and the final
weights, in PYNATIVE and GRAPH mode. Lamb and LARS, whose update kernels MindSpore 2.10 has
no CPU version of, are checked against NumPy references."""
import sys
from pathlib import Path

import numpy as np
import pytest

import graphkiln as ms
from graphkiln import nn

FIXTURES = Path(__file__).resolve().parent / "fixtures"
sys.path.insert(0, str(FIXTURES))
from optim_cases import (  # noqa: E402
    STEPS,
    _net,
    asgd_average,
    data,
    lr_lists,
    optimizer_cases,
    schedules,
    train,
)

RECORDED = np.load(FIXTURES / "optim.npz")
MODES = {"pynative": ms.PYNATIVE_MODE, "graph": ms.GRAPH_MODE}


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("name", sorted(optimizer_cases(nn, ms)))
def test_optimizer_matches_mindspore(name, mode):
    ms.set_context(mode=MODES[mode])
    losses, params = train(nn, ms, name)
    np.testing.assert_allclose(losses, RECORDED[f"{name}/losses"], rtol=1e-5, atol=1e-6)
    for pname, value in params.items():
        np.testing.assert_allclose(value, RECORDED[f"{name}/{pname}"], rtol=1e-5, atol=1e-6,
                                   err_msg=pname)


@pytest.mark.parametrize("mode", MODES)
def test_asgd_average_matches_mindspore(mode):
    ms.set_context(mode=MODES[mode])
    for name, value in asgd_average(nn, ms).items():
        np.testing.assert_allclose(value, RECORDED[f"asgd_average/{name}"], rtol=1e-5,
                                   atol=1e-6, err_msg=name)


@pytest.mark.parametrize("name", sorted(lr_lists(nn)))
def test_dynamic_lr_lists_match_mindspore(name):
    np.testing.assert_allclose(lr_lists(nn)[name], RECORDED[f"lr/{name}"], rtol=1e-12)


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("name", sorted(schedules(nn)))
def test_schedules_match_mindspore(name, mode):
    ms.set_context(mode=MODES[mode])
    cell = schedules(nn)[name]
    got = [cell(ms.Tensor(np.array(step, np.int32))).asnumpy() for step in range(6)]
    np.testing.assert_allclose(np.array(got), RECORDED[f"schedule/{name}"], rtol=1e-6)


def _grads(net, x, y):
    """Gradients of the MSE loss w.r.t. the trainable weights (NumPy arrays)."""
    loss = nn.WithLossCell(net, nn.MSELoss())
    g = ms.grad(loss, grad_position=None, weights=net.trainable_params())(x, y)
    return [t.asnumpy() for t in g]


def _reference_run(opt_factory, numpy_update):
    """Train with the optimizer and with ``numpy_update(step, weights, grads)``."""
    x, y = (ms.Tensor(a) for a in data())
    net, ref = _net(nn, ms), _net(nn, ms)
    opt = opt_factory(net)
    step = nn.TrainOneStepCell(nn.WithLossCell(net, nn.MSELoss()), opt)
    for k in range(STEPS):
        grads = _grads(ref, x, y)
        weights = [p.asnumpy().copy() for p in ref.trainable_params()]
        for p, w in zip(ref.trainable_params(), numpy_update(k, weights, grads)):
            p.set_data(ms.Tensor(w.astype(np.float32)))
        step(x, y)
    for p, q in zip(net.trainable_params(), ref.trainable_params()):
        np.testing.assert_allclose(p.asnumpy(), q.asnumpy(), rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("mode", MODES)
def test_lamb_matches_numpy(mode):
    ms.set_context(mode=MODES[mode])
    b1, b2, eps, wd, lr = 0.9, 0.999, 1e-6, 0.01, 0.01
    state = {}

    def update(k, ws, gs):
        out = []
        for i, (w, g) in enumerate(zip(ws, gs)):
            m, v = state.get(i, (np.zeros_like(w), np.zeros_like(w)))
            m = b1 * m + (1 - b1) * g
            v = b2 * v + (1 - b2) * g * g
            state[i] = (m, v)
            upd = (m / (1 - b1 ** (k + 1))) / (np.sqrt(v / (1 - b2 ** (k + 1))) + eps)
            upd = upd + wd * w
            wn, gn = np.linalg.norm(w), np.linalg.norm(g)
            ratio = np.clip(wn / np.linalg.norm(upd), 0, 10) if wn > 0 and gn > 0 else 1.0
            out.append(w - lr * ratio * upd)
        return out

    _reference_run(lambda n: nn.Lamb(n.trainable_params(), lr, weight_decay=wd), update)


@pytest.mark.parametrize("mode", MODES)
def test_lars_matches_numpy(mode):
    ms.set_context(mode=MODES[mode])
    lr, mom, wd, coef, eps = 0.1, 0.9, 0.01, 0.001, 1e-5
    moments = {}
    names = [p.name for p in _net(nn, ms).trainable_params()]

    def update(k, ws, gs):
        out = []
        for i, (w, g) in enumerate(zip(ws, gs)):
            if "bias" not in names[i]:
                wn, gn = np.linalg.norm(w), np.linalg.norm(g)
                ratio = coef * wn / (gn + wd * wn + eps) if wn > 0 and gn > 0 else 1.0
                g = ratio * (g + wd * w)
            m = moments.get(i, np.zeros_like(w)) * mom + g
            moments[i] = m
            out.append(w - lr * m)
        return out

    _reference_run(lambda n: nn.LARS(nn.Momentum(n.trainable_params(), lr, mom,
                                                 weight_decay=wd)), update)


@pytest.mark.parametrize("mode", MODES)
def test_momentum_nesterov_follows_the_documented_formula(mode):
    # MindSpore 2.10's CPU ApplyMomentum ignores use_nesterov (its run equals plain momentum);
    # the documented update equals SGD(nesterov=True) with the same momentum, whose MindSpore
    # run is recorded.
    ms.set_context(mode=MODES[mode])
    net = _net(nn, ms)
    opt = nn.Momentum(net.trainable_params(), 0.1, 0.9, use_nesterov=True)
    step = nn.TrainOneStepCell(nn.WithLossCell(net, nn.MSELoss()), opt)
    x, y = (ms.Tensor(a) for a in data())
    losses = [float(step(x, y).asnumpy()) for _ in range(STEPS)]
    np.testing.assert_allclose(losses, RECORDED["sgd_nesterov/losses"], rtol=1e-5)


def test_global_step_counts_steps_and_feeds_dynamic_lr():
    net = _net(nn, ms)
    lrs = [0.1, 0.05, 0.01]
    opt = nn.Momentum(net.trainable_params(), lrs, 0.9)
    step = nn.TrainOneStepCell(nn.WithLossCell(net, nn.MSELoss()), opt)
    x, y = (ms.Tensor(a) for a in data())
    seen = []
    for _ in range(4):
        seen.append(float(opt.get_lr().asnumpy()))
        step(x, y)
    assert opt.global_step.asnumpy().tolist() == [4]
    np.testing.assert_allclose(seen, [0.1, 0.05, 0.01, 0.01], rtol=1e-6)
