"""graphkiln against MindSpore 2.10's recorded behaviour (fixtures/parity_nn.json, made by
fixtures/record_parity_nn.py): smooth-L1 with ``beta <= 0``, the learning-rate Parameters of
optimizer groups without their own ``lr``, and ``repr()`` of the 1-D convolutions."""
import builtins
import json
import re
from pathlib import Path

import numpy as np
import pytest

import graphkiln as ms
from graphkiln import Tensor, nn, ops

REF = json.loads((Path(__file__).parent / "fixtures" / "parity_nn.json").read_text())
A = Tensor(np.array([0.5, 1.0, -2.0], np.float32))
B = Tensor(np.array([0.0, 1.5, 0.0], np.float32))


def _smooth_l1(source: str):
    """The recorded case: a Cell or primitive, or ``ops.smooth_l1_loss`` in a Cell."""
    if not source.startswith("lambda"):
        return eval(source, {"nn": nn, "ops": ops})  # noqa: S307 - the fixture's sources
    beta = float(re.search(r"beta=([^,)]+)", source).group(1))
    reduction = re.search(r"reduction='(\w+)'", source)
    reduction = reduction.group(1) if reduction else "none"

    class Net(nn.Cell):
        def construct(self, x, y):
            return ops.smooth_l1_loss(x, y, beta=beta, reduction=reduction)
    return Net()


@pytest.mark.parametrize("key", sorted(REF["smooth_l1"]))
def test_smooth_l1_beta(key):
    mode = key.split("/")[1]
    want = REF["smooth_l1"][key]
    ms.set_context(mode=getattr(ms, mode))
    try:
        if want.get("raised_at") == "construct":
            with pytest.raises(getattr(builtins, want["error"])) as info:
                _smooth_l1(want["source"])
        else:
            fn = _smooth_l1(want["source"])  # MindSpore accepts beta <= 0 here
            if "value" in want:
                np.testing.assert_allclose(fn(A, B).asnumpy(), want["value"], rtol=1e-6)
                return
            with pytest.raises(getattr(builtins, want["error"])) as info:
                fn(A, B)
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)
    if "L1LossExt" in want["message"]:
        assert "L1LossExt" in str(info.value)
    else:
        assert want["message"] in str(info.value)


_LAYOUTS = {"first_without": [None, 0.5], "second_without": [0.5, None],
            "all_without": [None, None], "middle_without": [0.2, None, 0.3],
            "same_values": [0.1, 0.1]}


@pytest.mark.parametrize("key", sorted(REF["lr_groups"]))
def test_group_learning_rate_parameters(key):
    layout, opt_name = key.split("/")
    want = REF["lr_groups"][key]
    net = nn.SequentialCell([nn.Dense(2, 2) for _ in _LAYOUTS[layout]])
    groups = []
    for cell, lr in zip(net, _LAYOUTS[layout]):
        groups.append({"params": cell.trainable_params(), **({} if lr is None else {"lr": lr})})
    kw = {"momentum": 0.9} if opt_name == "Momentum" else {}
    opt = getattr(nn, opt_name)(groups, learning_rate=0.1, **kw)
    assert opt.is_group_lr == want["is_group_lr"]
    lrs = [opt.get_lr_parameter(p) for p in net.trainable_params()]
    assert [p.name for p in lrs] == want["per_param"]
    # MindSpore lists the rate of every weight; graphkiln each distinct Parameter once
    distinct = list(opt.learning_rate) if want["is_group_lr"] else [opt.learning_rate]
    assert [p.name for p in distinct] == list(dict.fromkeys(want["names"]))
    values = dict(zip(want["names"], want["values"]))
    np.testing.assert_allclose([float(p.asnumpy()) for p in distinct],
                               [values[p.name] for p in distinct], rtol=1e-7)


@pytest.mark.parametrize("opt_name", sorted(REF["experimental_lr_groups"]))
def test_experimental_group_learning_rates(opt_name):
    from graphkiln.experimental import optim
    want = REF["experimental_lr_groups"][opt_name]
    net = nn.SequentialCell([nn.Dense(2, 2) for _ in range(3)])
    groups = [{"params": net[0].trainable_params()},
              {"params": net[1].trainable_params(), "lr": 0.5},
              {"params": net[2].trainable_params()}]
    opt = getattr(optim, opt_name)(groups, lr=0.1)
    opt.add_param_group({"params": [ms.Parameter(Tensor([1.0]), name="extra")]})
    assert [g["lr"].name for g in opt.param_groups] == want["names"]
    np.testing.assert_allclose([float(g["lr"].asnumpy()) for g in opt.param_groups],
                               want["values"], rtol=1e-7)


def _normalised(text: str) -> str:
    """Initializers as their class name: MindSpore prints the object's address."""
    text = re.sub(r"<mindspore\.common\.initializer\.(\w+) object at 0x[0-9a-f]+>", r"\1", text)
    return re.sub(r"\b(HeUniform|Uniform|Normal|One|Zero)\([^)]*\)", r"\1", text)


@pytest.mark.parametrize("name", sorted(REF["conv_reprs"]))
def test_conv1d_repr(name):
    want = REF["conv_reprs"][name]
    cell = eval(want["source"], {"nn": nn})  # noqa: S307 - the fixture's constant sources
    for attr in ("padding", "kernel_size", "stride", "dilation"):
        assert repr(getattr(cell, attr)) == want[attr], attr
    assert _normalised(repr(cell)) == _normalised(want["repr"])
