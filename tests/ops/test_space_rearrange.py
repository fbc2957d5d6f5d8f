"""``DepthToSpace``, ``BatchToSpaceND``/``ops.batch_to_space_nd`` and ``ops.dot`` against
values, gradients and errors recorded from MindSpore 2.10 CPU (fixtures/space.json, by
fixtures/record_space.py); GRAPH == PYNATIVE; vmap equals the per-example loop."""
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
from space_cases import CALLS, B, D, outcome  # noqa: E402

with open(os.path.join(FIXTURES, "space.json")) as f:
    RECORDED = json.load(f)


@pytest.mark.parametrize("name", sorted(CALLS))
def test_matches_mindspore(name):
    got, want = outcome(lambda: CALLS[name](ms, ops, P, Tensor)), RECORDED[name]
    assert_outcome(got, want, rtol=1e-6)


def test_graph_equals_pynative_and_vmap_equals_loop():
    def f(d, b):
        return (P.DepthToSpace(2)(d), ops.batch_to_space_nd(b, [2, 2], [[1, 0], [0, 2]]),
                ops.dot(d[0, :, 0], b[:3, 0, 0]))

    d, b = Tensor(D.astype(np.float32)), Tensor(B.astype(np.float32))
    for got, want in zip(ms.jit(f)(d, b), f(d, b)):
        np.testing.assert_array_equal(got.asnumpy(), want.asnumpy())
    batched = ops.vmap(P.DepthToSpace(2))(Tensor(np.stack([D, -D]).astype(np.float32)))
    np.testing.assert_array_equal(batched.asnumpy()[1], -P.DepthToSpace(2)(d).asnumpy())
