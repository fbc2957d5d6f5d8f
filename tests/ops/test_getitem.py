"""``x[index]`` against NumPy: ints, slices, None, ``...``, int and bool tensors and lists,
including the shape-only inference (no array of the indexed shape is built)."""
import numpy as np
import pytest

import graphkiln as ms
from graphkiln import Tensor, ops
from graphkiln.ir.abstract import AbstractScalar, AbstractTensor, AbstractTuple
from graphkiln.ir.primitive import REGISTRY

pytestmark = pytest.mark.filterwarnings("error")

X = np.arange(3 * 4 * 5 * 6, dtype=np.float32).reshape(3, 4, 5, 6)
I = np.array([0, 2, -1], np.int64)
J = np.array([[1], [0]], np.int32)

CASES = [
    0, -1, (1, 2), slice(1, None), (slice(None, None, -1), 2), (Ellipsis, 0),
    (None, 1, Ellipsis, None), (slice(0, 3, 2), None, slice(1, 3)), (1, slice(5, 1, -2), 0, 5),
    I, (I, J), (slice(None), I), (I, slice(None), J), (0, slice(None), I),
    (slice(None), 0, slice(None), I), (Ellipsis, I), (I, Ellipsis, I), (slice(None), None, I, J),
    (X[:, 0, 0, 0] > 50,), (slice(None), X[0, :, 0, 0] > 100), (1, X[0, :, :, 0] > 10),
    (slice(10, 20),), (slice(None), slice(None), slice(None), slice(-2, None)), True,
]


def _tensor_index(index):
    if isinstance(index, np.ndarray):
        return Tensor(index)
    if isinstance(index, tuple):
        return tuple(_tensor_index(i) for i in index)
    return index


@pytest.mark.parametrize("index", CASES, ids=[str(i)[:40] for i in range(len(CASES))])
def test_getitem_matches_numpy(index):
    expect = X[index]
    out = Tensor(X)[_tensor_index(index)]
    assert out.dtype is ms.float32
    assert out.shape == expect.shape
    np.testing.assert_array_equal(out.asnumpy(), expect)
    assert ops.Getitem()(Tensor(X), _tensor_index(index)).shape == expect.shape


def test_getitem_with_lists():
    x = Tensor(X)
    np.testing.assert_array_equal(x[[0, 2]].asnumpy(), X[[0, 2]])
    np.testing.assert_array_equal(x[1:, None, [0, 2]].asnumpy(), X[1:, None, [0, 2]])


def test_getitem_infer_uses_shapes_only():
    big = AbstractTensor(ms.float32, (1 << 30, 1 << 30, 8))
    idx = AbstractTuple([AbstractTensor(ms.int64, (1 << 20,)), AbstractScalar(slice(None)),
                         AbstractTensor(ms.int32, (1 << 20,))])
    out = REGISTRY["Getitem"].infer(big, idx)
    assert out.shape == (1 << 20, 1 << 30)


@pytest.mark.parametrize("index,err", [
    (3, IndexError), ((0, 0, 0, 0, 0), IndexError), ((Ellipsis, Ellipsis), IndexError),
    # index arrays that do not broadcast together: a ValueError in MindSpore 2.10
    (np.array([3]), IndexError), ((I, np.array([0, 1])), ValueError),
    (np.array([1.0]), IndexError), ("a", IndexError), (X[0, 0] > 1, IndexError),
    (slice(None, None, 0), IndexError),
])
def test_getitem_errors(index, err):
    with pytest.raises(err, match=r"For 'Getitem'.*\[3, 4, 5, 6\]"):
        Tensor(X)[_tensor_index(index)]


def test_getitem_bool_tensor_of_unknown_value_selects_an_unknown_count():
    mask = AbstractTensor(ms.bool_, (3,))
    out = REGISTRY["Getitem"].infer(AbstractTensor(ms.float32, (3, 4)), mask)
    assert out.shape == (-1, 4)
    with pytest.raises(IndexError, match="does not match"):
        REGISTRY["Getitem"].infer(AbstractTensor(ms.float32, (3, 4)),
                                  AbstractTensor(ms.bool_, (2, 2)))


def test_getitem_vector_mask_of_another_length_picks_its_nonzero_positions():
    # as MindSpore 2.10 (tests/ops/fixtures/opswide.json: bool_index_* cases)
    x = Tensor(np.arange(24.0).reshape(2, 3, 4))
    b = Tensor(np.array([False, True]))
    assert Tensor(x)[b, b].asnumpy().tolist() == [x.asnumpy()[1, 1].tolist()]
    assert REGISTRY["Getitem"].infer(AbstractTensor(ms.float32, (3, 4)),
                                     AbstractTensor(ms.bool_, (2,))).shape == (-1, 4)
