"""ops.var/std/var_mean/std_mean against NumPy, graph == pynative, the gradient against
finite differences, and MindSpore 2.10's errors (checked by hand with MindSpore)."""
import numpy as np
import pytest

import graphkiln as ms
from graphkiln import Tensor, ops

X = np.random.default_rng(0).standard_normal((3, 4, 5))


@pytest.mark.parametrize("axis", [None, 0, -1, (0, 2)])
@pytest.mark.parametrize("ddof", [0, 1, True, 2])
@pytest.mark.parametrize("keepdims", [False, True])
def test_match_numpy(axis, ddof, keepdims):
    t = Tensor(X)
    kw = dict(axis=axis, ddof=ddof, keepdims=keepdims)
    want_var = np.var(X, axis=axis, ddof=int(ddof), keepdims=keepdims)
    want_mean = np.mean(X, axis=axis, keepdims=keepdims)
    np.testing.assert_allclose(ops.var(t, **kw).asnumpy(), want_var, rtol=1e-12)
    np.testing.assert_allclose(ops.std(t, **kw).asnumpy(), np.sqrt(want_var), rtol=1e-12)
    std, mean = ms.jit(lambda v: ops.std_mean(v, **kw))(t)
    np.testing.assert_allclose(std.asnumpy(), np.sqrt(want_var), rtol=1e-12)
    np.testing.assert_allclose(mean.asnumpy(), want_mean, rtol=1e-12)
    variance, mean = ops.var_mean(t, **kw)
    np.testing.assert_allclose(variance.asnumpy(), want_var, rtol=1e-12)
    assert mean.shape == want_mean.shape


def test_std_gradient_matches_finite_differences():
    x = X[0]
    grad = ms.grad(lambda t: ops.std(t, axis=1, ddof=1).sum())(Tensor(x)).asnumpy()
    eps, numeric = 1e-6, np.zeros_like(x)
    for idx in np.ndindex(x.shape):
        hi, lo = x.copy(), x.copy()
        hi[idx] += eps
        lo[idx] -= eps
        numeric[idx] = (np.std(hi, 1, ddof=1).sum() - np.std(lo, 1, ddof=1).sum()) / (2 * eps)
    np.testing.assert_allclose(grad, numeric, rtol=1e-6, atol=1e-8)


def test_float16_keeps_its_dtype_and_one_element_with_ddof_is_nan():
    std, mean = ops.std_mean(Tensor(np.ones(3, np.float16)))
    assert std.dtype == ms.float16 and mean.dtype == ms.float16
    assert np.isnan(ops.std(Tensor(np.ones(1, np.float32)), ddof=1).asnumpy())


@pytest.mark.parametrize("x, kwargs, error, phrase", [
    (np.arange(4, dtype=np.int32), {}, TypeError, "float16, float32 or float64"),
    (X, {"ddof": 1.5}, TypeError, "'ddof'"),
    (X, {"axis": 5}, ValueError, "range of"),
    (X, {"axis": 1.0}, TypeError, "integer"),
])
def test_errors(x, kwargs, error, phrase):
    with pytest.raises(error, match=phrase):
        ops.std_mean(Tensor(x), **kwargs)
