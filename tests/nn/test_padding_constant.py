"""ConstantPad1d/2d/3d and ZeroPad2d against MindSpore 2.10 (fixtures/record_layer_breadth.py)
in PYNATIVE and GRAPH mode, gradients, and argument errors."""
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent / "fixtures"))
from breadth_check import MODES, Family  # noqa: E402
from layer_breadth_cases import padding  # noqa: E402

FAMILY = Family("layer_breadth", padding)


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("name", sorted(FAMILY.cases))
def test_value_matches_mindspore(name, mode):
    FAMILY.check_value(name, mode, {})


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("name", ["constant2d_neg", "constant3d_tuple", "zero2d"])
def test_gradient_matches_mindspore(name, mode):
    FAMILY.check_grad(name, mode)


@pytest.mark.parametrize("name", FAMILY.error_names())
def test_errors_have_mindspore_types(name):
    FAMILY.check_error(name)
