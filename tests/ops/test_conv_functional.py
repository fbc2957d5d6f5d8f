"""``ops.conv1d/conv2d/conv3d`` against real MindSpore 2.10 (fixtures/record_conv_functional.py):
outputs and gradients in PYNATIVE and GRAPH mode, and MindSpore's errors for bad arguments."""
import os
import sys

import numpy as np
import pytest

import graphkiln as ms
from graphkiln import Tensor, ops

HERE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "fixtures")
sys.path.insert(0, HERE)
from conv_functional_cases import CASES, inputs  # noqa: E402

RECORDED = np.load(os.path.join(HERE, "conv_functional.npz"))


def _fn(case):
    fn_name, _, _, _, kwargs = CASES[case]
    x, w, b = inputs(case)
    bias = None if b is None else Tensor(b)
    return x, w, lambda x_, w_: getattr(ops, fn_name)(x_, w_, bias, **kwargs)


@pytest.mark.parametrize("case", sorted(CASES))
def test_conv_functional_matches_mindspore(case):
    x, w, f = _fn(case)
    np.testing.assert_allclose(f(Tensor(x), Tensor(w)).asnumpy(), RECORDED[f"{case}/out"],
                               rtol=1e-5, atol=1e-5)
    gx, gw = ops.grad(lambda x_, w_: f(x_, w_).sum(), grad_position=(0, 1))(Tensor(x),
                                                                             Tensor(w))
    np.testing.assert_allclose(gx.asnumpy(), RECORDED[f"{case}/grad_x"], rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(gw.asnumpy(), RECORDED[f"{case}/grad_w"], rtol=1e-5, atol=1e-5)


def test_conv2d_in_graph_mode_equals_pynative():
    x, w, f = _fn("conv2d_pad_tuple")
    compiled = ms.jit(f)
    np.testing.assert_allclose(compiled(Tensor(x), Tensor(w)).asnumpy(),
                               RECORDED["conv2d_pad_tuple/out"], rtol=1e-5, atol=1e-5)


def test_conv_functional_bad_arguments():
    x, w, b = inputs("conv2d_same")
    with pytest.raises(ValueError, match="'padding' must be a tuple or list of 2 integers"):
        ops.conv2d(Tensor(x), Tensor(w), pad_mode="pad", padding=(1, 1, 1, 1))
    with pytest.raises(ValueError, match="expected bias to be 1-dimensional with 3 elements"):
        ops.conv2d(Tensor(x), Tensor(w), Tensor(b[:2]))
    with pytest.raises(ValueError, match="'groups' should be divisible"):
        ops.conv2d(Tensor(x), Tensor(w), groups=2)
    with pytest.raises(ValueError, match="must be a 3D Tensor"):
        ops.conv1d(Tensor(x), Tensor(w))
