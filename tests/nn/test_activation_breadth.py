"""The activation cells added for breadth (CELU, SeLU, Hardtanh, Softsign, Softmin,
Softmax2d, Tanhshrink, Threshold, LogSigmoid, SoftShrink, HShrink, GLU, LRN, RReLU) against
MindSpore 2.10 (fixtures/record_layer_breadth.py), in PYNATIVE and GRAPH mode, gradients
against MindSpore's and finite differences, and argument errors."""
import sys
from pathlib import Path

import numpy as np
import pytest

import graphkiln as ms
from graphkiln import Tensor, nn

sys.path.insert(0, str(Path(__file__).resolve().parent / "fixtures"))
from breadth_check import MODES, Family  # noqa: E402
from layer_breadth_cases import activation  # noqa: E402

FAMILY = Family("layer_breadth", activation)
# MindSpore 2.10's CPU SeLU gradient is wrong for negative inputs (finite differences agree
# with graphkiln's scale * alpha * exp(x)), so SeLU's gradient is checked numerically only.
DIFF = sorted(n for n, c in FAMILY.cases.items() if c[2] and n != "selu")


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("name", sorted(FAMILY.cases))
def test_value_matches_mindspore(name, mode):
    FAMILY.check_value(name, mode, {})


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("name", DIFF)
def test_gradient_matches_mindspore(name, mode):
    FAMILY.check_grad(name, mode)


@pytest.mark.parametrize("name", ["celu", "selu", "softmin", "glu", "lrn", "logsigmoid",
                                  "softsign"])
def test_gradient_matches_finite_differences(name):
    FAMILY.check_finite_differences(name)


@pytest.mark.parametrize("name", FAMILY.error_names())
def test_errors_have_mindspore_types(name):
    FAMILY.check_error(name)


def test_glu_rejects_an_odd_axis():
    # MindSpore 2.10's CPU Split returns a wrong-shaped result here; graphkiln says why
    with pytest.raises(ValueError, match="divisible by 2"):
        nn.GLU()(Tensor(np.ones((2, 3), np.float32)))


@pytest.mark.parametrize("mode", MODES)
def test_rrelu_slopes_are_uniform_in_bounds(mode):
    ms.set_context(mode=MODES[mode])
    ms.set_seed(1)
    x = np.concatenate([-np.ones(4000, np.float32), np.arange(1, 5, dtype=np.float32)])
    out = nn.RReLU(0.1, 0.3)(Tensor(x)).asnumpy()
    slopes = -out[:4000]
    assert slopes.min() >= 0.1 and slopes.max() < 0.3
    assert abs(slopes.mean() - 0.2) < 0.01 and abs(slopes.var() - 0.04 / 12) < 5e-4
    np.testing.assert_array_equal(out[4000:], x[4000:])  # positives pass unchanged
    ms.set_seed(1)
    again = nn.RReLU(0.1, 0.3)(Tensor(x)).asnumpy()
    np.testing.assert_array_equal(out, again)


def test_new_names_in_get_activation():
    from graphkiln.nn.activation import get_activation
    assert isinstance(get_activation("softmin"), nn.Softmin)
    assert isinstance(get_activation("logsigmoid"), nn.LogSigmoid)
    assert isinstance(get_activation("hshrink"), nn.HShrink)
