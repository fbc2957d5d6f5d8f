"""``mindspore.hal.contiguous_tensors_handle``: the Tensors move into one buffer (in order,
no padding, as MindSpore 2.10 CPU lays them out: sizes [12, 16] bytes and 7.0 elements for
a float32 [3] and [2, 2]), share it, and the handle reads it in the first dtype; bad
slices raise MindSpore's errors."""
import numpy as np
import pytest

from graphkiln import Parameter, Tensor, ops
from graphkiln.hal.contiguous_tensors_handle import combine_tensor_list_contiguous


def _pair():
    x = Tensor(np.array([1, 2, 3], np.float32))
    y = Tensor(np.array([[4, 5], [6, 7]], np.float32))
    return x, y


def test_layout_and_reads():
    x, y = _pair()
    h = combine_tensor_list_contiguous([x, y], True)
    assert h.before_padding_sizes == h.after_padding_sizes == [12, 16]
    assert h.handle_shape == 7.0
    np.testing.assert_array_equal(h[:].asnumpy(), np.arange(1, 8, dtype=np.float32))
    np.testing.assert_array_equal(h[2].asnumpy(), [3.0])
    np.testing.assert_array_equal(h[1:3].asnumpy(), [2.0, 3.0])
    np.testing.assert_array_equal(h.slice_by_tensor_index(1).asnumpy(), [4, 5, 6, 7])
    np.testing.assert_array_equal(h.slice_by_tensor_index(0, 2).asnumpy(), np.arange(1, 8))
    assert str(h).startswith("Handle total size: 28\nTensor[0]: [1. 2. 3.]\n")


def test_in_place_updates_show_in_the_buffer():
    """A weight updated in place (``Assign``, what optimizers do) writes the buffer.
    (``x[i] = v`` on a plain Tensor gives it new data in graphkiln, copy on write.)"""
    w = Parameter(Tensor(np.array([1, 2, 3], np.float32)), name="w")
    y = Tensor(np.array([4, 5], np.float32))
    h = combine_tensor_list_contiguous([w, y])
    ops.assign(w, Tensor(np.array([7, 8, 9], np.float32)))
    ops.assign_add(w, Tensor(np.ones(3, np.float32)))
    np.testing.assert_array_equal(h[:].asnumpy(), [8, 9, 10, 4, 5])
    np.testing.assert_array_equal((y * 2).asnumpy(), [8, 10])


@pytest.mark.parametrize("read, err", [
    (lambda h: h[5:3], ValueError), (lambda h: h[0:99], ValueError),
    (lambda h: h[-1], ValueError), (lambda h: h["a"], TypeError),
    (lambda h: h.slice_by_tensor_index(2), ValueError)])
def test_bad_reads(read, err):
    h = combine_tensor_list_contiguous(list(_pair()))
    with pytest.raises(err):
        read(h)


def test_bad_inputs():
    with pytest.raises(TypeError, match=r"input list must be \[Tensor"):
        combine_tensor_list_contiguous([1])
    with pytest.raises(TypeError, match="enable_mem_align must be bool"):
        combine_tensor_list_contiguous(list(_pair()), 1)
