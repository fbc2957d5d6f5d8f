"""PyNative Tensor hooks on weights: a differentiated weight the output does not depend
on gets zeros, which its hooks see (recorded on MindSpore 2.10,
fixtures/record_unused_weight_hooks.py); a Parameter with requires_grad=False refuses a
hook with MindSpore's RuntimeError."""
import json
import sys
from pathlib import Path

import numpy as np
import pytest

import graphkiln as ms

FIXTURES = Path(__file__).resolve().parent / "fixtures"
sys.path.insert(0, str(FIXTURES))
from unused_weight_hook_cases import run  # noqa: E402

RECORDED = json.loads((FIXTURES / "unused_weight_hooks.json").read_text())


@pytest.fixture(autouse=True)
def pynative():
    before = ms.get_context("mode")
    ms.set_context(mode=ms.PYNATIVE_MODE)
    yield
    ms.set_context(mode=before)


@pytest.mark.parametrize("use_w2", [True, False])
def test_hooks_of_unused_weights_see_zeros(use_w2):
    assert run(ms, use_w2) == RECORDED[f"use_w2={use_w2}"]


def test_frozen_parameter_refuses_a_hook():
    p = ms.Parameter(ms.Tensor(np.ones(2, np.float32)), name="p", requires_grad=False)
    with pytest.raises(RuntimeError, match="requires grad is false, which can not register"):
        p.register_hook(lambda g: g)
