"""``_Function`` (custom autograd functions, PyNative): gradients and errors compared with
results recorded on MindSpore 2.10 (fixtures/record_grad_function.py)."""
import json
import sys
from pathlib import Path

import numpy as np
import pytest

import graphkiln as ms

FIXTURES = Path(__file__).resolve().parent / "fixtures"
sys.path.insert(0, str(FIXTURES))
from grad_function_cases import CASES, run  # noqa: E402

RECORDED = json.loads((FIXTURES / "grad_function.json").read_text())


def _same(got, want):
    if isinstance(want, dict) and "v" in want:
        assert got["dtype"] == want["dtype"]
        np.testing.assert_allclose(got["v"], want["v"], rtol=1e-6)
    elif isinstance(want, dict):
        assert sorted(got) == sorted(want)
        for k in want:
            _same(got[k], want[k])
    elif isinstance(want, list):
        assert len(got) == len(want)
        for g, w in zip(got, want):
            _same(g, w)
    else:
        assert got == want


@pytest.mark.parametrize("name", sorted(CASES))
def test_matches_mindspore(name):
    before = ms.get_context("mode")
    try:
        got = run(ms, name)
    finally:
        ms.set_context(mode=before)
    for key, want in RECORDED[name].items():
        _same(got[key], want)


def test_in_place_write_of_a_view_output_is_refused_under_grad():
    class Same(ms._Function):
        @staticmethod
        def forward(ctx, x):
            return x

        @staticmethod
        def backward(ctx, g):
            return g * 2

    def fn(x):
        y = Same.apply(x)
        y.add_(1.0)
        return y

    with pytest.raises(RuntimeError, match="output of custom cell"):
        ms.ops.GradOperation()(fn)(ms.Tensor([3.0, 3.0], ms.float32))


def test_not_inside_a_graph():
    class Same(ms._Function):
        @staticmethod
        def forward(ctx, x):
            return x

    with pytest.raises(RuntimeError, match="only supported in PyNative mode"):
        ms.jit(Same.apply)(ms.Tensor([1.0]))
