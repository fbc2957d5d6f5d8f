"""``ops.norm`` / ``ops.vector_norm``: MindSpore 2.10's cases (checked by hand on MindSpore)
against ``np.linalg.norm``, in both modes, with a finite-difference gradient."""
import math
import sys
from pathlib import Path

import numpy as np
import pytest

import graphkiln as ms
from graphkiln import Tensor, ops

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from numeric_grad import numeric_grad  # noqa: E402

X = np.arange(12, dtype=np.float32).reshape(3, 4) - 5

CASES = [
    ({}, lambda a: np.linalg.norm(a)),
    ({"dim": 1}, lambda a: np.linalg.norm(a, axis=1)),
    ({"ord": 1, "dim": 0}, lambda a: np.linalg.norm(a, 1, axis=0)),
    ({"ord": "fro"}, lambda a: np.linalg.norm(a, "fro")),
    ({"ord": math.inf, "dim": (0, 1)}, lambda a: np.linalg.norm(a, np.inf)),
    ({"ord": -1, "dim": (0, 1)}, lambda a: np.linalg.norm(a, -1)),
    ({"ord": 1}, lambda a: np.linalg.norm(a, 1)),
    ({"ord": 3, "dim": 1, "keepdim": True}, lambda a: np.linalg.norm(a, 3, axis=1,
                                                                     keepdims=True)),
    ({"ord": 0, "dim": 1}, lambda a: np.linalg.norm(a, 0, axis=1)),
]


@pytest.mark.parametrize("mode", [ms.GRAPH_MODE, ms.PYNATIVE_MODE], ids=["graph", "pynative"])
@pytest.mark.parametrize("kwargs,want", CASES)
def test_matches_numpy(kwargs, want, mode):
    ms.set_context(mode=mode)
    try:
        got = ms.jit(lambda t: ops.norm(t, **kwargs))(Tensor(X)).asnumpy()
    finally:
        ms.set_context(mode=ms.GRAPH_MODE)
    np.testing.assert_allclose(got, want(X.astype(np.float64)), rtol=1e-6)


def test_ints_errors_and_vector_norm():
    got = ops.norm(Tensor(np.arange(4, dtype=np.int32)))
    assert got.dtype == ms.float32
    np.testing.assert_allclose(got.asnumpy(), np.sqrt(14), rtol=1e-6)
    with pytest.raises(ValueError, match="ord mode must be in"):
        ops.norm(Tensor(X), "bad")
    # ord 'nuc', 2, -2 of singular values (Svd): NumPy's (MindSpore's: tests/ops/test_ops27.py)
    for o in ("nuc", 2, -2):
        np.testing.assert_allclose(ops.norm(Tensor(X), o).asnumpy(),
                                   np.linalg.norm(X.astype(np.float64), o), rtol=1e-5)
    np.testing.assert_allclose(ops.vector_norm(Tensor(X), 1, 0).asnumpy(),
                               np.abs(X).sum(0))


def test_gradient_matches_finite_differences():
    x = X.astype(np.float64) / 3

    def loss(t):
        return ops.norm(t, 3, dim=1).sum() + ops.norm(t)

    grad = ms.grad(loss)(Tensor(x)).asnumpy()
    np.testing.assert_allclose(grad, numeric_grad(loss, x), rtol=1e-5, atol=1e-8)
