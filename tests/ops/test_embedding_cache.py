"""``MapUniform`` and ``PadAndShift`` against MindSpore 2.10 CPU (fixtures/embedding_cache.json,
by fixtures/record_embedding_cache.py): values and error types, eagerly and in a graph,
where PadAndShift's output size is known only when the graph runs."""
import json
import os
import sys

import numpy as np
import pytest

import graphkiln as ms
from graphkiln import Tensor, nn
from graphkiln.ops import operations as P

FIXTURES = os.path.join(os.path.dirname(__file__), "fixtures")
sys.path.insert(0, FIXTURES)
from embedding_cache_cases import CASES, run  # noqa: E402

with open(os.path.join(FIXTURES, "embedding_cache.json")) as f:
    RECORDED = json.load(f)


@pytest.mark.parametrize("name", sorted(CASES))
def test_matches_mindspore(name):
    assert run(P, Tensor, name) == RECORDED[name]


class _Call(nn.Cell):
    def __init__(self, prim, constants):
        super().__init__()
        self.prim, self.constants = prim, constants

    def construct(self, x, y):
        return self.prim(x, y, *self.constants)


@pytest.mark.parametrize("name", ["map_uniform_negative", "pad_and_shift", "pad_and_shift_int64"])
def test_graph_matches_mindspore(name):
    prim, inputs = CASES[name]
    x, second, *rest = inputs
    ms.set_context(mode=ms.GRAPH_MODE)
    try:
        if prim == "MapUniform":  # the group sizes as run-time Tensors
            net = _Call(getattr(P, prim)(), (Tensor(np.int32(rest[0])),))
            out = net(Tensor(x), Tensor(np.int32(second)))
        else:
            out = _Call(getattr(P, prim)(), tuple(rest))(Tensor(x), Tensor(second))
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)
    assert [str(out.dtype), out.asnumpy().tolist()] == RECORDED[name]
