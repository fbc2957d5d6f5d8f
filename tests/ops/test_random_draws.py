"""ops.randint/randint_like/rand_like/randn_like/bernoulli/gamma/poisson/laplace/
random_categorical/multinomial_with_replacement, the in-place fills (x.uniform_,
normal_, random_, exponential_, bernoulli_) and mint's random functions: shapes and dtypes
as MindSpore 2.10 gives them (fixtures/record_random_draws.py; the numbers differ by design,
graphkiln draws NumPy's streams), ranges and moments of large samples, seed
reproducibility, GRAPH == PYNATIVE for fixed seeds, and MindSpore's error types."""
import json
import re
import sys
from pathlib import Path

import numpy as np
import pytest

import graphkiln as ms
from graphkiln import Tensor, nn, ops

HERE = Path(__file__).resolve().parent / "fixtures"
sys.path.insert(0, str(HERE))
from random_draws_cases import calls, errors, mint_calls  # noqa: E402

RECORDED = json.loads((HERE / "random_draws.json").read_text())
CALLS = {**calls(ms, ops), **mint_calls(ms)}
# MindSpore 2.10 has no CPU kernel for these; the shapes are its documented ones
DOCUMENTED = {"gamma": ((3, 2, 2), "Float32"), "gamma_bcast": ((3, 2, 3), "Float32"),
              "poisson": ((4, 2), "Float32"),
              "exponential_": ((4,), "Float32"), "bernoulli_": ((4,), "Float32"),
              "mint_normal_tensors": ((2, 3), "Float32"), "mint_normal_size": ((2, 5), "Float32"),
              "mint_bernoulli": ((3, 2), "Float32"), "mint_multinomial": ((2, 3), "Int64")}
# MindSpore 2.10 refuses these inputs, and graphkiln refuses them the same way
REFUSED = {"bernoulli_tensor_p": TypeError}


@pytest.mark.parametrize("name", sorted(CALLS))
def test_shape_and_dtype_match_mindspore(name):
    ms.set_context(mode=ms.PYNATIVE_MODE)
    rec = RECORDED["calls"][name]
    if name in REFUSED:
        with pytest.raises(REFUSED[name], match=re.escape(rec["unsupported"])):
            CALLS[name]()
        return
    if "unsupported" in rec:
        shape, dtype = DOCUMENTED[name]
    else:
        shape, dtype = tuple(rec["shape"]), rec["dtype"]
    y = CALLS[name]()
    assert (tuple(y.shape), str(y.dtype)) == (shape, dtype)


@pytest.mark.parametrize("name", sorted(RECORDED["errors"]))
def test_errors_have_mindspore_types(name):
    ms.set_context(mode=ms.PYNATIVE_MODE)
    with pytest.raises(Exception) as info:
        errors(ms, ops)[name]()
    assert type(info.value).__name__ == RECORDED["errors"][name]


def _f32(a):
    return Tensor(np.asarray(a, np.float32))


N = 40000


def test_integer_draws_cover_the_range_uniformly():
    v = ops.randint(-3, 4, (N,), seed=1).asnumpy()
    assert v.min() == -3 and v.max() == 3
    np.testing.assert_allclose(np.bincount(v + 3) / N, 1 / 7, atol=0.01)
    w = ops.randint_like(Tensor(np.zeros(N, np.int32)), 5, 8).asnumpy()
    assert set(np.unique(w)) == {5, 6, 7}
    r = Tensor(np.zeros(N, np.float32)).random_(2, 6).asnumpy()
    assert set(np.unique(r)) == {2.0, 3.0, 4.0, 5.0}
    top = Tensor(np.zeros(N, np.int8)).random_().asnumpy()
    assert top.min() >= 0 and top.max() == 127
    wide = Tensor(np.zeros(N, np.int32)).random_().asnumpy()  # [0, 2**31 - 1]
    assert wide.min() >= 0 and len(np.unique(wide)) > 0.99 * N
    assert abs(wide.mean() / 2 ** 30 - 1) < 0.02 and (wide % 2).mean() > 0.4  # low bits vary


