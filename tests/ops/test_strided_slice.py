"""``ops.StridedSlice`` is the NumPy index its masks stand for (MindSpore's own values and
gradients are in tests/compat, cases ``strided_slice_*``): a new axis and an ellipsis, where
MindSpore 2.10 CPU gives other elements than the index it documents (TensorFlow's meaning),
vmap, and bad strides."""
import numpy as np
import pytest

import graphkiln as ms
from graphkiln.ops import operations as P

X = np.arange(60, dtype=np.float32).reshape(3, 4, 5)


def test_new_axis_is_numpy_s():
    op = P.StridedSlice(new_axis_mask=0b001)
    want = X[None, 0:2]
    np.testing.assert_array_equal(op(ms.Tensor(X), (0, 0), (1, 2), (1, 1)).asnumpy(), want)
    got = ms.jit(lambda t: op(t, (0, 0), (1, 2), (1, 1)))(ms.Tensor(X)).asnumpy()
    np.testing.assert_array_equal(got, want)


def test_ellipsis_is_numpy_s():
    op = P.StridedSlice(ellipsis_mask=0b001)
    np.testing.assert_array_equal(op(ms.Tensor(X), (0, 1), (1, 4), (1, 2)).asnumpy(),
                                  X[..., 1:4:2])


def test_vmap_slices_every_example():
    op = P.StridedSlice(shrink_axis_mask=0b01)
    got = ms.vmap(lambda t: op(t, (2, 1), (3, 5), (1, 2)))(ms.Tensor(X)).asnumpy()
    np.testing.assert_array_equal(got, X[:, 2, 1:5:2])


def test_zero_stride_is_refused():
    with pytest.raises(ValueError, match="strides"):
        P.StridedSlice()(ms.Tensor(X), (0,), (1,), (0,))


@pytest.mark.parametrize("index_dtype", [np.int32, np.int64])
def test_functional_strided_slice_takes_tensor_bounds(index_dtype):
    x = np.arange(24).reshape(2, 3, 4).astype(np.float32)
    bounds = [ms.Tensor(np.array(v, index_dtype)) for v in ([1, 0, 3], [2, 3, 0], [1, 2, -1])]
    got = ms.ops.strided_slice(ms.Tensor(x), *bounds)
    np.testing.assert_array_equal(got.asnumpy(), x[1:2, 0:3:2, 3:0:-1])
    masked = ms.ops.strided_slice(ms.Tensor(x), (0, 1), (1, 2), (1, 1), shrink_axis_mask=1)
    np.testing.assert_array_equal(masked.asnumpy(), x[0, 1:2])
