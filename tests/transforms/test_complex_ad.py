"""``ops.jvp`` and ``ops.vjp`` through complex-valued functions.

A jvp is the directional derivative ``d/de f(x + e v)`` (checked by finite differences, in
both modes); a vjp follows MindSpore's conjugate convention (``dout * conj(f'(x))``),
recorded on MindSpore 2.10 by fixtures/record_complex_ad.py. MindSpore computes a jvp as
the transpose of its vjp: where that transposition is exact (sums, negation, products
with constants, conj, Sqrt) graphkiln's jvp equals its recording; through Div, Log and
Tanh MindSpore's numbers are not the derivative (a conjugate slips in), and graphkiln keeps the
derivative (the test shows the recorded numbers miss it).
"""
import sys
from pathlib import Path

import numpy as np
import pytest

import graphkiln as ms
from graphkiln import Tensor, ops

FIXTURES = Path(__file__).with_name("fixtures")
sys.path.insert(0, str(FIXTURES))
import complex_ad_cases as cases  # noqa: E402

RECORDED = np.load(FIXTURES / "complex_ad.npz")
FNS = cases.functions(ops, Tensor)
EXACT_TRANSPOSE = ("add", "neg", "sub", "conj", "matmul", "sqrt")
CONJUGATE_SLIPS = ("div", "log", "tanh")
EPS = 1e-6


def _directional(name: str) -> np.ndarray:
    f = FNS[name]
    plus = f(Tensor(cases.X + EPS * cases.V)).asnumpy()
    minus = f(Tensor(cases.X - EPS * cases.V)).asnumpy()
    return (plus - minus) / (2 * EPS)


def _jvp(name: str, mode: int) -> np.ndarray:
    ms.set_context(mode=mode)
    try:
        _, t = ops.jvp(FNS[name], Tensor(cases.X), Tensor(cases.V))
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)
    return t.asnumpy()


@pytest.mark.parametrize("name", cases.FORWARD_RECORDED)
def test_complex_values_match_mindspore(name):
    """(the finite differences below run these functions: their values are MindSpore's,
    complex typed with Python float operands too)"""
    y = FNS[name](Tensor(cases.X))
    assert y.dtype == ms.complex128
    np.testing.assert_allclose(y.asnumpy(), RECORDED[f"forward_{name}"], rtol=1e-12)


@pytest.mark.parametrize("mode", [ms.PYNATIVE_MODE, ms.GRAPH_MODE], ids=["pynative", "graph"])
@pytest.mark.parametrize("name", sorted(FNS))
def test_jvp_is_the_directional_derivative(name, mode):
    t = _jvp(name, mode)
    assert t.dtype == np.complex128
    np.testing.assert_allclose(t, _directional(name), rtol=1e-6, atol=1e-8)


@pytest.mark.parametrize("name", EXACT_TRANSPOSE)
def test_jvp_matches_mindspore(name):
    np.testing.assert_allclose(_jvp(name, ms.PYNATIVE_MODE), RECORDED[f"jvp_{name}"],
                               rtol=1e-6, atol=1e-8)


@pytest.mark.parametrize("name", CONJUGATE_SLIPS)
def test_mindspore_jvp_misses_the_derivative_here(name):
    """(why these are not compared with MindSpore: its numbers are not the derivative)"""
    assert not np.allclose(RECORDED[f"jvp_{name}"], _directional(name), atol=1e-3)


@pytest.mark.parametrize("mode", [ms.PYNATIVE_MODE, ms.GRAPH_MODE], ids=["pynative", "graph"])
@pytest.mark.parametrize("name", [n for n in cases.VJP_RECORDED if n != "div"])
def test_vjp_matches_mindspore(name, mode):
    ms.set_context(mode=mode)
    try:
        y, pullback = ops.vjp(FNS[name], Tensor(cases.X))
        (g,) = pullback(Tensor(cases.U.reshape(y.shape)))
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)
    np.testing.assert_allclose(g.asnumpy(), RECORDED[f"vjp_{name}"], rtol=1e-6, atol=1e-8)


def test_div_vjp_with_a_real_cotangent_matches_mindspore():
    """MindSpore's Div gradient is ``conj(dout / w)`` (the recording for the complex
    ``U``), not the ``dout / conj(w)`` of its own Exp, Log or Tanh convention; with a real
    ``dout`` (the gradient of a real loss) the two agree."""
    np.testing.assert_allclose(RECORDED["vjp_div"], np.conj(cases.U / cases.W), rtol=1e-6)
    real_u = cases.U.real
    _, pullback = ops.vjp(FNS["div"], Tensor(cases.X))
    (g,) = pullback(Tensor(real_u.astype(np.complex128)))
    np.testing.assert_allclose(g.asnumpy(), np.conj(real_u / cases.W), rtol=1e-6)
