"""The ``ops.fft`` family with lengths and axes known only at run time (``mutable`` ``s``/
``n`` and ``dim``, inputs of dynamic shape by ``set_inputs``): the transform primitives take
them as inputs, as MindSpore's do. Outputs and gradients against MindSpore 2.10's
(fixtures/fft_runtime.npz by fixtures/record_fft_runtime.py, both modes); the run-time
path's gradient of the gradient (``FFTAdjoint``'s rule) against finite differences."""
import json
import sys
from pathlib import Path

import numpy as np
import pytest

import graphkiln as ms
from graphkiln import Tensor, mutable, nn, ops
from graphkiln.ir.abstract import AbstractScalar, AbstractTensor, AbstractTuple
from graphkiln.ops.defs import fft as FT

FIXTURES = Path(__file__).resolve().parent / "fixtures"
sys.path.insert(0, str(FIXTURES))
from fft_runtime_cases import (  # noqa: E402
    CASES,
    DYNAMIC_LEN_CASES,
    ERROR_CASES,
    PRIMITIVE_CASES,
    networks,
)

REF = np.load(FIXTURES / "fft_runtime.npz")
ERRORS = json.loads((FIXTURES / "fft_runtime_errors.json").read_text())
MODES = {"graph": ms.GRAPH_MODE, "pynative": ms.PYNATIVE_MODE}


Net, Grad = networks(ms)


@pytest.fixture
def mode(request):
    ms.set_context(mode=MODES[request.param])
    yield request.param
    ms.set_context(mode=ms.PYNATIVE_MODE)


def _dynamic(shape, x: np.ndarray) -> Tensor:
    return Tensor(shape=[None] * len(shape),
                  dtype=ms.complex64 if np.iscomplexobj(x) else ms.float32)


@pytest.mark.parametrize("mode", sorted(MODES), indirect=True)
@pytest.mark.parametrize("case", sorted(CASES))
def test_matches_mindspore(case, mode):
    _check(case, CASES[case], mode, dynamic_len=False)


@pytest.mark.parametrize("mode", ["graph"], indirect=True)
@pytest.mark.parametrize("case", sorted(DYNAMIC_LEN_CASES))
def test_dynamic_length_tuples_match_mindspore(case, mode):
    _check(case, DYNAMIC_LEN_CASES[case], mode, dynamic_len=True)


def _check(case: str, spec: tuple, mode: str, dynamic_len: bool) -> None:
    name, shape, _, s, dim = spec
    s_m, dim_m = mutable(s, dynamic_len), mutable(dim, dynamic_len)
    net = Net(name)
    net.set_inputs(_dynamic(shape, REF[f"{case}/{mode}/x0"]), s_m, dim_m)
    for k in (0, 1):  # the second input has other dimensions: the same graph runs
        key = f"{case}/{mode}"
        x = REF[f"{key}/x{k}"]
        out = net(Tensor(x), s_m, dim_m).asnumpy()
        want = REF[f"{key}/out{k}"]
        assert out.dtype == want.dtype and out.shape == want.shape
        np.testing.assert_allclose(out, want, rtol=2e-5, atol=2e-5)
        dout = REF[f"{key}/dout{k}"]
        if name == "ihfftn":  # MindSpore's IHFFTN rule leaves out the conjugation's
            dout = np.conj(dout)
        grad = Grad(Net(name), Tensor(dout))
        grad.set_inputs(_dynamic(shape, x), s_m, dim_m)
        g = grad(Tensor(x), s_m, dim_m).asnumpy()
        # PyNative's: MindSpore's graph gradient of the 1-D transforms (fft, irfft, hfft
        # with a run-time n) keeps the transform's length instead of the input's shape
        # (the dynamic-length cases, recorded in graph mode only, have the input's)
        want = REF[f"{case}/{'graph' if dynamic_len else 'pynative'}/grad{k}"]
        assert g.dtype == want.dtype and g.shape == x.shape
        np.testing.assert_allclose(g, want, rtol=2e-5, atol=2e-5)


class PrimNet(nn.Cell):
    def __init__(self, prim, s, dim, norm):
        super().__init__()
        self.op = getattr(ops, prim)()
        self.s, self.dim, self.norm = s, dim, norm

    def construct(self, x):
        return self.op(x, self.s, self.dim, self.norm)


