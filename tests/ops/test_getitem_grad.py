"""GetitemGrad's fast paths (basic index: one strided add; integer rows: one fancy add per
occurrence round) give np.add.at's results bit for bit."""
import numpy as np
import pytest

from graphkiln.ir.primitive import REGISTRY

R = np.random.default_rng(0)
CASES = [
    (np.array([5, 3, 5, -5, 0, 3, 9, 5, 5]), (10, 4)),  # repeats, a negative alias of 5
    (R.integers(0, 20, (8, 64)), (20, 3)),  # embedding-like: many repeats
    (np.array([], np.int64), (4, 2)),
    ([1, 1, -3], (4,)),
    ((np.array([2, 0, 2]),), (3, 5)),  # a one-array tuple, as Gather's rule passes it
    (np.array([[0, 1], [1, 1]], np.uint8), (3, 2, 2)),
    (2, (3, 8, 4)),  # basic indices
    ((slice(None), 1, slice(0, 4, 2)), (3, 2, 4)),
    ((Ellipsis, None, 0), (2, 3)),
]


@pytest.mark.parametrize("index,shape", CASES)
def test_getitem_grad_matches_add_at(index, shape):
    dout = (R.standard_normal(np.zeros(shape)[index].shape) * 1e3).astype(np.float32)
    got = REGISTRY["GetitemGrad"].kernel(dout, index, shape=shape)
    want = np.zeros(shape, np.float32)
    np.add.at(want, np.asarray(index) if isinstance(index, list) else index, dout)
    assert got.dtype == want.dtype
    np.testing.assert_array_equal(got.view(np.uint32), want.view(np.uint32))
