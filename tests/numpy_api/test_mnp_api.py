"""``mindspore.numpy`` functions against MindSpore 2.10 (tests/ops/fixtures/api_numpy.json by
tests/ops/fixtures/record_api_cases.py numpy); GRAPH (@jit) == PYNATIVE for each case."""
import sys
from pathlib import Path

import numpy as np
import pytest

import graphkiln as ms
import graphkiln.numpy as mnp

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "ops"))

def test_bincount_in_a_graph_needs_length():
    k = ms.Tensor(np.array([0, 3, 1], np.int32))
    with pytest.raises(ValueError, match="length"):
        ms.jit(lambda a: mnp.bincount(a))(k)
    got = ms.jit(lambda a: mnp.bincount(a, length=5))(k)
    np.testing.assert_array_equal(got.asnumpy(), [1, 1, 0, 1, 0])


def test_bad_inputs_raise_mindspore_errors():
    x = ms.Tensor(np.ones((2, 3), np.float32))
    with pytest.raises(TypeError):
        mnp.asarray({1, 2})
    with pytest.raises(ValueError):
        mnp.empty_like([[1, 2, 3], [4, 5]])
    with pytest.raises(TypeError):
        mnp.intersect1d(x, x, assume_unique=1)
    with pytest.raises(ValueError):
        mnp.randn(dtype=ms.int32)
    with pytest.raises(TypeError):
        mnp.randn(1, 1.2)
    with pytest.raises(ValueError):
        mnp.randint(2, 1)


@pytest.mark.parametrize("shape, axis, spacing", [
    ((6,), None, ()), ((4, 5), None, (0.5,)),
    ((3, 7), 1, (2.0,)), ((3, 4), (0, 1), (1.5, 3.0))])
def test_gradient_second_order_edges_match_numpy(shape, axis, spacing):
    """``edge_order=2`` (MindSpore 2.10 raises for it): NumPy's second-order one-sided
    differences at both ends, eagerly and in a graph."""
    f = np.random.default_rng(3).standard_normal(shape).astype(np.float32)
    want = np.gradient(f.astype(np.float64), *spacing, axis=axis, edge_order=2)
    want = list(want) if isinstance(want, (list, tuple)) else [want]
    fn = lambda t: mnp.gradient(t, *spacing, axis=axis, edge_order=2)  # noqa: E731
    for got in (fn(ms.Tensor(f)), ms.jit(fn)(ms.Tensor(f))):
        got = got if isinstance(got, (list, tuple)) else [got]
        assert len(got) == len(want)
        for g, w in zip(got, want):
            np.testing.assert_allclose(g.asnumpy(), w, rtol=1e-5, atol=1e-5)


def test_gradient_edge_order_errors_follow_numpy():
    with pytest.raises(ValueError, match="at least 3 elements"):
        mnp.gradient(ms.Tensor(np.ones(2, np.float32)), edge_order=2)
    with pytest.raises(ValueError, match="'edge_order' greater than 2"):
        mnp.gradient(ms.Tensor(np.ones(4, np.float32)), edge_order=3)
