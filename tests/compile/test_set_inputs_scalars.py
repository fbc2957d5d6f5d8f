"""Numbers under ``Cell.set_inputs``, checked as MindSpore 2.10 checks them (its messages):
a ``mutable`` entry takes mutable arguments of any value (one compile, the value known when
the graph runs) and refuses a plain one; a plain entry refuses a mutable argument and any
other value."""
import numpy as np
import pytest

import graphkiln as ms
from graphkiln import Tensor, mutable, nn, ops
from graphkiln.compile.api import _cell_cache


class Rows(nn.Cell):
    def construct(self, n, x):
        return ops.ones((n, 2), ms.float32) * x


@pytest.fixture
def graph_mode():
    before = ms.get_context("mode")
    ms.set_context(mode=ms.GRAPH_MODE)
    yield
    ms.set_context(mode=before)


X = Tensor(np.array([1.0, 2.0], np.float32))


def test_mutable_entry(graph_mode):
    net = Rows()
    net.set_inputs(mutable(2), Tensor(shape=[None], dtype=ms.float32))
    np.testing.assert_array_equal(net(mutable(3), X).asnumpy(), np.ones((3, 2)) * [1, 2])
    assert net(mutable(4), X).shape == (4, 2)
    assert _cell_cache(net).compiles == 1
    with pytest.raises(TypeError, match="the 1th should be mutable one, but got static!"):
        net(3, X)


def test_plain_entry(graph_mode):
    net = Rows()
    net.set_inputs(2, Tensor(shape=[None], dtype=ms.float32))
    assert net(2, X).shape == (2, 2)
    with pytest.raises(TypeError, match="the 1th should be static one, but got mutable!"):
        net(mutable(3), X)
    with pytest.raises(ValueError, match="the 1th should be 2, but got 3!"):
        net(3, X)
