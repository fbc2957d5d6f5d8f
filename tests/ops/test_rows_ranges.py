"""``Ger``, ``LinSpace``/``ops.linspace`` and the row updates (``ops.inplace_add``,
``inplace_sub``, ``inplace_update``) against results, errors and (zero) gradients recorded
from MindSpore 2.10 CPU (fixtures/rows_ranges.json, by fixtures/record_rows_ranges.py);
GRAPH == PYNATIVE; vmap equals the per-example loop."""
import json
import os
import sys

import numpy as np
import pytest

import graphkiln as ms
from graphkiln import Tensor, ops
from graphkiln.ops import operations as P

FIXTURES = os.path.join(os.path.dirname(__file__), "fixtures")
sys.path.insert(0, FIXTURES)
from call_outcome import assert_outcome  # noqa: E402
from rows_ranges_cases import CALLS, GRADS, V, X, outcome  # noqa: E402

with open(os.path.join(FIXTURES, "rows_ranges.json")) as f:
    RECORDED = json.load(f)


def _assert_matches(got, want):
    assert_outcome(got, want, rtol=2e-7, half_rtol=1e-3, grad_rtol=1e-6)


@pytest.mark.parametrize("name", sorted(CALLS))
def test_call_matches_mindspore(name):
    _assert_matches(outcome(lambda: CALLS[name](ms, ops, P, Tensor)), RECORDED[name])


@pytest.mark.parametrize("name", sorted(GRADS))
def test_gradient_matches_mindspore(name):
    _assert_matches(outcome(lambda: GRADS[name](ms, ops, P, Tensor)), RECORDED[f"grad_{name}"])


def test_graph_equals_pynative():
    def f(x, v, a, b):
        return (ops.inplace_add(x, v, (3, 0)), ops.inplace_sub(x, v, (1, 2)),
                P.InplaceUpdate((0, 1))(x, v), ops.ger(a, b),
                P.LinSpace()(a[0], b[0], 6))

    args = (Tensor(X), Tensor(V), Tensor(np.array([1.0, 2.0], np.float32)),
            Tensor(np.array([-1.0, 0.5, 3.0], np.float32)))
    for got, want in zip(ms.jit(f)(*args), f(*args)):
        np.testing.assert_array_equal(got.asnumpy(), want.asnumpy())


def test_vmap_equals_the_loop():
    xs = np.stack([X, X * 2, X - 1])
    got = ops.vmap(lambda x: ops.inplace_add(x, Tensor(V), (3, 0)))(Tensor(xs)).asnumpy()
    for k in range(3):
        np.testing.assert_array_equal(got[k], ops.inplace_add(Tensor(xs[k]), Tensor(V),
                                                              (3, 0)).asnumpy())
    a = np.array([[1.0, 2.0], [3.0, -1.0]], np.float32)
    got = ops.vmap(P.Ger(), (0, None))(Tensor(a), Tensor(V[0])).asnumpy()
    np.testing.assert_array_equal(got, a[:, :, None] * V[0][None, None, :])
