"""``mint`` functions whose MindSpore 2.10 kernels are Ascend-only (so not recorded on CPU),
against NumPy, in PYNATIVE and GRAPH mode."""
import numpy as np
import pytest

import graphkiln as ms
from graphkiln import mint

X = np.array([[1.0, -2.5, 3.0], [4.0, 0.5, -6.0]], np.float32)


def _run(fn, *args):
    class Apply(ms.nn.Cell):
        def construct(self, *xs):
            return fn(*xs)
    return Apply()(*args)


@pytest.mark.parametrize("mode", [ms.PYNATIVE_MODE, ms.GRAPH_MODE])
def test_mint_against_numpy(mode):
    ms.set_context(mode=mode)
    out = _run(lambda x: (mint.stack((x, x), 1), mint.tril(x, 1), mint.argmax(x, 1),
                          mint.nn.functional.hardtanh(x), mint.nn.functional.leaky_relu(x, 0.1),
                          mint.special.exp2(x), mint.topk(x, 2, 1)[0],
                          mint.sort(x, dim=0, descending=True)[0]), ms.Tensor(X))
    want = (np.stack((X, X), 1), np.tril(X, 1), np.argmax(X, 1), np.clip(X, -1, 1),
            np.where(X > 0, X, 0.1 * X), np.exp2(X), -np.sort(-X, 1)[:, :2], -np.sort(-X, 0))
    for got, ref in zip(out, want):
        np.testing.assert_allclose(got.asnumpy(), ref, rtol=1e-6)


def test_mint_creation():
    np.testing.assert_array_equal(mint.arange(5).asnumpy(), np.arange(5))
    assert mint.arange(5).dtype == ms.int64 and mint.arange(1, 2, 0.25).dtype == ms.float32
    np.testing.assert_allclose(mint.arange(1, 2, 0.25).asnumpy(), np.arange(1, 2, 0.25))
    full = mint.full((2, 2), 7)
    assert full.dtype == ms.int64 and full.asnumpy().tolist() == [[7, 7], [7, 7]]
    assert mint.full((2,), 1.5).dtype == ms.float32
    with pytest.raises(ValueError, match="step"):
        mint.arange(0, 3, 0)


def test_mint_median_var_and_linalg():
    x = ms.Tensor(X)
    assert float(mint.median(x).asnumpy()) == np.sort(X.ravel())[(X.size - 1) // 2]
    np.testing.assert_allclose(mint.var(x, 1).asnumpy(), np.var(X, 1, ddof=1), rtol=1e-6)
    np.testing.assert_allclose(mint.linalg.vector_norm(x, 3).asnumpy(),
                               np.sum(np.abs(X) ** 3) ** (1 / 3), rtol=1e-6)
    assert mint.allclose(x, x)
