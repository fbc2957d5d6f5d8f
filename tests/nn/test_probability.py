"""nn.probability (distributions and bijectors) against MindSpore 2.10's outputs
(fixtures/record_probability.py), in GRAPH_MODE and PYNATIVE_MODE, plus its argument
checks and gradients by finite differences."""
import json
import os
import sys

import numpy as np
import pytest

import graphkiln as ms
from graphkiln import Tensor, nn

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "fixtures"))
sys.path.insert(0, os.path.dirname(HERE))
from numeric_grad import numeric_grad  # noqa: E402
from probability_cases import run, sample_shapes  # noqa: E402

msd = nn.probability.distribution
msb = nn.probability.bijector
EXPECTED = dict(np.load(os.path.join(HERE, "fixtures", "probability.npz")))


@pytest.fixture(autouse=True)
def _restore_mode():
    mode = ms.get_context("mode")
    yield
    ms.set_context(mode=mode)


@pytest.mark.parametrize("mode", [ms.GRAPH_MODE, ms.PYNATIVE_MODE])
def test_functions_match_mindspore(mode):
    got = run(ms, mode)
    assert sorted(got) == sorted(EXPECTED)
    for key, want in EXPECTED.items():
        assert got[key].shape == want.shape, key
        assert got[key].dtype == want.dtype, key
        np.testing.assert_allclose(got[key], want, rtol=2e-5, atol=1e-5, err_msg=key)


@pytest.mark.parametrize("mode", [ms.GRAPH_MODE, ms.PYNATIVE_MODE])
def test_sample_shapes_match_mindspore(mode):
    with open(os.path.join(HERE, "fixtures", "probability_samples.json")) as f:
        want = {k: tuple(v) for k, v in json.load(f).items()}
    got = {k: (list(s), d) for k, (s, d) in sample_shapes(ms, mode).items()}
    assert got == {k: (list(s), d) for k, (s, d) in want.items()}


def test_samples_follow_the_distribution():
    ms.set_context(mode=ms.PYNATIVE_MODE)
    n = msd.Normal(np.array([1.0, -2.0], np.float32), np.array([0.5, 2.0], np.float32),
                   seed=3).sample((4000,)).asnumpy()
    np.testing.assert_allclose(n.mean(0), [1.0, -2.0], atol=0.1)
    np.testing.assert_allclose(n.std(0), [0.5, 2.0], rtol=0.06)
    b = msd.Bernoulli(0.3, seed=1).sample((4000,)).asnumpy()
    assert set(np.unique(b)) <= {0, 1} and abs(b.mean() - 0.3) < 0.03
    c = msd.Categorical(np.array([0.1, 0.2, 0.7], np.float32), seed=2).sample((4000,))
    np.testing.assert_allclose(np.bincount(c.asnumpy(), minlength=3) / 4000,
                               [0.1, 0.2, 0.7], atol=0.03)
    u = msd.Uniform(-1.0, 3.0, seed=4).sample((4000,)).asnumpy()
    assert u.min() >= -1.0 and u.max() < 3.0 and abs(u.mean() - 1.0) < 0.1
    e = msd.Exponential(2.0, seed=5).sample((4000,)).asnumpy()
    assert e.min() >= 0.0 and abs(e.mean() - 0.5) < 0.05
    # (MindSpore's CPU has no Gamma/Poisson sampling kernels: checked by their moments)
    g = msd.Gamma(np.array([3.0], np.float32), np.array([2.0], np.float32), seed=6)
    g = g.sample((4000,)).asnumpy()
    assert abs(g.mean() - 1.5) < 0.06 and abs(g.var() - 0.75) < 0.1
    bt = msd.Beta(np.array([2.0], np.float32), np.array([6.0], np.float32), seed=7)
    bt = bt.sample((4000,)).asnumpy()
    assert bt.min() > 0 and bt.max() < 1 and abs(bt.mean() - 0.25) < 0.02
    p = msd.Poisson(np.array([3.0], np.float32), seed=8).sample((4000,)).asnumpy()
    assert abs(p.mean() - 3.0) < 0.1 and np.all(p == np.floor(p))


