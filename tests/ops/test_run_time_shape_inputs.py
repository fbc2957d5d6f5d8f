"""Shape-like inputs computed when the graph runs: ``Reshape``'s shape and ``Slice``'s
begin and size as Tensors (the result's dims unknown until then), their gradients, and
``ConcatOffset`` of inputs with a dynamic dimension; GRAPH == PYNATIVE == NumPy."""
import numpy as np
import pytest

import graphkiln as ms
from graphkiln import Tensor, nn, ops
from graphkiln.ops import operations as P
from graphkiln.ops.operations import _grad_ops as G


@pytest.fixture(params=[ms.GRAPH_MODE, ms.PYNATIVE_MODE], ids=["graph", "pynative"])
def mode(request):
    ms.set_context(mode=request.param)
    yield request.param
    ms.set_context(mode=ms.PYNATIVE_MODE)


class _ReshapeMean(nn.Cell):
    def construct(self, x, shape):
        return P.ReduceMean(keep_dims=True)(P.Reshape()(x, shape), 0)


class _Slice(nn.Cell):
    def construct(self, x, begin, size):
        return P.Slice()(x, begin, size)


def test_reshape_to_a_run_time_shape_and_its_gradient(mode):
    x = np.arange(12, dtype=np.float32)
    for shape in ([3, 4], [2, -1], [6, 2]):
        s = Tensor(np.array(shape), ms.int64)
        got = _ReshapeMean()(Tensor(x), s)
        want = x.reshape(shape).mean(axis=0, keepdims=True)
        np.testing.assert_allclose(got.asnumpy(), want, rtol=1e-6)
        dx = ops.GradOperation(get_all=True)(_ReshapeMean())(Tensor(x), s)[0]
        rows = x.reshape(shape).shape[0]
        np.testing.assert_allclose(dx.asnumpy(), np.full(12, 1 / rows, np.float32), rtol=1e-6)


@pytest.mark.parametrize("begin, size", [([0, 1, 0], [2, 1, 2]), ([1, 0, 1], [-1, 2, -1]),
                                         ([2, 1, 2], [1, -1, 1])])
def test_slice_with_run_time_begin_and_size_and_its_gradient(mode, begin, size):
    x = np.random.default_rng(0).standard_normal((3, 2, 3)).astype(np.float32)
    b, n = (Tensor(np.array(v), ms.int64) for v in (begin, size))
    index = tuple(slice(lo, None if k == -1 else lo + k) for lo, k in zip(begin, size))
    np.testing.assert_array_equal(_Slice()(Tensor(x), b, n).asnumpy(), x[index])
    dx = ops.GradOperation()(_Slice())(Tensor(x), b, n)
    want = np.zeros_like(x)
    want[index] = 1
    np.testing.assert_array_equal(dx.asnumpy(), want)


def test_slice_with_run_time_bounds_outside_the_input_raises(mode):
    x = Tensor(np.ones((3, 4), np.float32))
    with pytest.raises(ValueError, match=r"For .Slice., begin\[1\]"):
        _Slice()(x, Tensor(np.array([0, 3]), ms.int64), Tensor(np.array([1, 2]), ms.int64))


class _UniqueOffsets(nn.Cell):
    def construct(self, x, y):
        x = P.Reshape()(P.Unique()(x)[0], (-1, 2))
        y = P.Reshape()(P.Unique()(y)[0], (-1, 2))
        return G.ConcatOffset(2, 0)((x, y)), G.ConcatOffset(2, 1)((x, x))


def test_concat_offset_of_dynamic_inputs(mode):
    x = Tensor(np.array([1, 2, 3, 4, 4, 3], np.float32))  # 4 unique values: (2, 2)
    y = Tensor(np.array([7, 8, 9, 1, 2, 3], np.float32))  # 6: (3, 2)
    rows, cols = _UniqueOffsets()(x, y)
    np.testing.assert_array_equal(rows.asnumpy(), [[0, 0], [2, 0]])
    np.testing.assert_array_equal(cols.asnumpy(), [[0, 0], [0, 2]])
    assert rows.dtype == ms.int64


def test_concat_offset_of_0d_inputs_raises(mode):
    """0-D Tensors have no axis: MindSpore's RuntimeError, not a division by zero."""
    pair = (Tensor(1.0), Tensor(2.0))
    with pytest.raises(RuntimeError, match=r"'axis' must be in range \[-0, 0\)"):
        ms.jit(lambda a, b: G.ConcatOffset(2, 0)((a, b)))(*pair)
