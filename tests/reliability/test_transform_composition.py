"""Transforms composed two deep (grad of grad, grad of vmap, vmap of grad, jit of either),
with ``jit`` outside, inside, both or neither, checked against the same composition run
eagerly (PYNATIVE, no jit) and against an independent oracle: central finite differences
in float64 for ``grad``, a Python loop that stacks per-example results for ``vmap``.

A ``jit`` that ran the inner function instead of the wrapper (the wrapper's ``__dict__``
copied over its own) or an unbatched ``vmap`` shows up here as a value or shape mismatch.
"""
from __future__ import annotations

import itertools

import numpy as np
import pytest

import graphkiln as ms
from graphkiln import ops

RNG = np.random.default_rng(0)
X = RNG.uniform(-1.0, 1.0, (3, 4))
Y = RNG.uniform(0.5, 1.5, (4,))


def smooth(x, y):
    return ops.sin(x) * y + x * x * 0.5


def with_reduce(x, y):
    return ops.tanh(x * y).sum(-1, keepdims=True) * x + ops.exp(x * 0.3)


def with_flow(x, y):
    z = x * y
    if y.sum() > 0:  # a tensor condition (true for the inputs used)
        z = z * ops.cos(x)
    for _ in range(2):
        z = z + ops.sin(z) * 0.1
    return z


def with_tensor_loop(x, y):
    i = ops.zeros((), ms.int32)
    while i < y.shape[0] // 2:  # a tensor loop (two iterations), the same for every example
        x = x + ops.sin(x * y) * 0.3
        i = i + 1
    return x * y


FUNCTIONS = [smooth, with_reduce, with_flow, with_tensor_loop]


# ---------------------------------------------------------------- oracle transforms

def fd_grad(fn, eps: float = 1e-5):
    """d sum(fn(x, y)) / dx by central differences (float64)."""
    def g(x, y):
        xa = x.asnumpy().astype(np.float64)
        out = np.zeros_like(xa)
        for idx in np.ndindex(xa.shape):
            hi, lo = xa.copy(), xa.copy()
            hi[idx] += eps
            lo[idx] -= eps
            f_hi = fn(ms.Tensor(hi), y).asnumpy().sum()
            f_lo = fn(ms.Tensor(lo), y).asnumpy().sum()
            out[idx] = (f_hi - f_lo) / (2 * eps)
        return ms.Tensor(out)
    return g


def loop_vmap(fn):
    """``fn`` over the first axis of ``x`` with ``y`` shared, stacked."""
    def v(x, y):
        xs = x.asnumpy()
        return ms.Tensor(np.stack([fn(ms.Tensor(xs[i]), y).asnumpy()
                                   for i in range(xs.shape[0])]))
    return v


def apply(names, fn, transforms):
    """Apply ``names`` (innermost last) to ``fn`` with the given transform set."""
    for name in reversed(names):
        fn = transforms[name](fn)
    return fn


REAL = {"grad": lambda f: ms.grad(f, grad_position=0),
        "vmap": lambda f: ms.vmap(f, in_axes=(0, None))}
ORACLE = {"grad": fd_grad, "vmap": loop_vmap}

COMPOSITIONS = [("grad",), ("vmap",), ("grad", "grad"), ("grad", "vmap"), ("vmap", "grad"),
                ("vmap", "vmap")]


def _inputs(names):
    """Inputs with as many leading batch axes as there are vmaps."""
    n = names.count("vmap")
    x = X if n == 1 else X[0] if n == 0 else np.stack([X, X * 0.5])
    return ms.Tensor(x), ms.Tensor(Y)


def _build(names, fn, jit_inner: bool, jit_outer: bool):
    inner = ms.jit(fn) if jit_inner else fn
    out = apply(names, inner, REAL)
    return ms.jit(out) if jit_outer else out


