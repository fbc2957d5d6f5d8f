"""The interface of ``experimental.optim`` and ``mint.optim`` beyond the numbers
(test_optim_vs_mindspore.py): parameter groups, learning-rate Parameters that schedulers
write and compiled steps read without compiling again, import paths."""
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import graphkiln as ms
from graphkiln import nn, ops
from graphkiln.experimental import optim
from graphkiln.experimental.optim.lr_scheduler import StepLR

REPO = Path(__file__).resolve().parents[2]


def weight(name="w", value=(1.0, 2.0)):
    return ms.Parameter(ms.Tensor(np.array(value, np.float32)), name)


def test_param_groups_take_defaults_and_hold_lr_parameters():
    a, b, c = weight("a"), weight("b"), weight("c")
    opt = optim.Adam([{"params": [a, b], "lr": 0.05, "weight_decay": 0.1}, {"params": c}],
                     lr=0.01, betas=(0.8, 0.9))
    first, second = opt.param_groups
    assert isinstance(first["lr"], ms.Parameter) and first["lr"] is opt.lrs[0]
    assert first["lr"].dtype == ms.float32 and first["lr"].name == "learning_rate_group_0"
    assert float(first["lr"].asnumpy()) == np.float32(0.05)
    assert float(second["lr"].asnumpy()) == np.float32(0.01)
    assert (first["weight_decay"], second["weight_decay"]) == (0.1, 0.0)
    assert second["betas"] == (0.8, 0.9) and second["params"] == [c]
    assert list(opt.parameters) == [a, b, c] and opt.group_start_id == [0, 2, 3]
    assert "Parameter Group 1" in repr(opt) and "betas: (0.8, 0.9)" in repr(opt)


def _sgd_step(opt):
    @ms.jit
    def step():
        opt((ms.Tensor(np.ones(2, np.float32)),))
        return True
    return step


def test_scheduler_changes_what_the_compiled_step_uses_without_compiling_again():
    w = weight()
    opt = optim.SGD([w], lr=0.4)
    scheduler = StepLR(opt, step_size=1, gamma=0.5)
    step = _sgd_step(opt)
    step()
    info = ms.compile_info(step)
    for lr in (0.2, 0.1, 0.05):
        scheduler.step()
        before = w.asnumpy().copy()
        step()
        np.testing.assert_allclose(before - w.asnumpy(), [lr, lr], rtol=1e-6)
        assert float(scheduler.get_last_lr()[0].asnumpy()) == np.float32(lr)
    assert ms.compile_info(step) is info
    assert float(scheduler.last_epoch.asnumpy()) == 3.0


@pytest.mark.parametrize("order", ["before", "after"])
def test_a_step_inside_the_compiled_train_step_keeps_its_place(order):
    """The optimizer update before ``scheduler.step()`` uses the old rate, one after it the
    new one, compiled as eagerly (MindSpore 2.10 gives these weights in both modes)."""
    def run(jit):
        w = weight()
        opt = optim.SGD([w], lr=0.4)
        scheduler = StepLR(opt, step_size=1, gamma=0.5)

        def step(g):
            if order == "before":
                scheduler.step()
            opt((g,))
            if order == "after":
                scheduler.step()
            return scheduler.get_last_lr()

        step = ms.jit(step) if jit else step
        return [(float(step(ms.Tensor(np.ones(2, np.float32)))[0].asnumpy()),
                 w.asnumpy().tolist()) for _ in range(3)]

    rates = [0.4, 0.2, 0.1] if order == "after" else [0.2, 0.1, 0.05]
    want = [1.0, 2.0] - np.cumsum(rates)[:, None]
    for compiled in (False, True):
        got = run(compiled)
        np.testing.assert_allclose([lr for lr, _ in got], [0.2, 0.1, 0.05], rtol=1e-6)
        np.testing.assert_allclose([w for _, w in got], want, rtol=1e-6)


def test_a_group_lr_set_to_a_number_is_used():
    w = weight()
    opt = optim.SGD([w], lr=0.4)
    opt.param_groups[0]["lr"] = 0.25
    opt((ms.Tensor(np.ones(2, np.float32)),))
    np.testing.assert_allclose(w.asnumpy(), [0.75, 1.75])


