import numpy as np
import pytest

import graphkiln as ms
from graphkiln.ir.anf import iter_nodes
from graphkiln.passes import simplify


def identities(x):
    return (x * 1 + 0 - 0) / 1


def broadcasting_one(x):
    return x * ms.Tensor(np.ones((2, 2)))  # changes the shape: must stay


def test_neutral_elements_are_removed(traced):
    x = ms.Tensor(np.array([1.0, 2.0]))
    t = traced(identities, x)
    before = t.run()
    assert t.apply(simplify.run)
    assert t.count("Mul") == t.count("Add") == t.count("Sub") == t.count("Div") == 0
    np.testing.assert_array_equal(t.run(), before)


def test_a_neutral_element_that_broadcasts_is_kept(traced):
    t = traced(broadcasting_one, ms.Tensor(np.array([1.0, 2.0])))
    t.apply(simplify.run)
    assert t.count("Mul") == 1
    assert t.run().shape == (2, 2)


def _rows_grad(rows, twice=False):
    """The gradient of ``sum(k * t[r]**2)`` over the ``k``-th ``r`` of ``rows`` (with
    ``twice``, ``t[r]`` is indexed twice: two cotangents for the row)."""
    def f(t):
        total = 0.0
        for k, r in enumerate(rows, 1):
            p = t[r]
            total = total + (t[r] * t[r] if twice else p * p) * float(k)
        return total.sum()

    def rows_grad(t):
        return ms.grad(f)(t)
    return rows_grad


def _numpy_rows_grad(t, rows):
    g = np.zeros_like(t)
    for k, r in enumerate(rows, 1):
        g[r] += 2.0 * float(k) * t[r]
    return g


T = np.arange(24, dtype=np.float32).reshape(3, 2, 4) / 7


@pytest.mark.parametrize("twice", [False, True])
def test_row_cotangents_of_every_row_are_stacked(traced, twice):
    """``q, k, v = t[0], t[1], t[2]``: the summed GetitemGrads become one Stack (of each
    row's summed cotangents)."""
    rows = [2, 0, -2]
    t = traced(_rows_grad(rows, twice), ms.Tensor(T))
    before = t.run()
    assert t.count("GetitemGrad") == 3 * (1 + twice)
    assert t.apply(simplify.run)
    assert t.count("GetitemGrad") == 0 and t.count("Stack") == 1
    np.testing.assert_array_equal(t.run(), before)
    np.testing.assert_allclose(before, _numpy_rows_grad(T, rows), rtol=1e-6)


@pytest.mark.parametrize("rows", [[0, 1], [1, 1, 0]])
def test_row_cotangents_that_miss_a_row_stay(traced, rows):
    t = traced(_rows_grad(rows), ms.Tensor(T))
    before = t.run()
    t.apply(simplify.run)
    assert t.count("Stack") == 0 and t.count("GetitemGrad") == len(rows)
    np.testing.assert_array_equal(t.run(), before)
    np.testing.assert_allclose(before, _numpy_rows_grad(T, rows), rtol=1e-6)


def _stack_then_transpose(perm, used_twice=False):
    def f(a, b, c):
        s = ms.ops.stack((a, b * 2, c), axis=1)
        out = ms.ops.transpose(s, perm)
        return (out, s) if used_twice else out
    return f


ABC = [np.arange(24, dtype=np.float32).reshape(2, 3, 4) + k for k in range(3)]


@pytest.mark.parametrize("perm", [(1, 0, 2, 3), (2, 3, 1, 0), (0, -1, 1, 2), (0, 1, 2, 3)])
def test_a_transposed_stack_stacks_transposed_items(traced, perm):
    """``Transpose(Stack(xs, axis=1), perm)`` is one Stack of the items' transposes (views):
    one copy, in the result's layout."""
    t = traced(_stack_then_transpose(perm), *[ms.Tensor(a) for a in ABC])
    want = np.transpose(np.stack([ABC[0], ABC[1] * 2, ABC[2]], axis=1), perm)
    np.testing.assert_array_equal(t.run(), want)
    assert t.apply(simplify.run)
    nodes = [n for _, order in iter_nodes(t.graph) for n in order]
    stacks = [n for n in nodes if n.prim_name() == "Stack"]
    assert len(stacks) == 1
    assert not any(n.prim_name() == "Transpose" and n.inputs[1] is stacks[0] for n in nodes)
    got = t.run()
    np.testing.assert_array_equal(got, want)
    assert got.flags.c_contiguous


def test_a_stack_used_elsewhere_keeps_its_transpose(traced):
    t = traced(_stack_then_transpose((1, 0, 2, 3), used_twice=True),
               *[ms.Tensor(a) for a in ABC])
    before = t.run()
    t.apply(simplify.run)
    assert t.count("Stack") == 1 and t.count("Transpose") == 1
    for got, want in zip(t.run(), before):
        np.testing.assert_array_equal(got, want)
