"""``mindspore.numpy`` functions against MindSpore 2.10 (tests/ops/fixtures/api_numpy.json by
tests/ops/fixtures/record_api_cases.py numpy); GRAPH (@jit) == PYNATIVE for each case."""
import sys
from pathlib import Path

import numpy as np
import pytest

import graphkiln as ms
import graphkiln.numpy as mnp

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "ops"))
from api_case_check import check_graph, check_recorded, load  # noqa: E402

FAM = load("numpy")
# shapes that depend on the values (the default bincount length) or Python-only helpers
_NO_GRAPH = {"bincount", "promote_result_types", "apply_along_axis"}


@pytest.mark.parametrize("name", sorted(FAM.cases))
def test_matches_mindspore(name):
    check_recorded(FAM, name)


@pytest.mark.parametrize("name", sorted(set(FAM.cases) - _NO_GRAPH))
def test_graph_equals_pynative(name):
    check_graph(FAM, name)


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
