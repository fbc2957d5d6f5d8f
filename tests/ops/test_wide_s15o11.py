"""Fixes from the ``tests/st/ops`` every-15th-from-the-11th slice beyond the recorded family
(fixtures/api_ops_s15o11.json, collected by test_api_families.py): ``FusedAdaFactor`` in a
GRAPH_MODE cell against the recorded PyNative steps and its errors, ``SoftmaxBackward``
(MindSpore 2.10 has no CPU kernel for it outside a graph: NumPy and finite differences),
``UnsortedSegmentSum`` and ``SparseMatrixMatMul`` with sizes known only when the graph runs,
and complex ``Pow``'s gradient error."""
import json
import sys
from pathlib import Path

import numpy as np
import pytest

import graphkiln as ms
from graphkiln import Parameter, Tensor, nn, ops
from graphkiln.ops.auto_generate import SoftmaxBackward
from graphkiln.ops.operations import sparse_ops

FIXTURES = Path(__file__).resolve().parent / "fixtures"
sys.path.insert(0, str(FIXTURES))
import api_ops_s15o11_cases  # noqa: E402


class _AdaFactorNet(nn.Cell):
    def __init__(self, arrays, global_norm, **flags):
        super().__init__()
        self.global_norm = global_norm
        self.opt = ops.FusedAdaFactor(**flags) if global_norm is None else \
            ops.FusedAdaFactorWithGlobalNorm(**flags)
        self.weights = [Parameter(Tensor(a), name=n) for a, n in zip(
            arrays, ("param", "m", "row", "col", "v"))]

    def construct(self, grad):
        extra = () if self.global_norm is None else (Tensor(self.global_norm, ms.float32),)
        return self.opt((1e-30, 1e-3), 1.0, 0.9, 0.8, 1e-2, 0.03, grad, *self.weights, *extra)


@pytest.mark.parametrize("name, global_norm, flags", [
    ("ada_factor_3d", None, {}),
    ("ada_factor_1d_flags", None, {"enable_scale_parameter": True,
                                   "enable_first_moment": True, "enable_weight_decay": True}),
    ("ada_factor_global_norm", 3.0, {}),
])
def test_ada_factor_graph_cell_equals_recorded(name, global_norm, flags):
    recorded = json.loads((FIXTURES / "api_ops_s15o11.json").read_text())[name]
    grad, param, exp_avg, exp_avg_sq, row, col = api_ops_s15o11_cases.CASES[name][1]
    ms.set_context(mode=ms.GRAPH_MODE)
    net = _AdaFactorNet((param, exp_avg, row, col, exp_avg_sq), global_norm, **flags)
    net(Tensor(grad))
    for w, (dtype, values) in zip(net.weights, recorded):
        assert str(w.dtype) == dtype
        np.testing.assert_allclose(w.asnumpy(), np.array(values), rtol=1e-6, atol=1e-7)


def test_ada_factor_errors():
    with pytest.raises(TypeError, match="enable_first_moment"):
        ops.FusedAdaFactor(enable_first_moment=1)
    weights = [Parameter(Tensor(np.ones(s, np.float32)), name=f"w{i}")
               for i, s in enumerate(((2, 3), (2, 3), (2,), (3,), (2, 3)))]
    grad = Tensor(np.ones((2, 3), np.float32))
    with pytest.raises(RuntimeError, match="clip threshold"):
        ops.FusedAdaFactor()((1e-30, 1e-3), 0.0, 0.9, 0.8, 0.0, 0.1, grad, *weights)
    with pytest.raises(ValueError, match="grad_shape"):
        ops.FusedAdaFactor()((1e-30, 1e-3), 1.0, 0.9, 0.8, 0.0, 0.1,
                             Tensor(np.ones((3, 2), np.float32)), *weights)


def _softmax_backward_np(dout, out, dim):
    return out * (dout - (dout * out).sum(dim, keepdims=True))


