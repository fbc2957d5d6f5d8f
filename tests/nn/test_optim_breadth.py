"""Adadelta, FTRL, ProximalAdagrad, LazyAdam and AdaFactor against MindSpore 2.10 CPU
(fixtures/record_optim_breadth.py): the loss of each of three TrainOneStepCell steps, the
final weights and the optimizer state (names and values), in PYNATIVE and GRAPH mode, and
MindSpore's error types for bad hyper-parameters."""
import json
import sys
from pathlib import Path

import numpy as np
import pytest

import graphkiln as ms
from graphkiln import nn

FIXTURES = Path(__file__).resolve().parent / "fixtures"
sys.path.insert(0, str(FIXTURES))
from optim_breadth_cases import errors, optimizer_cases, train  # noqa: E402

RECORDED = np.load(FIXTURES / "optim_breadth.npz")
ERRORS = json.loads((FIXTURES / "optim_breadth_errors.json").read_text())
MODES = {"pynative": ms.PYNATIVE_MODE, "graph": ms.GRAPH_MODE}


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("name", sorted(optimizer_cases(nn, ms)))
def test_optimizer_matches_mindspore(name, mode):
    ms.set_context(mode=MODES[mode])
    losses, params, state = train(nn, ms, name)
    np.testing.assert_allclose(losses, RECORDED[f"{name}/losses"], rtol=1e-5, atol=1e-6)
    for pname, value in params.items():
        np.testing.assert_allclose(value, RECORDED[f"{name}/{pname}"], rtol=1e-5, atol=1e-6,
                                   err_msg=pname)
    # AdaFactor without momentum keeps unnamed placeholder Parameters in MindSpore
    recorded_state = {k.split("/", 1)[1] for k in RECORDED.files
                      if k.startswith(f"{name}/") and "/Parameter$" not in k}
    recorded_state -= set(params) | {"losses"}
    # a group without its own "lr" shares MindSpore's "learning_rate" Parameter, while the
    # Optimizer base class names it "learning_rate_group_<i>": learning rates are compared
    # by value through the weights, the rest of the state by name
    assert {s for s in state if not s.startswith("learning_rate")} == \
        {s for s in recorded_state if not s.startswith("learning_rate")}
    for sname, value in state.items():
        if sname.startswith("learning_rate") and sname not in recorded_state:
            continue
        np.testing.assert_allclose(np.asarray(value, np.float64).reshape(-1),
                                   np.asarray(RECORDED[f"{name}/{sname}"],
                                              np.float64).reshape(-1),
                                   rtol=1e-5, atol=1e-6, err_msg=sname)


@pytest.mark.parametrize("name", sorted(ERRORS))
def test_errors_have_mindspore_types(name):
    with pytest.raises(Exception) as info:
        errors(nn, ms)[name]()
    assert type(info.value).__name__ == ERRORS[name]


def _ftrl_reference(w, grads, lr, l1, l2, lr_power, accum0):
    """FTRL-proximal (McMahan et al.): the documented update of ApplyFtrl."""
    accum, linear = np.full_like(w, accum0), np.zeros_like(w)
    for g in grads:
        new = accum + g * g
        linear = linear + g - (new ** -lr_power - accum ** -lr_power) / lr * w
        quadratic = new ** -lr_power / lr + 2 * l2
        w = np.where(np.abs(linear) > l1, (np.sign(linear) * l1 - linear) / quadratic, 0.0)
        accum = new
    return w


@pytest.mark.parametrize("mode", MODES)
def test_ftrl_l1_shrinkage_follows_the_ftrl_formula(mode):
    # MindSpore 2.10's CPU kernel computes (l1 - linear) / quadratic also for negative
    # accumulators (recorded: var 0.03795 where the formula gives 0.03723 after one step
    # from var 0.1257, grad 1.304, linear -1.038, lr 0.05, l1 0.01, l2 0.02); graphkiln
    # follows the formula, sign(linear) * l1 - linear, which shrinks both signs toward 0
    ms.set_context(mode=MODES[mode])
    r = np.random.default_rng(0)
    w0 = r.standard_normal(6).astype(np.float32)
    grads = [r.standard_normal(6).astype(np.float32) for _ in range(3)]
    w = ms.Parameter(ms.Tensor(w0.copy()), name="w")
    opt = nn.FTRL([w], 0.2, 0.05, -0.3, 0.01, 0.02)
    for g in grads:
        opt((ms.Tensor(g),))
    want = _ftrl_reference(w0.astype(np.float64), [g.astype(np.float64) for g in grads],
                           0.05, 0.01, 0.02, -0.3, 0.2)
    np.testing.assert_allclose(w.asnumpy(), want, rtol=1e-5, atol=1e-6)
