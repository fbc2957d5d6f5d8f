"""Linear, Unflatten, Roll, Norm and L1Regularizer against MindSpore 2.10
(fixtures/record_layer_breadth.py; Roll has no MindSpore CPU kernel, so it is checked
against np.roll), in PYNATIVE and GRAPH mode, gradients, and argument errors."""
import sys
from pathlib import Path

import numpy as np
import pytest

from graphkiln import nn

sys.path.insert(0, str(Path(__file__).resolve().parent / "fixtures"))
from breadth_check import MODES, Family  # noqa: E402
from layer_breadth_cases import basic  # noqa: E402

FAMILY = Family("layer_breadth", basic)
REFS = {"roll": lambda x: np.roll(x, 2, 1),
        "roll_multi": lambda x: np.roll(x, (1, -2), (0, -1))}


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("name", sorted(FAMILY.cases))
def test_value_matches_mindspore(name, mode):
    FAMILY.check_value(name, mode, REFS)


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("name", ["linear", "linear_3d", "norm_axis", "norm_keep",
                                  "l1_regularizer"])
def test_gradient_matches_mindspore(name, mode):
    FAMILY.check_grad(name, mode)


@pytest.mark.parametrize("name", ["norm_all", "roll_multi"])
def test_gradient_matches_finite_differences(name):
    FAMILY.check_finite_differences(name)


def test_linear_gradient_matches_finite_differences():
    FAMILY.check_finite_differences("linear_nobias", float32=True)


@pytest.mark.parametrize("name", FAMILY.error_names())
def test_errors_have_mindspore_types(name):
    FAMILY.check_error(name)


def test_linear_parameters_and_repr():
    layer = nn.Linear(3, 2)
    assert [p.name for p in layer.get_parameters()] == ["weight", "bias"]
    assert layer.weight.shape == (2, 3) and layer.bias.shape == (2,)
    assert "input_features=3, output_features=2, has_bias=True" in repr(layer)
    assert nn.Linear(3, 2, bias=False).bias is None