@pytest.mark.parametrize("draw,mean,var", [
    (lambda: ops.rand_like(Tensor(np.zeros(N, np.float32))), 0.5, 1 / 12),
    (lambda: ops.randn_like(Tensor(np.zeros(N, np.float32))), 0.0, 1.0),
    (lambda: ops.bernoulli(Tensor(np.zeros(N, np.float32)), 0.3), 0.3, 0.21),
    (lambda: ops.gamma((N,), _f32(3.0), _f32(2.0)), 1.5, 0.75),
    (lambda: ops.poisson((N,), _f32(4.0)), 4.0, 4.0),
    (lambda: ops.laplace((N,), _f32(1.0), _f32(0.5)), 1.0, 0.5),
    (lambda: Tensor(np.zeros(N, np.float32)).uniform_(2.0, 5.0), 3.5, 0.75),
    (lambda: Tensor(np.zeros(N, np.float32)).normal_(1.0, 2.0), 1.0, 4.0),
    (lambda: Tensor(np.zeros(N, np.float32)).exponential_(2.0), 0.5, 0.25),
    (lambda: Tensor(np.zeros(N, np.float32)).bernoulli_(0.6), 0.6, 0.24),
    (lambda: Tensor(np.zeros(N, np.float32)).uniform(-1.0, 1.0), 0.0, 1 / 3),
    (lambda: _f32(np.full(N, 0.25)).bernoulli(), 0.25, 0.1875),
], ids=["rand_like", "randn_like", "bernoulli", "gamma", "poisson", "laplace", "uniform_",
        "normal_", "exponential_", "bernoulli_", "uniform", "bernoulli_method"])
def test_moments(draw, mean, var):
    ms.set_context(mode=ms.PYNATIVE_MODE)
    v = draw().asnumpy().astype(np.float64)
    assert abs(v.mean() - mean) < 4 * np.sqrt(var / N) + 1e-9
    assert abs(v.var() - var) < 0.05 * var


def test_ranges_of_fills():
    u = Tensor(np.zeros(N, np.float32)).uniform_(2.0, 3.0).asnumpy()
    assert u.min() >= 2.0 and u.max() < 3.0
    assert (Tensor(np.zeros(N, np.float32)).exponential_().asnumpy() >= 0).all()
    p = _f32(np.tile(np.float32([0.1, 0.9]), (N, 1)))  # MindSpore broadcasts no p
    b = ops.bernoulli(Tensor(np.zeros((N, 2), np.float32)), p).asnumpy()
    np.testing.assert_allclose(b.mean(0), [0.1, 0.9], atol=0.01)


def test_categorical_frequencies_follow_the_weights():
    logits = np.log(np.array([[0.1, 0.2, 0.7], [0.5, 0.5, 1e-9]], np.float32))
    s = ops.random_categorical(_f32(logits), 20000, seed=3).asnumpy()
    for row, p in zip(s, np.exp(logits)):
        np.testing.assert_allclose(np.bincount(row, minlength=3) / 20000, p, atol=0.015)
    m = ops.multinomial_with_replacement(_f32([[0.0, 9.0, 3.0]]), 7, 0, 20000,
                                         True).asnumpy()
    np.testing.assert_allclose(np.bincount(m[0], minlength=3) / 20000, [0, 0.75, 0.25],
                               atol=0.015)
    once = ops.multinomial_with_replacement(_f32([[1.0, 1.0, 1.0, 1.0]]), 1, 2, 4).asnumpy()
    assert sorted(once[0]) == [0, 1, 2, 3]  # without replacement every class once


def test_seeds_fix_the_draws():
    ms.set_seed(4)
    a = ops.randint(0, 100, (50,), seed=9).asnumpy()
    assert not np.array_equal(a, ops.randint(0, 100, (50,), seed=9).asnumpy())  # counter
    ms.set_seed(4)
    np.testing.assert_array_equal(a, ops.randint(0, 100, (50,), seed=9).asnumpy())
    assert not np.array_equal(a, ops.randint(0, 100, (50,), seed=10).asnumpy())
    x = Tensor(np.zeros(50, np.float32))
    first, second = ops.rand_like(x).asnumpy(), ops.rand_like(x).asnumpy()
    assert not np.array_equal(first, second)  # seed None: fresh numbers every call
    ms.set_seed(5)
    again = ops.rand_like(x).asnumpy()
    ms.set_seed(5)
    np.testing.assert_array_equal(again, ops.rand_like(x).asnumpy())
    m1 = ops.multinomial_with_replacement(_f32([[1.0, 2.0, 3.0]]), 4, 1, 30, True).asnumpy()
    m2 = ops.multinomial_with_replacement(_f32([[1.0, 2.0, 3.0]]), 4, 1, 30, True).asnumpy()
    np.testing.assert_array_equal(m1, m2)


