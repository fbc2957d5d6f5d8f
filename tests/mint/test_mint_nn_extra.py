"""``mint.nn`` activation, padding and loss layers: against MindSpore 2.10 where its CPU
kernels exist (fixtures/mint_extra.npz, recorded by fixtures/record_mint_layers.py: outputs
and input gradients), else against NumPy with PyTorch's formulas (MindSpore 2.10 CPU raises
"The kernel ... unregistered" for those, recorded in the fixture too)."""
import os
import sys

import numpy as np
import pytest

import graphkiln as ms
from graphkiln import Tensor, mint

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "fixtures"))
from mint_extra_cases import EXTRA  # noqa: E402
from mint_layer_cases import sens  # noqa: E402

REF = np.load(os.path.join(HERE, "fixtures", "mint_extra.npz"))
RECORDED = sorted(n for n in EXTRA if f"{n}/out" in REF.files)
REFUSED = sorted(n for n in EXTRA if f"{n}/error" in REF.files)


def _softplus(x):
    return np.logaddexp(0.0, x)


def _log_softmax(x, axis):
    return x - np.log(np.exp(x).sum(axis=axis, keepdims=True))


def _pick(logp, t):
    """``logp[n, t[n, ...], ...]`` of class-axis-1 log-probabilities."""
    return np.take_along_axis(logp, t[:, None].astype(np.int64), 1)[:, 0]


def _cross_entropy(x, t, smoothing=0.1):
    logp = _log_softmax(x, 1)
    return np.mean((1 - smoothing) * -_pick(logp, t) - smoothing * logp.mean(axis=1))


def _cosine(a, b, y, margin=0.2):
    cos = (a * b).sum(-1) / np.sqrt((a * a).sum(-1) * (b * b).sum(-1))
    return np.mean(np.where(y > 0, 1 - cos, np.maximum(cos - margin, 0)))


# PyTorch's definitions of the layers MindSpore 2.10 CPU cannot run
NUMPY = {
    "elu": lambda x: np.where(x > 0, x, 0.7 * np.expm1(x)),
    "mish": lambda x: x * np.tanh(_softplus(x)),
    "selu": lambda x: 1.0507009873554805 * np.where(x > 0, x, 1.6732632423543772 * np.expm1(x)),
    "logsigmoid": lambda x: -_softplus(-x),
    "threshold": lambda x: np.where(x > 0.2, x, -1.5),
    "zero_pad2d": lambda x: np.pad(x, ((0, 0), (0, 0), (0, 1), (1, 2))),
    "constant_pad1d": lambda x: np.pad(x, ((0, 0), (0, 0), (0, 0), (2, 2)),
                                       constant_values=0.5),
    "reflection_pad2d": lambda x: np.pad(x, ((0, 0), (0, 0), (1, 1), (1, 1)), "reflect"),
    "replication_pad3d": lambda x: np.pad(x, ((0, 0), (1, 1), (0, 1), (1, 0)), "edge"),
    "cross_entropy": _cross_entropy,
    "nll": lambda x, t: -_pick(x, t).sum(),
    "kl_div": lambda x, p: (p * (np.log(p) - x)).sum() / x.shape[0],
    "kl_div_log_target": lambda x, t: (np.exp(t) * (t - x)).sum(),
    "soft_margin": lambda x, y: _softplus(-y * x).mean(),
    "cosine_embedding": _cosine,
}


@pytest.mark.parametrize("mode", [ms.PYNATIVE_MODE, ms.GRAPH_MODE])
@pytest.mark.parametrize("name", RECORDED)
def test_matches_mindspore(name, mode):
    ms.set_context(mode=mode)
    make, inputs = EXTRA[name]
    layer = make(mint)
    xs = [Tensor(a) for a in inputs]
    y = layer(*xs)
    np.testing.assert_allclose(y.asnumpy(), REF[f"{name}/out"], rtol=1e-5, atol=1e-6)
    if mode == ms.PYNATIVE_MODE:
        s = Tensor(sens(y.shape))
        g = ms.grad(lambda *a: (layer(*a) * s).sum())(*xs)
        np.testing.assert_allclose(g.asnumpy(), REF[f"{name}/grad0"], rtol=1e-5, atol=1e-6)


def test_every_case_is_checked():
    assert sorted(REFUSED) == sorted(NUMPY), (REFUSED, sorted(NUMPY))


@pytest.mark.parametrize("name", REFUSED)
def test_matches_numpy_where_mindspore_has_no_cpu_kernel(name):
    make, inputs = EXTRA[name]
    got = make(mint)(*[Tensor(a) for a in inputs]).asnumpy()
    want = NUMPY[name](*[a.astype(np.float64) for a in inputs])
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5)


def test_prelu_weight_and_bad_padding():
    layer = mint.nn.PReLU(4)
    assert [p.name for p in layer.get_parameters()] == ["weight"]
    with pytest.raises(ValueError, match="tuple of 4 ints"):
        mint.nn.ZeroPad2d((1, 2, 3))
