"""``mint.nn`` convolution, pooling and normalization layers against the MindSpore 2.10 CPU
ops they stand for (fixtures/mint_layers.npz, recorded by fixtures/record_mint_layers.py:
MindSpore's own mint layers have no CPU kernel there): outputs in PYNATIVE and GRAPH mode,
gradients in the input and the parameters; PyTorch's parameter names and running
statistics."""
import os
import sys

import numpy as np
import pytest

import graphkiln as ms
from graphkiln import Tensor, mint

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "fixtures"))
from mint_layer_cases import CASES, X2, sens  # noqa: E402

REF = np.load(os.path.join(HERE, "fixtures", "mint_layers.npz"))


def _layer(case):
    layer = case["make"](mint)
    for name, value in case["params"].items():
        getattr(layer, name).set_data(Tensor(value))
    layer.set_train(case["train"])
    return layer


@pytest.mark.parametrize("mode", [ms.PYNATIVE_MODE, ms.GRAPH_MODE])
@pytest.mark.parametrize("name", sorted(CASES))
def test_layer_matches_mindspore_ops(name, mode):
    ms.set_context(mode=mode)
    case = CASES[name]
    got = _layer(case)(Tensor(case["x"])).asnumpy()
    ref = REF[f"{name}/out"]
    assert got.shape == ref.shape and got.dtype == ref.dtype
    np.testing.assert_allclose(got, ref, rtol=1e-4, atol=1e-5)


class _Loss(ms.nn.Cell):
    def __init__(self, layer, s):
        super().__init__()
        self.layer, self.s = layer, s

    def construct(self, x):
        return (self.layer(x) * self.s).sum()


@pytest.mark.parametrize("name", sorted(CASES))
def test_gradients_match_mindspore_ops(name):
    ms.set_context(mode=ms.PYNATIVE_MODE)
    case = CASES[name]
    layer = _layer(case)
    net = _Loss(layer, Tensor(sens(REF[f"{name}/out"].shape)))
    weights = [getattr(layer, p) for p in case["params"]]
    dx, dws = ms.grad(net, grad_position=0, weights=weights)(Tensor(case["x"]))
    np.testing.assert_allclose(dx.asnumpy(), REF[f"{name}/grad0"], rtol=1e-4, atol=1e-4)
    for k, g in enumerate(dws, 1):
        np.testing.assert_allclose(g.asnumpy(), REF[f"{name}/grad{k}"], rtol=1e-4, atol=1e-4)


def test_torch_names_and_running_statistics():
    bn = mint.nn.BatchNorm2d(4, momentum=0.25)
    bn.set_train()
    assert [p.name for p in bn.get_parameters()] == [
        "weight", "bias", "running_mean", "running_var", "num_batches_tracked"]
    x = X2.astype(np.float64)
    for _ in range(2):
        bn(Tensor(X2))
    mean, var = x.mean(axis=(0, 2, 3)), x.var(axis=(0, 2, 3), ddof=1)
    want_mean = 0.25 * mean + 0.75 * 0.25 * mean
    want_var = 0.75 * (0.75 + 0.25 * var) + 0.25 * var
    np.testing.assert_allclose(bn.running_mean.asnumpy(), want_mean, rtol=1e-5)
    np.testing.assert_allclose(bn.running_var.asnumpy(), want_var, rtol=1e-5)
    assert int(bn.num_batches_tracked.asnumpy()) == 2
    bn.set_train(False)
    y = bn(Tensor(X2)).asnumpy()
    want = (x - want_mean.reshape(1, 4, 1, 1)) / np.sqrt(want_var.reshape(1, 4, 1, 1) + 1e-5)
    np.testing.assert_allclose(y, want, rtol=1e-4, atol=1e-5)


def test_cumulative_momentum_and_no_running_stats():
    bn = mint.nn.BatchNorm1d(4, momentum=None)
    bn.set_train()
    a, b = X2[:, :, 0, :].copy(), X2[:, :, 1, :].copy()
    bn(Tensor(a))
    bn(Tensor(b))
    mean = (a.mean(axis=(0, 2)) + b.mean(axis=(0, 2))) / 2
    np.testing.assert_allclose(bn.running_mean.asnumpy(), mean, rtol=1e-5, atol=1e-6)
    free = mint.nn.BatchNorm2d(4, track_running_stats=False)
    free.set_train(False)
    assert free.running_mean is None
    y = free(Tensor(X2)).asnumpy()
    np.testing.assert_allclose(y.mean(axis=(0, 2, 3)), 0.0, atol=1e-5)


def test_unbatched_inputs_and_bad_arguments():
    conv = mint.nn.Conv2d(4, 3, 3, padding=1)
    x = Tensor(X2)
    np.testing.assert_allclose(conv(x[0]).asnumpy(), conv(x).asnumpy()[0], rtol=1e-6)
    with pytest.raises(ValueError, match="not supported for strided"):
        mint.nn.Conv2d(4, 3, 3, stride=2, padding="same")
    with pytest.raises(ValueError, match="padding_mode"):
        mint.nn.Conv2d(4, 3, 3, padding_mode="mirror")
    with pytest.raises(ValueError, match="divisible"):
        mint.nn.Conv2d(4, 3, 3, groups=2)
    with pytest.raises(ValueError, match="expected 4D input"):
        mint.nn.BatchNorm2d(4)(Tensor(X2[0]))
