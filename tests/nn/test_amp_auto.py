"""amp_level "auto": per-primitive casts (white list to float16, black list to float32,
promote list to the widest float input, tuple elements included) against MindSpore 2.10
(fixtures/record_amp_auto.py), for functions and Cells in both modes; a compiled function
traced under the strategy equals the eager run and is compiled apart from the same function
without it."""
import json
import sys
from pathlib import Path

import numpy as np
import pytest

import graphkiln as ms
from graphkiln import amp, ops

FIXTURES = Path(__file__).resolve().parent / "fixtures"
sys.path.insert(0, str(FIXTURES))
from amp_auto_cases import CASES, run, run_cell, run_dense  # noqa: E402

RECORDED = json.loads((FIXTURES / "amp_auto.json").read_text())


@pytest.mark.parametrize("name", sorted(CASES))
def test_auto_casts_like_mindspore(name):
    dtype, values = run(ms, name)
    want_dtype, want = RECORDED[name]
    assert dtype == want_dtype
    np.testing.assert_allclose(values, want, rtol=1e-5, atol=1e-5)


def test_strategy_ends_with_the_call():
    fn = amp.auto_mixed_precision(lambda a, b: ops.matmul(a, b), "auto")
    x = ms.Tensor(np.ones((1, 2), np.float32))
    assert fn(x, x.T).dtype == ms.float16
    assert ops.matmul(x, x.T).dtype == ms.float32


def test_compiled_call_under_auto_equals_eager():
    @ms.jit
    def addn(a, b):
        return ops.addn([a, b])

    a = ms.Tensor(np.array([1.5, 2.0], np.float16))
    b = ms.Tensor(np.array([3.25, 4.0], np.float32))
    graph = amp.auto_mixed_precision(lambda: addn(a, b), "auto")()
    eager = amp.auto_mixed_precision(lambda: ops.addn([a, b]), "auto")()
    assert graph.dtype == eager.dtype == ms.float32
    np.testing.assert_array_equal(graph.asnumpy(), eager.asnumpy())
    with pytest.raises(TypeError, match="same dtype"):  # without the strategy: no cast
        addn(a, b)


def test_auto_refuses_what_is_not_callable():
    with pytest.raises(TypeError, match="Cell or function"):
        amp.auto_mixed_precision(3, "auto")


@pytest.mark.parametrize("mode", ["PYNATIVE_MODE", "GRAPH_MODE"])
def test_cell_under_auto_matches_mindspore(mode):
    before = ms.get_context("mode")
    try:
        dtype, values = run_cell(ms, mode)
    finally:
        ms.set_context(mode=before)
    want_dtype, want = RECORDED[f"cell_{mode}"]
    assert dtype == want_dtype
    np.testing.assert_allclose(values, want, rtol=2e-3)  # the Dense ran in float16


@pytest.mark.parametrize("has_bias", [False, True])
@pytest.mark.parametrize("mode", ["PYNATIVE_MODE", "GRAPH_MODE"])
def test_dense_cell_dtype_matches_mindspore(mode, has_bias):
    before = ms.get_context("mode")
    try:
        got = run_dense(ms, mode, has_bias)
    finally:
        ms.set_context(mode=before)
    assert got == RECORDED[f"dense_{mode}_{has_bias}"]