def test_add_param_group_and_scheduler_base_lrs():
    a, b = weight("a"), weight("b")
    opt = optim.Adagrad([a], lr=0.1)
    opt.add_param_group({"params": [b], "lr": 0.3})
    assert [float(g["lr"].asnumpy()) for g in opt.param_groups] == [np.float32(0.1),
                                                                    np.float32(0.3)]
    scheduler = optim.lr_scheduler.ExponentialLR(opt, gamma=0.5)
    scheduler.step()
    got = [float(v.asnumpy()) for v in scheduler.get_last_lr()]
    np.testing.assert_allclose(got, [0.05, 0.15], rtol=1e-6)
    np.testing.assert_allclose([float(g["initial_lr"].asnumpy()) for g in opt.param_groups],
                               [0.1, 0.3], rtol=1e-6)


def test_optimizer_trains_a_cell_in_graph_mode():
    ms.set_context(mode=ms.GRAPH_MODE)
    net = nn.Dense(3, 1, weight_init="ones", bias_init="zeros")
    opt = optim.RMSprop(net.trainable_params(), lr=0.01, momentum=0.5, centered=True)
    x, y = ms.Tensor(np.ones((4, 3), np.float32)), ms.Tensor(np.zeros((4, 1), np.float32))
    grad_fn = ms.value_and_grad(lambda a, b: ops.mean((net(a) - b) ** 2), None,
                                opt.parameters)
    losses = []
    for _ in range(3):
        loss, grads = grad_fn(x, y)
        opt(grads)
        losses.append(float(loss.asnumpy()))
    assert losses[0] == 9.0 and losses[2] < losses[1] < losses[0]


def test_import_paths(tmp_path):
    assert ms.experimental.optim.AdamW is optim.AdamW
    assert ms.mint.optim.SGD.__module__ == "graphkiln.mint.optim.sgd"
    script = ("from mindspore.experimental.optim.lr_scheduler import StepLR\n"
              "from mindspore.experimental import optim\n"
              "from mindspore.mint.optim import AdamW\n"
              "import mindspore as ms\n"
              "print(StepLR is optim.lr_scheduler.StepLR, AdamW is ms.mint.optim.AdamW)\n")
    (tmp_path / "imports.py").write_text(script)
    env = dict(os.environ, PYTHONPATH=str(REPO))
    out = subprocess.run([sys.executable, "-m", "graphkiln", "run", "imports.py"],
                         cwd=tmp_path, capture_output=True, text=True, env=env, timeout=60)
    assert out.stdout.split() == ["True", "True"], out.stderr[-2000:]


@pytest.mark.parametrize("name", ["Adam", "AdamW", "ASGD", "NAdam", "Rprop", "SGD"])
def test_a_group_added_later_trains_as_one_given_at_construction(name):
    """add_param_group after construction gives the new weights their state (exp_avg.<w>,
    mu_<w>...): the run equals the optimizer built with both groups."""
    kind = getattr(optim, name)
    kwargs = {"lr": 0.1}
    grads = [(ms.Tensor(np.array(g, np.float32)), ms.Tensor(np.array(h, np.float32)))
             for g, h in (([1.0, -2.0], [0.5, 0.5]), ([0.3, 0.1], [-1.0, 2.0]))]
    results = []
    for later in (False, True):
        a, b = weight("a"), weight("b", (3.0, -1.0))
        second = {"params": [b], "lr": 0.05}
        if later:
            opt = kind([a], **kwargs)
            opt.add_param_group(second)
        else:
            opt = kind([{"params": [a]}, second], **kwargs)
        for g in grads:
            opt(g)
        results.append((a.asnumpy(), b.asnumpy()))
        assert isinstance(opt.parameters, ms.ParameterTuple) and len(opt.parameters) == 2
    np.testing.assert_array_equal(results[0], results[1])
    assert not np.array_equal(results[1][1], [3.0, -1.0])
