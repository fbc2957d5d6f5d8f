"""Fixes from the ``tests/st/ops`` every-15th-from-the-6th slice beyond the recorded family
(fixtures/api_ops_s15o6.json, collected by test_api_families.py): a GRAPH_MODE cell's
candidate samplers draw on from run to run as MindSpore 2.10's kernels (the draws of its
recorded ``*_called_twice`` cases), and the gradient of ``DeformableOffsets`` against
finite differences (float32: the op has no float64 kernel)."""
import json
import sys
from pathlib import Path

import numpy as np
import pytest

import graphkiln as ms
from graphkiln import Tensor, nn, ops
from graphkiln.ops.operations import nn_ops as NN

FIXTURES = Path(__file__).resolve().parent / "fixtures"
sys.path.insert(0, str(FIXTURES))
from api_ops_s15o6_cases import _CLASSES, _PAIRS  # noqa: E402

RECORDED = json.loads((FIXTURES / "api_ops_s15o6.json").read_text())


class _Samplers(nn.Cell):
    def __init__(self):
        super().__init__()
        self.uniform = ops.UniformCandidateSampler(1, 3, True, 10, seed=5)
        self.log_uniform = ops.LogUniformCandidateSampler(2, 3, True, 5, 1)

    def construct(self, t, u):
        return self.uniform(t)[0], self.log_uniform(u)[0]


def test_graph_cell_samplers_draw_on_between_runs():
    ms.set_context(mode=ms.GRAPH_MODE)
    try:
        net = _Samplers()
        runs = [net(Tensor(_CLASSES), Tensor(_PAIRS)) for _ in range(2)]
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)
    uniform = RECORDED["uniform_sampler_called_twice"]
    log_uniform = RECORDED["log_uniform_sampler_called_twice"]
    for k, (u, lu) in enumerate(runs):
        np.testing.assert_array_equal(u.asnumpy(), uniform[3 * k][1])
        np.testing.assert_array_equal(lu.asnumpy(), log_uniform[3 * k][1])


def _loss(x, off, w, op):
    return (op(x, off) * w).sum()


@pytest.mark.parametrize("attrs", [
    dict(strides=(1, 1, 1, 1), pads=(0, 0, 0, 0), ksize=(2, 2)),
    dict(strides=(1, 1, 2, 1), pads=(1, 0, 0, 2), ksize=(2, 3), dilations=(1, 1, 1, 2),
         deformable_groups=2)])
def test_deformable_offsets_gradient_is_finite_differences(attrs):
    r = np.random.default_rng(4)
    op = NN.DeformableOffsets(**attrs)
    x = r.standard_normal((1, 2, 4, 5)).astype(np.float32)
    kh, kw = attrs["ksize"]
    groups = attrs.get("deformable_groups", 1)
    strides, pads = attrs["strides"], attrs["pads"]
    dil = attrs.get("dilations", (1, 1, 1, 1))
    oh = (4 + pads[0] + pads[1] - (kh - 1) * dil[2] - 1) // strides[2] + 1
    ow = (5 + pads[2] + pads[3] - (kw - 1) * dil[3] - 1) // strides[3] + 1
    # offsets whose sampling points stay 0.2 away from pixel rows and columns, where the
    # bilinear weights have kinks
    whole = r.integers(-1, 2, (1, 3 * groups * kh * kw, oh, ow))
    off = (whole + r.uniform(0.2, 0.8, whole.shape)).astype(np.float32)
    w = r.standard_normal((1, 2, oh * kh, ow * kw)).astype(np.float32)
    dx, doff = ms.grad(lambda a, b: _loss(a, b, Tensor(w), op), grad_position=(0, 1))(
        Tensor(x), Tensor(off))
    for arg, got in ((0, dx.asnumpy()), (1, doff.asnumpy())):
        base = [x.astype(np.float64), off.astype(np.float64)]
        want = np.zeros_like(base[arg])
        eps = 1e-2
        for i in np.ndindex(base[arg].shape):
            vals = []
            for sign in (1, -1):
                moved = [b.copy() for b in base]
                moved[arg][i] += sign * eps
                vals.append(float(_loss(Tensor(moved[0].astype(np.float32)),
                                        Tensor(moved[1].astype(np.float32)), Tensor(w), op)))
            want[i] = (vals[0] - vals[1]) / (2 * eps)
        np.testing.assert_allclose(got, want, rtol=2e-2, atol=2e-2)


class _SparseMatmul(nn.Cell):
    def __init__(self):
        super().__init__()
        self.matmul = nn.SparseTensorDenseMatmul()

    def construct(self, indices, values, shape, dense):
        return self.matmul(indices, values, shape, dense)


def test_sparse_dense_matmul_dynamic_shapes_and_shape_tensor():
    """Dynamic numbers of entries and columns, the sparse shape a graph input."""
    ms.set_context(mode=ms.GRAPH_MODE)
    try:
        net = _SparseMatmul()
        net.set_inputs(Tensor(shape=[None, 2], dtype=ms.int64),
                       Tensor(shape=[None], dtype=ms.float32), Tensor([3, 4], ms.int64),
                       Tensor(shape=[4, None], dtype=ms.float32))
        results = []
        for entries, cols in ((2, 2), (5, 3)):
            r = np.random.default_rng(entries)
            idx = np.stack([r.integers(0, 3, entries), r.integers(0, 4, entries)], 1)
            vals = r.standard_normal(entries).astype(np.float32)
            dense = r.standard_normal((4, cols)).astype(np.float32)
            a = np.zeros((3, 4), np.float32)
            np.add.at(a, (idx[:, 0], idx[:, 1]), vals)
            got = net(Tensor(idx), Tensor(vals), Tensor([3, 4], ms.int64), Tensor(dense))
            results.append((got.asnumpy(), a @ dense))
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)
    for got, want in results:
        np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-6)


def test_sparse_to_dense_cell():
    coo = ms.COOTensor(Tensor(np.array([[0, 1], [1, 2]], np.int64)),
                       Tensor(np.array([1, 2], np.int32)), (3, 4))
    want = np.zeros((3, 4), np.int32)
    want[0, 1], want[1, 2] = 1, 2
    np.testing.assert_array_equal(nn.SparseToDense()(coo).asnumpy(), want)


class _Gamma(nn.Cell):
    def construct(self, shape, alpha, seed=0):
        return ops.random_gamma(shape, alpha, seed)


def test_set_inputs_placeholders_cover_keyword_arguments():
    """``set_inputs(x, y, 1)`` serves ``net(x, y, seed=1)``; a shape vector of unknown
    length compiles once per length (the output's rank)."""
    ms.set_context(mode=ms.GRAPH_MODE)
    try:
        net = _Gamma()
        net.set_inputs(Tensor(shape=[None], dtype=ms.int32),
                       Tensor(shape=[None], dtype=ms.float32), 1)
        alpha = Tensor(np.array([5, 6], np.float32))
        three = net(Tensor(np.array([3, 1, 2], np.int32)), alpha, seed=1)
        two = net(Tensor(np.array([4, 2], np.int32)), alpha, seed=1)
        with pytest.raises(TypeError, match="set_inputs was given 3 inputs"):
            net(Tensor(np.array([4, 2], np.int32)), alpha)
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)
    assert three.shape == (3, 1, 2, 2) and two.shape == (4, 2, 2)
    assert (three.asnumpy() > 0).all() and (two.asnumpy() > 0).all()