@pytest.mark.parametrize("mode", [ms.PYNATIVE_MODE, ms.GRAPH_MODE])
def test_softmax_backward_equals_numpy(mode):
    ms.set_context(mode=mode)
    rng = np.random.default_rng(0)
    dout, out = rng.standard_normal((2, 3, 4)), rng.uniform(0.1, 1, (2, 3, 4))
    f = ms.jit(lambda a, b: SoftmaxBackward()(a, b, 1)) if mode == ms.GRAPH_MODE else \
        (lambda a, b: SoftmaxBackward()(a, b, 1))
    got = f(Tensor(dout.astype(np.float32)), Tensor(out.astype(np.float32)))
    np.testing.assert_allclose(got.asnumpy(), _softmax_backward_np(dout, out, 1), rtol=1e-5)
    with pytest.raises(ValueError, match="dim"):
        SoftmaxBackward()(Tensor(dout), Tensor(out), 3)


def test_softmax_backward_gradient_equals_finite_differences():
    rng = np.random.default_rng(1)
    dout, out, w = (rng.standard_normal((3, 4)) for _ in range(3))
    grads = ms.grad(lambda a, b: (SoftmaxBackward()(a, b, -1) * Tensor(w)).sum(), (0, 1))(
        Tensor(dout), Tensor(out))
    eps = 1e-6
    for k, (g, base) in enumerate(zip(grads, (dout, out))):
        fd = np.zeros_like(base)
        for i in np.ndindex(base.shape):
            step = np.zeros_like(base)
            step[i] = eps
            args = [dout, out]
            args[k] = base + step
            hi = (_softmax_backward_np(*args, -1) * w).sum()
            args[k] = base - step
            lo = (_softmax_backward_np(*args, -1) * w).sum()
            fd[i] = (hi - lo) / (2 * eps)
        np.testing.assert_allclose(g.asnumpy(), fd, rtol=1e-5, atol=1e-8)


class _SegmentSum(nn.Cell):
    def construct(self, x, ids, n):
        return ops.UnsortedSegmentSum()(x, ids, n)


def test_segment_sum_run_time_count():
    ms.set_context(mode=ms.GRAPH_MODE)
    net = _SegmentSum()
    ids = Tensor(np.array([0, 2, 0], np.int32))
    net.set_inputs(Tensor(shape=[None, 2], dtype=ms.float32), ids,
                   Tensor(shape=[1], dtype=ms.int32))
    x = np.arange(6, dtype=np.float32).reshape(3, 2)
    for n in (3, 5):
        got = net(Tensor(x), ids, Tensor(np.array([n], np.int32))).asnumpy()
        want = np.zeros((n, 2), np.float32)
        np.add.at(want, [0, 2, 0], x)
        np.testing.assert_array_equal(got, want)
    with pytest.raises(ValueError, match="positive"):
        net(Tensor(x), ids, Tensor(np.array([0], np.int32)))


class _CsrMatMul(nn.Cell):
    def __init__(self):
        super().__init__()
        self.op = sparse_ops.SparseMatrixMatMul(transpose_output=True)

    def construct(self, *args):
        return self.op(*args)


def test_csr_matmul_rows_known_at_run_time_equals_pynative():
    args = [Tensor(np.array(v, np.int32)) for v in ([4, 5], [0, 4], [0, 1, 1, 3, 4],
                                                     [0, 3, 4, 0])]
    args += [Tensor(np.array([1.0, 5.0, -1.0, -2.0], np.float32)),
             Tensor(np.arange(15, dtype=np.float32).reshape(5, 3))]
    eager = _CsrMatMul()(*args).asnumpy()
    ms.set_context(mode=ms.GRAPH_MODE)
    net = _CsrMatMul()
    net.set_inputs(*(Tensor(shape=[None], dtype=a.dtype) for a in args[:5]),
                   Tensor(shape=[None, 3], dtype=ms.float32))
    np.testing.assert_array_equal(net(*args).asnumpy(), eager)
    assert eager.shape == (3, 4)


def test_complex_pow_gradient_is_a_type_error():
    x = Tensor(np.array([1 + 1j, 2 - 1j], np.complex64))
    with pytest.raises(TypeError, match="complex"):
        ms.grad(lambda a: ops.pow(a, a))(x)
