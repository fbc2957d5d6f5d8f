"""Creation ops whose shape is an integer Tensor the graph receives (``ops.ones(size, t)``
with ``size`` a graph input): the sizes are known only at run time, the rank is the
vector's length. Under ``set_inputs`` a vector of unknown length compiles once per length
(graphkiln has no dynamic rank). Oracles: NumPy and PYNATIVE == GRAPH."""
import numpy as np
import pytest

import graphkiln as ms
from graphkiln import Tensor, nn, ops
from graphkiln.compile.call_cache import compile_info


class Create(nn.Cell):
    def __init__(self, fn):
        super().__init__()
        self.fn = fn

    def construct(self, size, dtype):
        return self.fn(size, dtype)


@pytest.fixture
def graph_mode():
    before = ms.get_context("mode")
    ms.set_context(mode=ms.GRAPH_MODE)
    yield
    ms.set_context(mode=before)


def _size(*dims):
    return Tensor(np.array(dims, np.int64))


@pytest.mark.parametrize("fn, ref", [(ops.ones, np.ones), (ops.zeros, np.zeros)])
def test_tensor_size_in_a_graph_gives_run_time_dims(graph_mode, fn, ref):
    net = Create(fn)
    out = net(_size(2, 3), ms.int32)
    np.testing.assert_array_equal(out.asnumpy(), ref((2, 3), np.int32))
    assert out.dtype == ms.int32
    # the graph's output has unknown dims of the vector's length
    assert compile_info(net).graph.output.abstract.shape == (-1, -1)
    first = compile_info(net)
    np.testing.assert_array_equal(net(_size(4, 1), ms.int32).asnumpy(), ref((4, 1)))
    assert compile_info(net) is first  # one compile serves every size


def test_pynative_equals_graph(graph_mode):
    graph = Create(ops.ones)(_size(3, 2), ms.float32).asnumpy()
    ms.set_context(mode=ms.PYNATIVE_MODE)
    eager = Create(ops.ones)(_size(3, 2), ms.float32).asnumpy()
    np.testing.assert_array_equal(graph, eager)


def test_gradient_of_the_size_is_zero(graph_mode):
    grad = Create(ops.grad(ops.ones, (0,)))
    np.testing.assert_array_equal(grad(_size(2, 3), ms.float32).asnumpy(), [0, 0])


def test_set_inputs_with_unknown_length_compiles_per_length(graph_mode):
    net = Create(ops.ones)
    net.set_inputs(Tensor(shape=[None], dtype=ms.int64), ms.int32)  # a dtype entry too
    np.testing.assert_array_equal(net(_size(2, 3), ms.int32).asnumpy(), np.ones((2, 3)))
    first = compile_info(net)
    np.testing.assert_array_equal(net(_size(3, 4), ms.int32).asnumpy(), np.ones((3, 4)))
    assert compile_info(net) is first
    out = net(_size(2, 3, 4), ms.int32)
    np.testing.assert_array_equal(out.asnumpy(), np.ones((2, 3, 4)))
    assert compile_info(net) is not first


def test_set_inputs_unknown_rank_refuses_a_matrix_size(graph_mode):
    net = Create(ops.ones)
    net.set_inputs(Tensor(shape=None, dtype=ms.int64), ms.int32)
    assert net(_size(2, 3), ms.int32).shape == (2, 3)
    with pytest.raises(ValueError, match="0-D or 1-D"):
        net(Tensor(np.array([[2, 3], [4, 5]], np.int64)), ms.int32)


def test_float_size_tensor_is_refused(graph_mode):
    with pytest.raises(TypeError, match="integer Tensor"):
        Create(ops.ones)(Tensor(np.array([2.0, 3.0], np.float32)), ms.float32)