@pytest.mark.parametrize("names", COMPOSITIONS, ids="_of_".join)
@pytest.mark.parametrize("fn", FUNCTIONS, ids=lambda f: f.__name__)
def test_composition_matches_eager_and_oracle(names, fn):
    x, y = _inputs(names)
    eager = apply(names, fn, REAL)(x, y).asnumpy()
    eps = 1e-4 if names.count("grad") == 2 else 1e-6
    oracle = apply(names, fn, {"grad": lambda f: fd_grad(f, eps), "vmap": loop_vmap})(x, y)
    tol = 1e-4 if names.count("grad") == 2 else 1e-6
    np.testing.assert_allclose(eager, oracle.asnumpy(), rtol=tol, atol=tol,
                               err_msg=f"eager {names} != oracle")
    for jit_inner, jit_outer in itertools.product((False, True), repeat=2):
        if not (jit_inner or jit_outer):
            continue
        got = _build(names, fn, jit_inner, jit_outer)(x, y)
        assert got.shape == eager.shape, (names, jit_inner, jit_outer)
        np.testing.assert_allclose(got.asnumpy(), eager, rtol=1e-9, atol=1e-12,
                                   err_msg=f"{names} jit_inner={jit_inner} "
                                           f"jit_outer={jit_outer} != eager")


def test_jit_keeps_the_wrapper_it_was_given():
    """jit of a grad/vmap object compiles a call of that object, never the function inside
    it (copying the wrapper's __dict__ once made jit(grad(f)) compute f)."""
    g = ms.grad(smooth)
    v = ms.vmap(smooth, in_axes=(0, None))
    for wrapper, names in ((g, ("grad",)), (v, ("vmap",))):
        x, y = _inputs(names)
        np.testing.assert_allclose(ms.jit(wrapper)(x, y).asnumpy(), wrapper(x, y).asnumpy(),
                                   rtol=1e-6)
        assert ms.jit(wrapper).fn is not smooth
    assert ms.jit(smooth).__name__ == "smooth"


def test_graph_mode_cell_of_grad():
    """The same compositions reached through a GRAPH_MODE Cell's construct."""
    class Net(ms.nn.Cell):
        def construct(self, x, y):
            return ms.grad(ms.vmap(with_reduce, in_axes=(0, None)))(x, y)

    x, y = _inputs(("grad", "vmap"))
    eager = Net()(x, y).asnumpy()
    ms.set_context(mode=ms.GRAPH_MODE)
    graph = Net()(x, y).asnumpy()
    np.testing.assert_allclose(graph, eager, rtol=1e-9)
    oracle = fd_grad(loop_vmap(with_reduce))(x, y).asnumpy()
    np.testing.assert_allclose(graph, oracle, rtol=1e-6, atol=1e-6)


def _carried_through_tensor_loop(x, y):
    """``x`` passes through a tensor ``while`` (zero iterations for y <= 0)."""
    a = x
    x = ops.tanh(a)
    w = ops.zeros_like(y)
    while w < 2 and y > 0:
        w = w + 1
        x = ops.tanh(a)
    return a * x


@pytest.mark.parametrize("y", [-1.0, 1.0])
def test_second_derivative_through_a_tensor_while(y):
    """grad of grad through a tensor ``while`` (zero and two iterations): it used to give a
    silent partial second derivative (0.755 for 1.670, fuzz seed 9064), then a refusal;
    now the loop's backward pass is itself differentiated (transforms/while_recompute)."""
    x, y = ms.Tensor(np.float64(0.3)), ms.Tensor(np.float64(y))
    first = ms.grad(_carried_through_tensor_loop)
    np.testing.assert_allclose(first(x, y).asnumpy(),
                               fd_grad(_carried_through_tensor_loop)(x, y).asnumpy(), 1e-6)
    np.testing.assert_allclose(ms.grad(first)(x, y).asnumpy(),
                               fd_grad(first)(x, y).asnumpy(), rtol=1e-5)


def _shifted_in_tensor_loop(x, y):
    z = x * x * x
    w = ops.zeros_like(y)
    while w < y:  # the body's Jacobian is constant: only the trip count depends on y
        w = w + 1
        z = z + 1.0
    return z * 2.0


def test_second_derivative_through_a_loop_with_constant_jacobian():
    x, y = ms.Tensor(np.float64(0.3)), ms.Tensor(np.float64(2.0))
    first = ms.grad(_shifted_in_tensor_loop)
    np.testing.assert_allclose(ms.grad(first)(x, y).asnumpy(), fd_grad(first)(x, y).asnumpy(),
                               rtol=1e-6)
    np.testing.assert_allclose(ms.grad(first)(x, y).asnumpy(), 12 * 0.3, rtol=1e-9)
