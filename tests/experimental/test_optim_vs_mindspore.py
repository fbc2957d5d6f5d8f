"""``experimental.optim`` optimizers and ``lr_scheduler`` schedulers, and ``mint.optim``,
against MindSpore 2.10 CPU (fixtures/record_optim.py): the tutorial-style train step
(value_and_grad(has_aux=True) over optimizer.parameters, clip_by_global_norm,
optimizer(grads)) for 7 steps, losses, final weights and learning rates, in PYNATIVE_MODE,
with the step under @jit and in GRAPH_MODE."""
import json
import sys
from pathlib import Path

import numpy as np
import pytest

import graphkiln as ms
from graphkiln import mint, ops
from graphkiln.experimental import optim

FIXTURES = Path(__file__).resolve().parent / "fixtures"
sys.path.insert(0, str(FIXTURES))
from experimental_optim_cases import (  # noqa: E402
    EPOCHS,
    epoch_cases,
    error_cases,
    explicit_epochs,
    mint_cases,
    optimizer_cases,
    scheduler_cases,
    state_names,
    train,
)

RECORDED = np.load(FIXTURES / "optim.npz")
ERRORS = json.loads((FIXTURES / "optim_errors.json").read_text())
STATE_NAMES = json.loads((FIXTURES / "optim_state_names.json").read_text())
RUNS = {"pynative": (ms.PYNATIVE_MODE, False), "jit": (ms.PYNATIVE_MODE, True),
        "graph": (ms.GRAPH_MODE, False)}


def check(name, result):
    losses, weights, lrs = result
    np.testing.assert_allclose(losses, RECORDED[f"{name}/losses"], rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(lrs, RECORDED[f"{name}/lrs"], rtol=1e-6)
    for pname, value in weights.items():
        np.testing.assert_allclose(value, RECORDED[f"{name}/{pname}"], rtol=1e-5, atol=1e-6,
                                   err_msg=pname)


@pytest.mark.parametrize("run", RUNS)
@pytest.mark.parametrize("name", sorted(optimizer_cases(optim)))
def test_optimizer_matches_mindspore(name, run):
    mode, jit = RUNS[run]
    ms.set_context(mode=mode)
    check(name, train(ms, ops, optimizer_cases(optim)[name], jit=jit))


@pytest.mark.parametrize("run", RUNS)
@pytest.mark.parametrize("name", sorted(mint_cases(mint.optim)))
def test_mint_optimizer_matches_mindspore(name, run):
    """MindSpore records mint.optim under jit: in its PYNATIVE_MODE these leave the weights
    unchanged (their in-place updates are lost); graphkiln gives the jit numbers in all."""
    mode, jit = RUNS[run]
    ms.set_context(mode=mode)
    check(name, train(ms, ops, mint_cases(mint.optim)[name], jit=jit))


@pytest.mark.parametrize("kind", ["AdamW", "FusedAdamW"])
@pytest.mark.parametrize("amsgrad, recorded", [(False, "adamw"), (True, "adamw_amsgrad")])
def test_mint_adamw_is_experimental_adamw(kind, amsgrad, recorded):
    """MindSpore 2.10 has no CPU kernel for the primitive of mint.optim.AdamW (and
    FusedAdamW); they compute the AdamW of experimental.optim, so they must give that
    optimizer's recorded numbers."""
    adamw = getattr(mint.optim, kind)
    if amsgrad:
        def make(m):
            return adamw(m.trainable_params(), lr=0.05, betas=(0.8, 0.9), weight_decay=0.2,
                         amsgrad=True)
    else:
        def make(m):
            return adamw(m.trainable_params(), lr=0.05)
    check(recorded, train(ms, ops, make, jit=True))


def _adam_reference(grads, lr, betas, eps, amsgrad):
    w = np.zeros(3)
    m = v = v_max = np.zeros(3)
    for t, g in enumerate(grads, 1):
        m = betas[0] * m + (1 - betas[0]) * g
        v = betas[1] * v + (1 - betas[1]) * g * g
        v_max = np.maximum(v_max, v)
        denom = np.sqrt(v_max if amsgrad else v) / np.sqrt(1 - betas[1] ** t) + eps
        w = w - lr / (1 - betas[0] ** t) * m / denom
    return w


@pytest.mark.parametrize("amsgrad", [False, True])
def test_mint_adam_amsgrad_keeps_the_running_maximum(amsgrad):
    """AMSGrad divides by the running maximum of ``v`` (NumPy reference; MindSpore 2.10's
    mint.optim.Adam never writes its maximum back, so it cannot be the oracle here)."""
    grads = [np.array([1.0, -2.0, 0.5]), np.array([0.1, 0.1, 0.1]),
             np.array([0.01, -0.02, 3.0])]
    w = ms.Parameter(ms.Tensor(np.zeros(3, np.float32)), "w")
    opt = mint.optim.Adam([w], lr=0.1, betas=(0.9, 0.5), amsgrad=amsgrad)
    for g in grads:
        opt((ms.Tensor(g.astype(np.float32)),))
    want = _adam_reference(grads, 0.1, (0.9, 0.5), 1e-8, amsgrad)
    np.testing.assert_allclose(w.asnumpy(), want, rtol=1e-5)


@pytest.mark.parametrize("run", RUNS)
@pytest.mark.parametrize("name", sorted(scheduler_cases(optim)))
def test_scheduler_matches_mindspore(name, run):
    mode, jit = RUNS[run]
    ms.set_context(mode=mode)

    def sgd(m):
        return optim.SGD(m.trainable_params(), lr=0.1, momentum=0.5)

    check(f"sched_{name}", train(ms, ops, sgd, jit=jit, steps=EPOCHS,
                                 scheduler=scheduler_cases(optim)[name]))


@pytest.mark.parametrize("name", sorted(scheduler_cases(optim)))
def test_scheduler_stepped_inside_a_compiled_function_matches_mindspore(name):
    """``scheduler.step()``/``get_last_lr()`` in an @jit function run once a call, when the
    graph runs, as MindSpore's compiled jit_class schedulers (whose GRAPH_MODE rates equal
    these eager recordings; MindSpore 2.10 fails to compile the lambda and warm-restart
    cases)."""
    ms.set_context(mode=ms.GRAPH_MODE)

    def sgd(m):
        return optim.SGD(m.trainable_params(), lr=0.1, momentum=0.5)

    check(f"sched_{name}", train(ms, ops, sgd, steps=EPOCHS, sched_jit=True,
                                 scheduler=scheduler_cases(optim)[name]))


@pytest.mark.parametrize("name", sorted(epoch_cases(optim)))
def test_step_to_epoch_matches_mindspore(name):
    np.testing.assert_allclose(explicit_epochs(ms, optim, epoch_cases(optim)[name]),
                               RECORDED[f"epoch_{name}/lrs"], rtol=1e-6)


@pytest.mark.parametrize("name", sorted(ERRORS))
def test_bad_arguments_raise_what_mindspore_raises(name):
    call = error_cases(ms, optim, mint.optim)[name]
    recorded = ERRORS[name]
    if recorded is None:
        call()
        return
    kind, message = recorded
    with pytest.raises(Exception) as info:
        call()
    assert type(info.value).__name__ == kind
    assert str(info.value) == message


def test_state_parameters_have_mindspores_names():
    """The Parameters each optimizer holds (weights, state, learning rates; what a
    checkpoint of it saves) and a scheduler's ``last_epoch`` are named as MindSpore's."""
    assert state_names(ms, optim, mint.optim) == STATE_NAMES
