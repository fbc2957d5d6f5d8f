"""``ops.operations.manually_defined``: its own module (as MindSpore's), holding the
primitive classes and ``rank``, which gives a Python int (MindSpore 2.10: ``3`` and
``<class 'int'>`` for a (2, 3, 1) tensor) in PyNative and in a graph, with a zero gradient."""
import numpy as np
import pytest

import graphkiln as ms
from graphkiln import ops
from graphkiln.ops.operations import manually_defined as M


def test_is_a_module_of_primitive_classes():
    assert ops.operations.manually_defined is M
    assert M.Cast is ops.Cast and M.Add is ops.Add
    assert not hasattr(ops.operations, "rank")  # (not a primitive: only in this module)
    with pytest.raises(AttributeError):
        M.NoSuchPrimitive  # noqa: B018


@pytest.mark.parametrize("shape", [(), (4,), (2, 3, 1)])
@pytest.mark.parametrize("mode", [ms.PYNATIVE_MODE, ms.GRAPH_MODE])
def test_rank_is_the_number_of_axes(shape, mode):
    ms.set_context(mode=mode)
    try:
        got = ms.jit(M.rank)(ms.Tensor(np.ones(shape, np.float32))) if mode == ms.GRAPH_MODE \
            else M.rank(ms.Tensor(np.ones(shape, np.float32)))
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)
    assert got == len(shape) and type(got) is int


def test_rank_has_a_zero_gradient():
    g = ops.grad(M.rank)(ms.Tensor(np.ones((2, 2), np.float32)))
    np.testing.assert_array_equal(g.asnumpy(), np.zeros((2, 2), np.float32))


@pytest.mark.parametrize("shape", [(), (2, 3, 1)])
@pytest.mark.parametrize("mode", [ms.PYNATIVE_MODE, ms.GRAPH_MODE])
def test_shape_is_a_tuple_of_ints(shape, mode):
    """``shape_`` gives the shape as a tuple (MindSpore 2.10: ``(2, 3, 1)``, ``()``)."""
    x = ms.Tensor(np.ones(shape, np.float32))
    got = ms.jit(M.shape_)(x) if mode == ms.GRAPH_MODE else M.shape_(x)
    assert got == shape and type(got) is tuple
