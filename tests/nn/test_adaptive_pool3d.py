"""AdaptiveAvgPool3d and AdaptiveMaxPool3d (with indices) against MindSpore 2.10
(fixtures/record_layer_breadth.py), in PYNATIVE and GRAPH mode, gradients against
MindSpore's and finite differences, and errors."""
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent / "fixtures"))
from breadth_check import MODES, Family  # noqa: E402
from layer_breadth_cases import pool3d  # noqa: E402

FAMILY = Family("layer_breadth", pool3d)


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("name", sorted(FAMILY.cases))
def test_value_matches_mindspore(name, mode):
    FAMILY.check_value(name, mode, {})


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("name", ["adaptive_avg3d", "adaptive_avg3d_int", "adaptive_max3d"])
def test_gradient_matches_mindspore(name, mode):
    FAMILY.check_grad(name, mode)


@pytest.mark.parametrize("name", ["adaptive_avg3d_int", "adaptive_max3d"])
def test_gradient_matches_finite_differences(name):
    FAMILY.check_finite_differences(name)


@pytest.mark.parametrize("name", FAMILY.error_names())
def test_errors_have_mindspore_types(name):
    FAMILY.check_error(name)