def test_log_prob_gradient_by_finite_differences():
    ms.set_context(mode=ms.GRAPH_MODE)
    x = Tensor(np.array([0.3, -1.2, 2.0], np.float32))

    class Loss(nn.Cell):
        def __init__(self):
            super().__init__()
            self.normal = msd.Normal()

        def construct(self, mean):
            return -self.normal.log_prob(x, mean, Tensor(np.float32(1.5))).sum()

    mean = np.array([0.1, 0.2, -0.4], np.float32)
    grad = ms.grad(Loss())(Tensor(mean)).asnumpy()
    want = numeric_grad(lambda m: Loss()(Tensor(m.asnumpy().astype(np.float32))),
                        mean.astype(np.float64), eps=1e-2)
    np.testing.assert_allclose(grad, want, rtol=1e-3, atol=1e-4)


def test_bijector_called_on_a_distribution_transforms_it():
    t = msb.Exp()(msd.Normal(0.0, 1.0))
    assert isinstance(t, msd.TransformedDistribution) and not t.is_linear_transformation
    with pytest.raises(ValueError, match="non-linear"):
        t.mean()


@pytest.mark.parametrize("make, error, text", [
    (lambda: msd.Normal(0.0, -1.0), ValueError, "Standard deviation must be greater"),
    (lambda: msd.Bernoulli(1.5), ValueError, "Probabilities must be less than one"),
    (lambda: msd.Uniform(2.0, 1.0), ValueError, "low must be less than high"),
    (lambda: msd.Categorical([0.5, 0.6]), ValueError, "should sum to one"),
    (lambda: msd.Normal(0.0, 1.0, dtype=ms.int32), TypeError, "dtype"),
    (lambda: msd.Normal(True, 1.0), TypeError, "Bool"),
    (lambda: msd.Exponential(1.0, seed=-1), ValueError, "seed"),
    (lambda: msb.GumbelCDF(0.0, -1.0), ValueError, "scale must be greater"),
    (lambda: msb.PowerTransform(-1.0), ValueError, "Power must be greater"),
    (lambda: msb.Invert(msd.Normal()), TypeError, "Bijector"),
    (lambda: msd.Poisson(2.0), TypeError, "scalar"),
])
def test_bad_construction(make, error, text):
    with pytest.raises(error, match=text):
        make()


@pytest.mark.parametrize("mode", [ms.GRAPH_MODE, ms.PYNATIVE_MODE])
def test_bad_calls(mode):
    ms.set_context(mode=mode)
    x = Tensor(np.array([0.5], np.float32))
    with pytest.raises(TypeError, match="sd must be subclass of Tensor"):
        msd.Normal(0.0).log_prob(x)  # no sd at construction nor call
    with pytest.raises(TypeError, match="must be a Tensor"):
        msd.Normal(0.0, 1.0).log_prob(0.5)
    with pytest.raises(NotImplementedError, match="cdf is not implemented for Laplace"):
        msd.Laplace(0.0, 1.0).cdf(x)
    with pytest.raises(ValueError, match="Expected dist input is Normal"):
        msd.Normal(0.0, 1.0).kl_loss("Uniform", x, x)
    with pytest.raises(TypeError, match="must be a tuple"):
        msd.Normal(0.0, 1.0).sample(3)
    with pytest.raises(TypeError, match="Float"):
        msb.Exp().forward(Tensor(np.array([1], np.int32)))
    with pytest.raises(ValueError, match="mean is undefined for Cauchy"):
        msd.Cauchy(0.0, 1.0).mean()


def test_repr_as_mindspore_prints_it():
    # texts printed by MindSpore 2.10 for the same objects
    assert repr(msd.Normal(0.0, 1.0)) == "Normal(mean = 0.0, standard deviation = 1.0)"
    assert repr(msd.Normal(np.zeros(3, np.float32), 1.0)) == "Normal(batch_shape = (3,))"
    assert repr(msb.Exp()) == "Exp(exp)"


def test_dispatch_by_name_and_properties():
    d = msd.Normal(np.array([0.0, 1.0], np.float32), 2.0)
    assert d.get_dist_type() == "Normal" and d.batch_shape == (2,)
    assert not d.is_scalar_batch and msd.Normal(0.0, 1.0).is_scalar_batch
    mean, sd = d.get_dist_args()
    np.testing.assert_allclose(sd.asnumpy(), [2.0])
    np.testing.assert_allclose(d("mean").asnumpy(), [0.0, 1.0])
    assert msd.Categorical(np.full((4, 3), 1 / 3, np.float32)).broadcast_shape == (4,)
    assert msb.Invert(msb.Exp()).name == "InvertExp"
