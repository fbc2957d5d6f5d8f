"""ReverseV2 and TupleToArray, MindSpore's legacy primitives still found in user code: NumPy
references in both modes, and the dtypes and errors MindSpore 2.10 CPU gives (recorded by
hand from it: int tuples give Int32, float tuples Float32)."""
import numpy as np
import pytest

import graphkiln as ms
from graphkiln import ops

X = np.arange(24, dtype=np.float32).reshape(2, 3, 4)


@pytest.mark.parametrize("mode", [ms.PYNATIVE_MODE, ms.GRAPH_MODE])
@pytest.mark.parametrize("axis", [(1,), (-1, 0), (0, 1, 2), ()])
def test_reverse_v2_is_numpy_flip(mode, axis):
    ms.set_context(mode=mode)
    rev = ops.ReverseV2(axis=axis)
    got = ms.jit(lambda x: rev(x) * 2)(ms.Tensor(X)) if mode == ms.GRAPH_MODE else \
        rev(ms.Tensor(X)) * 2
    np.testing.assert_array_equal(got.asnumpy(), np.flip(X, axis) * 2 if axis else X * 2)


def test_reverse_v2_gradient_reverses_the_cotangent():
    w = ms.Tensor(np.linspace(-1, 1, 24, dtype=np.float32).reshape(2, 3, 4))
    g = ms.grad(lambda x: (ops.ReverseV2(axis=(2,))(x) * w).sum())(ms.Tensor(X))
    np.testing.assert_array_equal(g.asnumpy(), np.flip(w.asnumpy(), 2))


@pytest.mark.parametrize("axis,match", [((1, 1), "cannot contain duplicate dimensions"),
                                        ((3,), r"must be in range of \[-3, 3\)")])
def test_reverse_v2_bad_axis_is_mindspores_value_error(axis, match):
    with pytest.raises(ValueError, match=match):
        ops.ReverseV2(axis=axis)(ms.Tensor(X))


@pytest.mark.parametrize("mode", [ms.PYNATIVE_MODE, ms.GRAPH_MODE])
def test_tuple_to_array(mode):
    ms.set_context(mode=mode)
    to_array = ops.TupleToArray()
    ints = ms.jit(lambda: to_array((1, 2, 3)))() if mode == ms.GRAPH_MODE else \
        to_array((1, 2, 3))
    assert ints.dtype == ms.int32 and ints.asnumpy().tolist() == [1, 2, 3]
    floats = to_array((0.5, 2.0))
    assert floats.dtype == ms.float32 and floats.asnumpy().tolist() == [0.5, 2.0]


@pytest.mark.parametrize("x,error,match", [((), ValueError, "size of x should be > : 0"),
                                           ([1, 2], TypeError, "should be 'tuple'"),
                                           ((1.0, 2), TypeError, "must be have same type")])
def test_tuple_to_array_errors(x, error, match):
    with pytest.raises(error, match=match):
        ops.TupleToArray()(x)
