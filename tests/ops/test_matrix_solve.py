"""ops.matrix_solve against np.linalg.solve (real, complex, adjoint, float16, batches),
graph == pynative, and MindSpore 2.10's errors (checked by hand with MindSpore). Its
gradient is checked by finite differences in tests/ops/test_bprop.py."""
import numpy as np
import pytest

import graphkiln as ms
from graphkiln import Tensor, ops

R = np.random.default_rng(0)


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.complex64, np.float16])
@pytest.mark.parametrize("adjoint", [False, True])
def test_matches_numpy(dtype, adjoint):
    a = R.standard_normal((2, 3, 3)) + 3 * np.eye(3)
    b = R.standard_normal((2, 3, 4))
    if dtype == np.complex64:
        a, b = a + 1j * R.standard_normal(a.shape), b - 1j
    a, b = a.astype(dtype), b.astype(dtype)
    lhs = np.conj(np.swapaxes(a, -1, -2)) if adjoint else a
    wide = np.complex128 if dtype == np.complex64 else np.float64
    want = np.linalg.solve(lhs.astype(wide), b.astype(wide))
    got = ops.matrix_solve(Tensor(a), Tensor(b), adjoint)
    graph = ms.jit(lambda m, r: ops.matrix_solve(m, r, adjoint))(Tensor(a), Tensor(b))
    tol = 1e-2 if dtype == np.float16 else 1e-5
    assert got.dtype == Tensor(b).dtype
    np.testing.assert_allclose(got.asnumpy(), want, rtol=tol, atol=tol)
    np.testing.assert_array_equal(graph.asnumpy(), got.asnumpy())


@pytest.mark.parametrize("a, b, error, phrase", [
    (np.eye(3, dtype=np.int32), np.ones((3, 2), np.int32), TypeError, "Tensor[Float32]"),
    (np.eye(3, dtype=np.float32), np.ones((3, 2)), TypeError, "input type must be same"),
    (np.eye(3, dtype=np.float32), np.ones((4, 2), np.float32), ValueError, "M in the shape"),
    (np.ones((2, 3, 3), np.float32), np.ones((3, 3, 2), np.float32), ValueError, "0th dimension"),
    (np.zeros((3, 3), np.float32), np.ones((3, 2), np.float32), ValueError, "not invertible"),
    (np.ones(3, np.float32), np.ones((3, 2), np.float32), ValueError, "greater than or equal"),
])
def test_errors(a, b, error, phrase):
    with pytest.raises(error, match=phrase.replace("[", r"\[").replace("]", r"\]")):
        ops.matrix_solve(Tensor(a), Tensor(b))
