"""``CumSum``/``ops.cumsum``, ``ops.cummin`` and ``ops.cummax`` against values, index dtypes
(int32 for cummin, int64 for cummax), NaN handling, errors and gradients recorded from
MindSpore 2.10 CPU (fixtures/cumulative.json, by fixtures/record_cumulative.py);
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
from cumulative_cases import CALLS, X, outcome  # noqa: E402

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))
from numeric_grad import numeric_grad  # noqa: E402

with open(os.path.join(FIXTURES, "cumulative.json")) as f:
    RECORDED = json.load(f)


def _values(v):
    return np.array(v, dtype=object).astype(np.float64)


@pytest.mark.parametrize("name", sorted(CALLS))
def test_matches_mindspore(name):
    got, want = outcome(lambda: CALLS[name](ms, ops, P, Tensor)), RECORDED[name]
    if want[0] == "error":
        assert got == want
        return
    assert [d for d, _ in got] == [d for d, _ in want]
    for (_, g), (_, w) in zip(got, want):
        np.testing.assert_allclose(_values(g), _values(w), rtol=1e-6)


def test_graph_equals_pynative_and_vmap_equals_loop():
    x = Tensor(X.astype(np.float32))

    def f(a):
        return ops.cumsum(a, -1), ops.cummin(a, 1), ops.cummax(a, 0)

    for got, want in zip(ms.jit(f)(x), f(x)):
        for g, w in zip(got if isinstance(got, tuple) else (got,),
                        want if isinstance(want, tuple) else (want,)):
            np.testing.assert_array_equal(g.asnumpy(), w.asnumpy())
    batched = ops.vmap(lambda a: ops.cummax(a, 0))(x)
    for k in range(2):
        one = ops.cummax(x[k], 0)
        np.testing.assert_array_equal(batched[0].asnumpy()[k], one[0].asnumpy())
        np.testing.assert_array_equal(batched[1].asnumpy()[k], one[1].asnumpy())


def test_cummin_gradient_goes_to_the_selected_elements():
    x = Tensor(np.array([[3.0, 1.0, 2.0], [0.0, 5.0, -1.0]], np.float32))
    w = Tensor(np.arange(6, dtype=np.float32).reshape(2, 3))
    grad = ms.grad(lambda a: (ops.cummin(a, 1)[0] * w).sum())(x).asnumpy()
    np.testing.assert_array_equal(grad, [[0.0, 3.0, 0.0], [7.0, 0.0, 5.0]])


@pytest.mark.parametrize("reverse", [False, True])
def test_cumulative_logsumexp_exclusive_grad(reverse):
    """The exclusive running log-sum-exp's gradient against finite differences (of its
    finite outputs: the first one is log 0 = -inf)."""
    x = np.array([[0.3, -1.2, 2.0], [-40.0, 0.5, 1.5], [1.0, -0.7, 3.0], [0.2, 0.1, -2.0]])
    w = Tensor(np.linspace(-1.5, 2.0, 9).reshape(3, 3))
    op = P.CumulativeLogsumexp(exclusive=True, reverse=reverse)
    keep = slice(0, 3) if reverse else slice(1, 4)

    def loss(a):
        return ops.reduce_sum(ops.mul(op(a, 0)[keep], w))
    got = ms.grad(loss)(Tensor(x)).asnumpy()
    np.testing.assert_allclose(got, numeric_grad(loss, x), rtol=1e-6, atol=1e-8)
