"""``CSRTensor``: the compressed sparse rows of a dense matrix (NumPy reference: row ``i``
holds ``values[indptr[i]:indptr[i+1]]`` at columns ``indices[...]``), and bad shapes."""
import numpy as np
import pytest

import graphkiln as ms
from graphkiln import Tensor


def test_to_dense_and_properties():
    csr = ms.CSRTensor(Tensor(np.array([0, 1, 1, 3], np.int32)),
                       Tensor(np.array([2, 0, 3], np.int32)),
                       Tensor(np.array([1.5, -2.0, 4.0], np.float32)), (3, 4))
    want = np.zeros((3, 4), np.float32)
    want[0, 2], want[2, 0], want[2, 3] = 1.5, -2.0, 4.0
    np.testing.assert_array_equal(csr.to_dense().asnumpy(), want)
    assert csr.shape == (3, 4) and csr.dtype == ms.float32 and csr.size == 3
    copy = ms.CSRTensor(csr_tensor=csr.astype(ms.float64))
    assert copy.to_dense().dtype == ms.float64


def test_bad_arguments():
    with pytest.raises(ValueError, match="indptr"):
        ms.CSRTensor(Tensor(np.array([0, 1], np.int32)), Tensor(np.array([0], np.int32)),
                     Tensor(np.array([1.0], np.float32)), (3, 4))
    with pytest.raises(TypeError):
        ms.CSRTensor(csr_tensor=Tensor(np.zeros(2)))
