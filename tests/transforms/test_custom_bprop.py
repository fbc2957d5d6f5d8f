"""A Cell's custom ``bprop`` replaces the derivative of its ``construct`` in autodiff
(GradOperation, grad, value_and_grad, jit of grad), in GRAPH and PYNATIVE mode: numbers,
errors and messages recorded from MindSpore 2.10 (fixtures/record_custom_bprop.py)."""
import json
import sys
from pathlib import Path

import numpy as np
import pytest

import graphkiln as ms

FIXTURES = Path(__file__).resolve().parent / "fixtures"
sys.path.insert(0, str(FIXTURES))
from custom_bprop_cases import assign_in_bprop, error_cases, run_cases  # noqa: E402

RECORDED = np.load(FIXTURES / "custom_bprop.npz")
ERRORS = json.loads((FIXTURES / "custom_bprop_errors.json").read_text())


@pytest.fixture
def restore_mode():
    mode = ms.get_context("mode")
    yield
    ms.set_context(mode=mode)


@pytest.mark.parametrize("mode", [0, 1])
def test_gradients_match_mindspore(mode, restore_mode):
    got = run_cases(ms, mode)
    expected = {k.split("/", 1)[1]: v for k, v in RECORDED.items() if k.startswith(f"{mode}/")}
    expected.pop("assign")
    assert sorted(got) == sorted(expected)
    for name, value in expected.items():
        np.testing.assert_allclose(got[name], value, rtol=1e-6, err_msg=name)


def test_pynative_equals_graph(restore_mode):
    graph, pynative = run_cases(ms, 0), run_cases(ms, 1)
    for name, value in graph.items():
        np.testing.assert_array_equal(pynative[name], value, err_msg=name)


@pytest.mark.parametrize("mode", [0, 1])
def test_assign_to_parameter_argument_in_bprop(mode, restore_mode):
    np.testing.assert_array_equal(assign_in_bprop(ms, mode), RECORDED[f"{mode}/assign"])


@pytest.mark.parametrize("name,mode,fn", error_cases(ms), ids=[c[0] for c in error_cases(ms)])
def test_bad_bprop_results(name, mode, fn, restore_mode):
    ms.set_context(mode=mode)
    recorded = ERRORS[name]
    if recorded is None:
        fn()
        return
    error_type, message = recorded
    with pytest.raises({"RuntimeError": RuntimeError, "TypeError": TypeError}[error_type]) \
            as info:
        fn()
    key = message.split(", but got")[0].split(" : ")[0]
    assert key in str(info.value)


class _PrintingCell(ms.nn.Cell):
    """Its construct has a side effect, which graphkiln cannot put behind a custom bprop."""

    def construct(self, x):
        print("x:", x)
        return x * 2

    def bprop(self, x, out, dout):
        return (dout,)


def test_side_effect_in_construct_runs_forward_and_refuses_grad(restore_mode):
    ms.set_context(mode=0)
    x = ms.Tensor(np.array([1.0, 2.0], np.float32))
    doubled = ms.jit(lambda v: _PrintingCell()(v))(x)
    np.testing.assert_array_equal(doubled.asnumpy(), [2.0, 4.0])
    with pytest.raises(RuntimeError, match="custom 'bprop'.*side effects"):
        ms.grad(_PrintingCell())(x)


def test_bprop_debug_flag():
    cell = _PrintingCell()
    assert cell.bprop_debug is False
    cell.bprop_debug = True
    assert cell.bprop_debug is True
    with pytest.raises(TypeError, match="'bprop_debug' must be bool type"):
        cell.bprop_debug = 1
