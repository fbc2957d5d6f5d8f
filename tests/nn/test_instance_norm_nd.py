"""InstanceNorm1d and InstanceNorm3d (MindSpore 2.10 has no CPU kernel for instance
normalization, so NumPy is the reference): values, the moving statistics written in
training, GRAPH == PYNATIVE, gradients against finite differences, and shape errors."""
import sys
from pathlib import Path

import numpy as np
import pytest

import graphkiln as ms
from graphkiln import Tensor, nn

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from numeric_grad import numeric_grad  # noqa: E402

MODES = {"pynative": ms.PYNATIVE_MODE, "graph": ms.GRAPH_MODE}


def _reference(x, gamma, beta, eps=1e-5):
    axes = tuple(range(2, x.ndim))
    mean = x.mean(axes, keepdims=True)
    var = x.var(axes, keepdims=True)
    shape = (1, -1) + (1,) * (x.ndim - 2)
    return (x - mean) / np.sqrt(var + eps) * gamma.reshape(shape) + beta.reshape(shape)


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("cls,shape", [(nn.InstanceNorm1d, (2, 3, 5)),
                                       (nn.InstanceNorm3d, (2, 3, 2, 3, 2))])
def test_values_and_moving_statistics(cls, shape, mode):
    ms.set_context(mode=MODES[mode])
    r = np.random.default_rng(0)
    x = r.standard_normal(shape).astype(np.float32) * 2 + 1
    layer = cls(3, momentum=0.2, gamma_init=Tensor(np.array([1.0, 2.0, 0.5], np.float32)),
                beta_init=Tensor(np.array([0.0, -1.0, 0.3], np.float32)))
    assert [p.name for p in layer.get_parameters()] == ["mean", "variance", "gamma", "beta"]
    layer.set_train()
    out = layer(Tensor(x)).asnumpy()
    want = _reference(x.astype(np.float64), layer.gamma.asnumpy(), layer.beta.asnumpy())
    np.testing.assert_allclose(out, want, rtol=1e-4, atol=1e-5)
    axes = tuple(range(2, x.ndim))
    n = int(np.prod(shape[2:]))
    batch_mean = x.mean(axes).mean(0)
    batch_var = (x.var(axes) * n / (n - 1)).mean(0)
    np.testing.assert_allclose(layer.moving_mean.asnumpy(), 0.2 * batch_mean, rtol=1e-5,
                               atol=1e-6)
    np.testing.assert_allclose(layer.moving_variance.asnumpy(), 0.8 + 0.2 * batch_var,
                               rtol=1e-5)
    layer.set_train(False)  # evaluation normalises by the instance statistics too
    np.testing.assert_allclose(layer(Tensor(x)).asnumpy(), want, rtol=1e-4, atol=1e-5)


def test_gradient_matches_finite_differences():
    ms.set_context(mode=ms.PYNATIVE_MODE)
    layer = nn.InstanceNorm1d(2, dtype=ms.float64)
    x = np.random.default_rng(1).standard_normal((2, 2, 4))
    cot = Tensor(np.random.default_rng(2).standard_normal((2, 2, 4)))

    def loss(v):
        return (layer(v) * cot).sum()

    np.testing.assert_allclose(ms.grad(loss)(Tensor(x)).asnumpy(), numeric_grad(loss, x),
                               rtol=1e-5, atol=1e-7)


@pytest.mark.parametrize("cls,rank", [(nn.InstanceNorm1d, 3), (nn.InstanceNorm3d, 5)])
def test_wrong_rank_is_a_value_error(cls, rank):
    with pytest.raises(ValueError, match=f"must be {rank}"):
        cls(2)(Tensor(np.ones((2, 2, 3, 3), np.float32)))
