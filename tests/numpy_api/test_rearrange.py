"""``mindspore.numpy`` rearrangements (roll, repeat, diag, tensordot, split, pad) against NumPy,
eagerly and inside a compiled cell, with gradients by finite differences."""
import numpy as np
import pytest

import graphkiln as ms
import graphkiln.numpy as mnp
from graphkiln import nn, ops

RNG = np.random.default_rng(0)
X = RNG.standard_normal((3, 4)).astype(np.float32)
Y = RNG.standard_normal((4, 2, 3)).astype(np.float32)

CASES = [
    ("roll flat", lambda m, a: m.roll(a, 2), X),
    ("roll axes", lambda m, a: m.roll(a, (1, -1), axis=(0, 1)), X),
    ("repeat flat", lambda m, a: m.repeat(a, 2), X),
    ("repeat counts", lambda m, a: m.repeat(a, [1, 0, 2], axis=0), X),
    ("diag 2d", lambda m, a: m.diag(a, 1), X),
    ("diag 2d below", lambda m, a: m.diag(a, -2), X),
    ("diag 1d", lambda m, a: m.diag(a[0], -1), X),
    ("tensordot int", lambda m, a: m.tensordot(a, a.T if m is np else a.T, 1), X),
    ("tensordot pairs", lambda m, a: m.tensordot(a, a, axes=([0], [0])), X),
    ("tensordot outer", lambda m, a: m.tensordot(a[0], a[1], 0), X),
    ("pad constant", lambda m, a: m.pad(a, ((1, 2), (0, 1)), constant_values=((5, 6), (7, 8))), X),
    ("pad reflect", lambda m, a: m.pad(a, ((2, 1), (3, 2)), mode="reflect"), X),
    ("pad symmetric odd", lambda m, a: m.pad(a, 2, mode="symmetric", reflect_type="odd"), X),
    ("pad edge", lambda m, a: m.pad(a, ((1, 1), (2, 0)), mode="edge"), X),
    ("pad wrap", lambda m, a: m.pad(a, ((0, 2), (1, 1)), mode="wrap"), X),
    ("pad maximum", lambda m, a: m.pad(a, 1, mode="maximum", stat_length=2), X),
    ("pad minimum", lambda m, a: m.pad(a, ((1, 0), (0, 2)), mode="minimum"), X),
    ("pad mean", lambda m, a: m.pad(a, 2, mode="mean"), Y),
    ("pad linear_ramp", lambda m, a: m.pad(a, ((2, 1), (1, 3)), mode="linear_ramp",
                                          end_values=((1, -1), (2, 0))), X),
]


@pytest.mark.parametrize("name,fn,x", CASES, ids=[c[0] for c in CASES])
def test_matches_numpy_eager_and_compiled(name, fn, x):
    want = fn(np, x)
    got = fn(mnp, ms.Tensor(x)).asnumpy()
    np.testing.assert_allclose(got, want, rtol=1e-6, atol=1e-6)
    compiled = ms.jit(lambda a: fn(mnp, a))
    np.testing.assert_allclose(compiled(ms.Tensor(x)).asnumpy(), want, rtol=1e-6, atol=1e-6)


def test_split_sections_tuple_indices_list():
    x = ms.Tensor(X)
    parts = mnp.split(x, 2, axis=1)
    assert isinstance(parts, tuple)
    for got, want in zip(parts, np.split(X, 2, axis=1)):
        np.testing.assert_array_equal(got.asnumpy(), want)
    parts = mnp.split(x, [1, 3], axis=1)
    assert isinstance(parts, list)
    for got, want in zip(parts, np.split(X, [1, 3], axis=1)):
        np.testing.assert_array_equal(got.asnumpy(), want)
    with pytest.raises(ValueError, match="split evenly"):
        mnp.split(x, 3, axis=1)


def test_errors():
    with pytest.raises(ValueError, match="1- or 2-d"):
        mnp.diag(ms.Tensor(Y))
    with pytest.raises(ValueError, match="not supported"):
        mnp.pad(ms.Tensor(X), 1, mode="median2")
    with pytest.raises(ValueError, match="shape-mismatch"):
        mnp.tensordot(ms.Tensor(X), ms.Tensor(X), 1)


@pytest.mark.parametrize("fn", [lambda a: mnp.roll(a, 1, axis=1),
                                lambda a: mnp.pad(a, ((1, 2), (2, 1)), mode="reflect"),
                                lambda a: mnp.pad(a, 1, mode="mean"),
                                lambda a: mnp.tensordot(a, a, axes=([1], [1])),
                                lambda a: mnp.diag(a, 1)])
def test_gradient_matches_finite_differences(fn):
    weights = RNG.standard_normal(np.shape(fn(ms.Tensor(X)))).astype(np.float64)

    def loss(a):
        return ops.reduce_sum(fn(a) * ms.Tensor(weights.astype(np.float32)))

    grad = ms.grad(loss)(ms.Tensor(X)).asnumpy()
    x64 = X.astype(np.float64)
    eps = 1e-3
    numeric = np.zeros_like(x64)
    for i in np.ndindex(X.shape):
        for sign in (1, -1):
            shifted = x64.copy()
            shifted[i] += sign * eps
            out = fn(ms.Tensor(shifted.astype(np.float32))).asnumpy().astype(np.float64)
            numeric[i] += sign * (out * weights).sum() / (2 * eps)
    np.testing.assert_allclose(grad, numeric, rtol=2e-2, atol=2e-2)


class _Net(nn.Cell):
    def construct(self, a):
        return mnp.pad(mnp.roll(a, 1), 1, mode="edge")


def test_pynative_equals_graph():
    graph = _Net()(ms.Tensor(X)).asnumpy()
    ms.set_context(mode=ms.PYNATIVE_MODE)
    try:
        eager = _Net()(ms.Tensor(X)).asnumpy()
    finally:
        ms.set_context(mode=ms.GRAPH_MODE)
    np.testing.assert_array_equal(graph, eager)


def test_ms_numpy_is_an_attribute_of_the_package_in_a_fresh_process():
    """``import mindspore as ms; ms.numpy.ones(2)`` works without importing the submodule."""
    import subprocess
    import sys
    code = "import graphkiln as ms; print(ms.numpy.ones(2).asnumpy().tolist())"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=120)
    assert out.stdout.strip() == "[1.0, 1.0]", out.stderr
