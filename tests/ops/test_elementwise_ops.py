"""The primitives of ``ops/defs/elementwise.py`` (Inv, Invert, Erfc, Erfinv, the inverse
hyperbolic functions, IsNan/IsInf/IsFinite, Elu, CeLU, HShrink, FastGeLU and their backward
kernels) and ``BiasAddGrad`` against values and errors recorded from MindSpore 2.10 CPU
(fixtures/elementwise.json, by fixtures/record_elementwise.py); GRAPH == PYNATIVE; the
gradients of the float32-only ops by finite differences."""
import json
import os
import sys

import numpy as np
import pytest

import graphkiln as ms
from graphkiln import Tensor, ops
from graphkiln.ops import operations as P

FIXTURES = os.path.join(os.path.dirname(__file__), "fixtures")
sys.path.insert(0, FIXTURES)
from elementwise_cases import CASES, GRAD_CASES, run_grad, run_op  # noqa: E402

with open(os.path.join(FIXTURES, "elementwise.json")) as f:
    RECORDED = json.load(f)

RTOL = {"Float16": 2e-3, "Float32": 2e-6, "Float64": 1e-12}
# MindSpore's erfinv is a polynomial approximation (about 1e-5 relative near +-0.99, in
# float64 too); graphkiln's is exact to float64 rounding
APPROXIMATE = {"Erfinv": 5e-5}


def _values(values):
    return np.array([float(v) for v in values])


@pytest.mark.parametrize("name,dtype", [(n, t) for n, (_, ins) in CASES.items() for t in ins])
def test_op_matches_mindspore(name, dtype):
    want_kind, want = RECORDED[f"{name}_{dtype}"]
    kind, got = run_op(P, Tensor, name, dtype)
    assert kind == want_kind, (name, dtype, got)
    if kind == "error":
        assert got == want
        return
    rtol = max(RTOL.get(kind, 0), APPROXIMATE.get(name, 0))
    np.testing.assert_allclose(got, _values(want), rtol=rtol, atol=1e-7)


@pytest.mark.parametrize("name", sorted(GRAD_CASES))
def test_backward_kernel_matches_mindspore(name):
    want_kind, want = RECORDED[name]
    kind, got = run_grad(P, Tensor, name)
    assert kind == want_kind
    np.testing.assert_allclose(got, _values(want), rtol=1e-6)


FUNCTIONS = [(ops.inv, "Inv"), (ops.erfc, "Erfc"), (ops.erfinv, "Erfinv"), (ops.asinh, "Asinh"),
             (ops.arccosh, "Acosh"), (ops.atanh, "Atanh"), (ops.isnan, "IsNan"),
             (ops.isinf, "IsInf"), (ops.isfinite, "IsFinite"), (ops.elu, "Elu"),
             (ops.fast_gelu, "FastGeLU"), (ops.hardshrink, "HShrink")]


@pytest.mark.parametrize("fn,name", FUNCTIONS)
def test_function_graph_equals_pynative_and_primitive(fn, name):
    x = Tensor(np.array(CASES[name][1]["float32"], np.float32))
    want = getattr(P, name)()(x).asnumpy()
    np.testing.assert_array_equal(fn(x).asnumpy(), want)
    np.testing.assert_array_equal(ms.jit(fn)(x).asnumpy(), want)


def test_functions_take_mindspore_arguments():
    x = Tensor(np.array([-2.0, -0.3, 0.4, 1.0], np.float32))
    np.testing.assert_allclose(ops.hardshrink(x, lambd=0.35).asnumpy(), [-2.0, 0, 0.4, 1.0])
    np.testing.assert_allclose(ops.celu(x, alpha=2.0).asnumpy(),
                               np.where(x.asnumpy() > 0, x.asnumpy(),
                                        2.0 * np.expm1(x.asnumpy() / 2.0)), rtol=1e-6)
    np.testing.assert_array_equal(ops.invert(Tensor(np.array([0, 5], np.int16))).asnumpy(),
                                  [-1, -6])
    with pytest.raises(ValueError, match="Elu"):
        ops.elu(x, alpha=0.5)
    with pytest.raises(ValueError, match="CeLU"):
        ops.celu(x, alpha=0.0)
    with pytest.raises(TypeError, match="hardshrink"):
        ops.hardshrink([1.0, 2.0])


def _fd_grad(fn, x: np.ndarray, eps=1e-3) -> np.ndarray:
    g = np.zeros_like(x, np.float64)
    for i in range(x.size):
        hi, lo = x.copy(), x.copy()
        hi.flat[i] += eps
        lo.flat[i] -= eps
        g.flat[i] = (fn(Tensor(hi)).asnumpy().sum() - fn(Tensor(lo)).asnumpy().sum()) / (2 * eps)
    return g


@pytest.mark.parametrize("fn", [lambda x: ops.hardshrink(x, 0.6), ops.fast_gelu,
                                lambda x: P.FastGeLUGrad()(Tensor(
                                    np.array([0.3, -1.2, 0.8, 2.0], np.float32)), x),
                                lambda x: P.HShrinkGrad(lambd=0.6)(x, Tensor(
                                    np.array([0.1, -0.9, 0.8, 0.3], np.float32)))])
def test_float32_only_gradients_match_finite_differences(fn):
    x = np.array([-1.3, -0.2, 0.45, 2.0], np.float32)  # away from the shrink kinks at +-0.6
    for mode in (ms.PYNATIVE_MODE, ms.GRAPH_MODE):
        ms.set_context(mode=mode)
        try:
            got = ms.grad(lambda t: fn(t).sum())(Tensor(x)).asnumpy()
        finally:
            ms.set_context(mode=ms.PYNATIVE_MODE)
        np.testing.assert_allclose(got, _fd_grad(fn, x), rtol=2e-3, atol=2e-3)


def test_fast_gelu_grad_is_the_derivative():
    x = np.linspace(-4, 4, 9).astype(np.float32)
    dy = np.linspace(1, 2, 9).astype(np.float32)
    e = np.exp(-1.702 * x)
    want = dy * (e + 1.702 * x * e + 1) / (e + 1) ** 2
    np.testing.assert_allclose(P.FastGeLUGrad()(Tensor(dy), Tensor(x)).asnumpy(), want,
                               rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("dtype", [np.int8, np.uint16, np.float32, np.complex64])
@pytest.mark.parametrize("data_format,axis", [("NCHW", 1), ("NHWC", 3)])
def test_bias_add_grad_sums_all_but_the_channel_axis(dtype, data_format, axis):
    dout = (np.arange(2 * 3 * 4 * 5).reshape(2, 3, 4, 5) % 7).astype(dtype)
    got = P.BiasAddGrad(data_format)(Tensor(dout))
    others = tuple(i for i in range(4) if i != axis)
    assert got.dtype == Tensor(dout).dtype
    np.testing.assert_array_equal(got.asnumpy(), dout.sum(axis=others, dtype=dtype))
