"""``MultinomialWithReplacement`` (``ops/defs/multinomial_draws.py``): shapes, dtypes and
error types against MindSpore 2.10 (fixtures/multinomial_draws.json by
fixtures/record_multinomial_draws.py); a run-time seed in a graph draws what PyNative draws;
frequencies follow the weights."""
import json
import sys
from pathlib import Path

import numpy as np
import pytest

import graphkiln as ms
from graphkiln import Tensor, nn

FIXTURES = Path(__file__).resolve().parent / "fixtures"
sys.path.insert(0, str(FIXTURES))
from multinomial_draws_cases import W, calls  # noqa: E402

RECORDED = json.loads((FIXTURES / "multinomial_draws.json").read_text())
P = ms.ops.operations.random_ops


def _outcome(thunk):
    try:
        r = thunk()
        return [str(r.dtype), list(r.asnumpy().shape)]
    except (TypeError, ValueError, RuntimeError) as e:
        return ["error", type(e).__name__]


@pytest.mark.parametrize("name", sorted(RECORDED))
def test_matches_mindspore(name):
    assert _outcome(calls(ms)[name]) == RECORDED[name]


class _Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.draw = P.MultinomialWithReplacement(8, True)

    def construct(self, x, seed, offset):
        return self.draw(x, seed, offset)


def test_run_time_seed_in_a_graph_draws_as_pynative():
    x, s, o = Tensor(W), Tensor([50]), Tensor([20])
    eager = P.MultinomialWithReplacement(8, True)(x, s, o).asnumpy()
    ms.set_context(mode=ms.GRAPH_MODE)
    try:
        net = _Net()
        np.testing.assert_array_equal(net(x, s, o).asnumpy(), eager)
        assert not np.array_equal(net(x, Tensor([51]), o).asnumpy(), eager)
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)


def test_frequencies_follow_the_weights():
    m = P.MultinomialWithReplacement(20000, True)(Tensor(W), Tensor([7]), Tensor([0]))
    m = m.asnumpy()
    for row, w in zip(m, W):
        np.testing.assert_allclose(np.bincount(row, minlength=4) / 20000, w / w.sum(),
                                   atol=0.015)
    once = P.MultinomialWithReplacement(4, False)(Tensor(W[1]), Tensor([3]), Tensor([1]))
    assert sorted(once.asnumpy()) == [0, 1, 2, 3]  # without replacement every class once