def test_generator_argument_seeds_and_advances():
    g = ms.Generator()
    g.manual_seed(11)
    a = Tensor(np.zeros(8, np.float32)).uniform_(generator=g).asnumpy()
    b = Tensor(np.zeros(8, np.float32)).uniform_(generator=g).asnumpy()
    assert not np.array_equal(a, b)
    g.manual_seed(11)
    np.testing.assert_array_equal(a, Tensor(np.zeros(8, np.float32)).uniform_(
        generator=g).asnumpy())


def test_graph_equals_pynative_for_fixed_seeds():
    def draws(x):
        return (ops.randint(0, 9, (3, 4), seed=2), ops.laplace((5,), _f32(0.0), _f32(1.0), 3),
                ops.randn_like(x, seed=4), ops.random_categorical(x, 3, 5))

    x = Tensor(np.zeros((2, 6), np.float32))
    ms.set_context(mode=ms.PYNATIVE_MODE)
    ms.set_seed(8)
    eager = [t.asnumpy() for t in draws(x)]
    ms.set_seed(8)
    graph = [t.asnumpy() for t in ms.jit(draws)(x)]
    for e, g in zip(eager, graph):
        np.testing.assert_array_equal(e, g)


def test_inplace_fill_inside_a_graph_cell():
    class Net(nn.Cell):
        def construct(self, x):
            x.uniform_(3.0, 4.0)
            return x * 2

    ms.set_context(mode=ms.GRAPH_MODE)
    x = Tensor(np.zeros((4, 5), np.float32))
    out = Net()(x).asnumpy()
    assert (out >= 6).all() and (out < 8).all()
    np.testing.assert_allclose(x.asnumpy() * 2, out)
    ms.set_context(mode=ms.PYNATIVE_MODE)


def test_argument_errors():
    with pytest.raises(ValueError, match="high"):
        ops.randint(3, 3, (2,))
    with pytest.raises(ValueError, match="from_"):
        Tensor(np.zeros(2, np.float32)).uniform_(2.0, 1.0)
    with pytest.raises(ValueError, match="lambd"):
        Tensor(np.zeros(2, np.float32)).exponential_(0)
    with pytest.raises(ValueError, match="'p'"):
        ops.bernoulli(Tensor(np.zeros(2, np.float32)), 1.5)
    with pytest.raises(TypeError, match="from_"):
        Tensor(np.zeros(2, np.float32)).uniform(2.0, 1.0)


def test_generator_inside_a_graph_draws_fresh_numbers_and_advances_it():
    g = ms.Generator()
    g.manual_seed(5)

    class Net(nn.Cell):
        def construct(self, x):
            x.uniform_(generator=g)
            return x + 0

    ms.set_context(mode=ms.GRAPH_MODE)
    net = Net()
    a = net(Tensor(np.zeros(16, np.float32))).asnumpy()
    b = net(Tensor(np.zeros(16, np.float32))).asnumpy()
    ms.set_context(mode=ms.PYNATIVE_MODE)
    assert not np.array_equal(a, b)
    assert g.get_state().asnumpy().tolist() == [5, 2]


def test_mint_random_functions():
    ms.set_context(mode=ms.PYNATIVE_MODE)
    v = ms.mint.randint(3, 8, (N,)).asnumpy()
    assert v.min() == 3 and v.max() == 7 and v.dtype == np.int64
    z = ms.mint.normal(Tensor(np.full((N,), 2.0, np.float32)), 0.5).asnumpy()
    assert abs(z.mean() - 2.0) < 0.02 and abs(z.std() - 0.5) < 0.02
    picks = ms.mint.multinomial(Tensor(np.ones((50, 6), np.float32)), 6).asnumpy()
    assert all(sorted(row) == list(range(6)) for row in picks)  # no replacement by default
    g = ms.Generator()
    g.manual_seed(3)
    a = ms.mint.rand(5, generator=g).asnumpy()
    g.manual_seed(3)
    np.testing.assert_array_equal(a, ms.mint.rand(5, generator=g).asnumpy())
    with pytest.raises(ValueError, match="size"):
        ms.mint.normal(0.0, 1.0)
    with pytest.raises(TypeError, match="high"):
        ms.mint.randint(1, 2, 3, (2,))
