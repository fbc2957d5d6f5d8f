"""SpaceToDepth, ReverseSequence, Renorm and pdist against NumPy references (SciPy's
condensed distance order for pdist), graph == pynative, gradients of the composite pdist
against finite differences, and MindSpore 2.10's errors (checked by hand with MindSpore);
the primitives' gradients are checked in tests/ops/test_bprop.py."""
import numpy as np
import pytest

import graphkiln as ms
from graphkiln import Tensor, ops
from graphkiln.ops import operations as P

R = np.random.default_rng(0)


def test_space_to_depth_moves_patches_offset_major():
    x = np.arange(2 * 3 * 4 * 6, dtype=np.float32).reshape(2, 3, 4, 6)
    got = P.SpaceToDepth(2)(Tensor(x)).asnumpy()
    assert got.shape == (2, 12, 2, 3)
    for dh in range(2):
        for dw in range(2):
            block = got[:, (dh * 2 + dw) * 3:(dh * 2 + dw + 1) * 3]
            np.testing.assert_array_equal(block, x[:, :, dh::2, dw::2])
    graph = ms.jit(lambda t: P.SpaceToDepth(2)(t))(Tensor(x))
    np.testing.assert_array_equal(graph.asnumpy(), got)


def test_reverse_sequence_reverses_each_prefix():
    x = np.arange(24, dtype=np.float32).reshape(2, 4, 3)
    lengths = np.array([3, 0, 1], np.int32)
    got = ops.reverse_sequence(Tensor(x), Tensor(lengths), seq_dim=1, batch_dim=2).asnumpy()
    want = x.copy()
    for b, n in enumerate(lengths):
        want[:, :n, b] = x[:, :n, b][:, ::-1]
    np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("p, dim, maxnorm", [(1, 0, 5.0), (2, 1, 3.0), (3, -1, 100.0)])
def test_renorm_matches_numpy(p, dim, maxnorm):
    x = R.standard_normal((3, 4, 2)) * 4
    others = tuple(a for a in range(3) if a != dim % 3)
    norm = np.sum(np.abs(x) ** p, axis=others, keepdims=True) ** (1 / p)
    want = x * np.where(norm > maxnorm, maxnorm / (norm + 1e-7), 1.0)
    np.testing.assert_allclose(ops.renorm(Tensor(x), p, dim, maxnorm).asnumpy(), want,
                               rtol=1e-12)


@pytest.mark.parametrize("p", [0.0, 1.0, 2.0, 3.5, float("inf")])
def test_pdist_matches_pairwise_norms(p):
    x = R.standard_normal((5, 3))
    i, j = np.triu_indices(5, k=1)
    d = x[i] - x[j]
    if p == 0:
        want = (d != 0).sum(1)
    elif np.isinf(p):
        want = np.abs(d).max(1)
    else:
        want = (np.abs(d) ** p).sum(1) ** (1 / p)
    np.testing.assert_allclose(ops.pdist(Tensor(x), p).asnumpy(), want, rtol=1e-12)
    graph = ms.jit(lambda t: ops.pdist(t, p))(Tensor(x))
    np.testing.assert_allclose(graph.asnumpy(), want, rtol=1e-12)


def test_pdist_gradient_matches_finite_differences():
    x = R.standard_normal((4, 3))
    grad = ms.grad(lambda t: ops.pdist(t, 3.0).sum())(Tensor(x)).asnumpy()
    i, j = np.triu_indices(4, k=1)

    def total(v):
        return ((np.abs(v[i] - v[j]) ** 3).sum(1) ** (1 / 3)).sum()
    eps, numeric = 1e-6, np.zeros_like(x)
    for idx in np.ndindex(x.shape):
        hi, lo = x.copy(), x.copy()
        hi[idx] += eps
        lo[idx] -= eps
        numeric[idx] = (total(hi) - total(lo)) / (2 * eps)
    np.testing.assert_allclose(grad, numeric, rtol=1e-6, atol=1e-8)


@pytest.mark.parametrize("call, error, phrase", [
    (lambda: P.SpaceToDepth(3)(Tensor(np.ones((1, 1, 4, 4), np.float32))), ValueError,
     "% block_size"),
    (lambda: P.SpaceToDepth(1)(Tensor(np.ones((1, 1, 4, 4), np.float32))), ValueError, ">= "),
    (lambda: P.SpaceToDepth(2)(Tensor(np.ones((4, 4, 4), np.float32))), ValueError, "rank"),
    (lambda: P.ReverseSequence(1, 1)(Tensor(np.ones((2, 2))), Tensor(np.ones(2, np.int32))),
     ValueError, "batch_dim"),
    (lambda: P.ReverseSequence(1)(Tensor(np.ones((2, 2))), Tensor(np.ones(3, np.int32))),
     ValueError, "vector size"),
    (lambda: P.ReverseSequence(1)(Tensor(np.ones((2, 2))), Tensor(np.array([1, 5], np.int32))),
     RuntimeError, "seq_lengths"),
    (lambda: P.Renorm(0, 0, 1.0)(Tensor(np.ones((2, 2), np.float32))), ValueError,
     "non-positive-norm"),
    (lambda: P.Renorm(1.5, 0, 1.0)(Tensor(np.ones((2, 2), np.float32))), TypeError, "'int'"),
    (lambda: P.Renorm(1, 3, 1.0)(Tensor(np.ones((2, 2), np.float32))), RuntimeError, "range"),
    (lambda: P.Renorm(1, 0, -1.0)(Tensor(np.ones((2, 2), np.float32))), RuntimeError,
     "non-negative"),
    (lambda: ops.pdist(Tensor(np.ones((2, 2), np.int32))), TypeError, "Float32"),
    (lambda: ops.pdist(Tensor(np.ones(3, np.float32))), ValueError, "dim must be equal to 2"),
    (lambda: ops.pdist(Tensor(np.ones((2, 2), np.float32)), -1.0), ValueError, "non-negative"),
])
def test_errors(call, error, phrase):
    with pytest.raises(error, match=phrase):
        call()


def test_range_dtypes_lengths_and_errors():
    got = ops.Range()(Tensor(2, ms.int32), Tensor(5, ms.int32), Tensor(2, ms.int32))
    assert got.dtype == ms.int64 and got.asnumpy().tolist() == [2, 4]
    down = ops.range(Tensor(np.float64(5)), Tensor(np.float64(2)), Tensor(np.float64(-1.5)))
    assert down.dtype == ms.float32 and down.asnumpy().tolist() == [5.0, 3.5]
    assert ops.range(2, 2, 1).shape == (0,)
    graph = ms.jit(lambda a, b: ops.range(a, b, 3))(Tensor(1, ms.int64), Tensor(10, ms.int64))
    assert graph.asnumpy().tolist() == [1, 4, 7]
    with pytest.raises(ValueError, match="cannot be equal to zero"):
        ops.range(1, 5, 0)
    with pytest.raises(ValueError, match="cannot be negative"):
        ops.range(1, 5, -1)