@pytest.mark.parametrize("mode", sorted(MODES), indirect=True)
@pytest.mark.parametrize("case", sorted(PRIMITIVE_CASES))
def test_primitive_takes_s_dim_norm_inputs(case, mode):
    """``ops.FFTN()(input, s, dim, norm)``, as MindSpore's primitives are called."""
    prim, _, _, s, dim, norm = PRIMITIVE_CASES[case]
    x = REF[f"{case}/{mode}/x"]
    out = PrimNet(prim, s, dim, norm)(Tensor(x)).asnumpy()
    want = REF[f"{case}/{mode}/out"]
    assert out.dtype == want.dtype and out.shape == want.shape
    np.testing.assert_allclose(out, want, rtol=2e-5, atol=2e-5)


@pytest.mark.parametrize("mode", sorted(MODES), indirect=True)
@pytest.mark.parametrize("case", sorted(ERROR_CASES))
def test_bad_run_time_axis(case, mode):
    name, shape, cplx, s, dim = ERROR_CASES[case]
    error, _ = ERRORS[f"{case}/{mode}"]
    s_m, dim_m = mutable(s), mutable(dim)
    net = Net(name)
    x = np.ones(shape, np.float32)
    net.set_inputs(_dynamic(shape, x), s_m, dim_m)
    with pytest.raises(getattr(__import__("builtins"), error), match=r"'dim' must be in"):
        net(Tensor(x), s_m, dim_m)


_R = np.random.default_rng(5)
EPS = 1e-6


def _fd(loss, x: np.ndarray) -> np.ndarray:
    """``dL/da + i dL/db`` of a real loss at every element of the complex ``x``."""
    grad = np.zeros_like(x)
    for i in np.ndindex(x.shape):
        for unit in (1.0, 1j):
            d = np.zeros_like(x)
            d[i] = EPS * unit
            slope = (float(loss(Tensor(x + d)).asnumpy()) -
                     float(loss(Tensor(x - d)).asnumpy())) / (2 * EPS)
            grad[i] += slope * unit
    return grad


def _cplx(*shape):
    return _R.standard_normal(shape) + 1j * _R.standard_normal(shape)


# kind, x (gives the shape and real/complex), the run-time s and dim, the cotangent's shape
ADJOINTS = {
    "fftn": ("FFTN", _R.standard_normal((3, 4)), (2, 6), (-1, 0), (6, 2)),
    "rfftn": ("RFFTN", _R.standard_normal((3, 4)), None, (1,), (3, 3)),
    "irfftn": ("IRFFTN", _cplx(3, 4), (5,), (-1,), (3, 5)),
}


@pytest.mark.parametrize("name", sorted(ADJOINTS))
def test_adjoint_gradient_matches_finite_differences(name):
    """The gradient of the run-time path's gradient (``FFTAdjoint``, whose rule is the
    transform itself) in both modes."""
    kind, x, s, dim, dout_shape = ADJOINTS[name]
    weight = Tensor(_cplx(*x.shape) if np.iscomplexobj(x) else _R.standard_normal(x.shape))
    real_dout = kind == "IRFFTN"

    def loss(d):
        g = FT.FFTAdjoint(d, Tensor(x), s, dim, kind=kind)
        return ops.real(g * weight).sum() if np.iscomplexobj(x) else (g * weight).sum()
    d0 = _R.standard_normal(dout_shape) if real_dout else _cplx(*dout_shape)
    want = _fd(loss, d0.astype(np.complex128)) if not real_dout else None
    if real_dout:
        want = np.real(_fd(lambda d: loss(ops.real(d)), d0.astype(np.complex128)))
    for fn in (loss, ms.jit(loss)):
        got = ms.grad(fn)(Tensor(d0)).asnumpy()
        np.testing.assert_allclose(got, want, rtol=1e-6, atol=1e-8)


def test_constant_lengths_on_a_dynamic_shape_are_known_while_tracing():
    """Constant lengths keep the transformed dimensions known on an input of dynamic
    shape; a run-time length or axis, or a length taken from an unknown dimension, makes
    every dimension unknown."""
    x = AbstractTensor(ms.float32, (-1, 3, -1))
    assert FT.RFFTN.infer(x, sizes=(4, 6), axes=(0, 2)).shape == (4, 3, 4)
    assert FT.FFTN.infer(x, sizes=(5,), axes=(-2,)).shape == (-1, 5, -1)
    assert FT.FFTN.infer(x, sizes=(-1,), axes=(0,)).shape == (-1, -1, -1)
    run_time = AbstractTuple([AbstractScalar.unknown(int)])
    assert FT.IRFFTN.infer(AbstractTensor(ms.complex64, (2, 3)), run_time,
                           AbstractTuple([AbstractScalar(0)])).shape == (-1, -1)
    assert FT.FFTN.infer(AbstractTensor(ms.complex64, (2, 3)), AbstractScalar(None),
                         AbstractTuple([AbstractScalar(-1)])).shape == (2, 3)
