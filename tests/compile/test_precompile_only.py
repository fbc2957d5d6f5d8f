"""``MS_DEV_PRECOMPILE_ONLY``: a GRAPH_MODE cell call compiles and returns None without
running (MindSpore 2.10: ``Cholesky(True)`` in such a cell gives None); PYNATIVE runs."""
import numpy as np
import pytest

import graphkiln as ms
from graphkiln import Tensor, nn, ops


class _Net(nn.Cell):
    def construct(self, x):
        return ops.Cholesky(True)(x)


@pytest.fixture
def precompile_only(monkeypatch):
    monkeypatch.setenv("MS_DEV_PRECOMPILE_ONLY", "1")
    yield
    ms.set_context(mode=ms.PYNATIVE_MODE)


def test_graph_cell_compiles_and_returns_none(precompile_only):
    x = Tensor(np.array([[1.0, 1.0], [1.0, 2.0]], np.float32))
    ms.set_context(mode=ms.GRAPH_MODE)
    net = _Net()
    assert net(x) is None
    ms.set_context(mode=ms.PYNATIVE_MODE)
    np.testing.assert_allclose(net(x).asnumpy(), [[1.0, 1.0], [0.0, 1.0]])


def test_graph_errors_still_raise(precompile_only):
    ms.set_context(mode=ms.GRAPH_MODE)
    with pytest.raises(ValueError):
        _Net()(Tensor(np.ones((2, 3), np.float32)))  # not square: found while compiling


def test_off_by_default_and_with_zero(monkeypatch):
    x = Tensor(np.array([[4.0, 2.0], [2.0, 5.0]], np.float32))
    monkeypatch.setenv("MS_DEV_PRECOMPILE_ONLY", "0")
    ms.set_context(mode=ms.GRAPH_MODE)
    try:
        out = _Net()(x)
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)
    np.testing.assert_allclose(out.asnumpy(), np.linalg.cholesky(x.asnumpy()).T, rtol=1e-6)
