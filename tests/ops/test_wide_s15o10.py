"""What MindSpore's tests/st/ops slice "every 15th file from the 10th" needed, against values
and errors recorded from MindSpore 2.10 CPU (fixtures/wide_s15o10.json, by
fixtures/record_wide_s15o10.py); GRAPH == PYNATIVE, dynamic shapes == static ones, NumPy
references where MindSpore's CPU kernel has none (SparseDenseCwiseDiv, strided copies) or
is wrong (StridedSliceGrad ignores the masks, zeros for negative strides), and the shape
of the random draws (Cauchy, FractionalMaxPool's regions)."""
import json
import os
import sys

import numpy as np
import pytest

import graphkiln as ms
from graphkiln import Tensor, nn, ops
from graphkiln.ops.defs.fractional_max_pool import pooling_sequence
from graphkiln.ops.operations import _grad_ops as G
from graphkiln.ops.operations import _inner_ops as inner
from graphkiln.ops.operations import sparse_ops

FIXTURES = os.path.join(os.path.dirname(__file__), "fixtures")
sys.path.insert(0, FIXTURES)
from call_outcome import assert_outcome  # noqa: E402
from wide_s15o10_cases import CALLS, IMG, SP_IDX, SP_SHAPE, SP_VAL, X, outcome  # noqa: E402

with open(os.path.join(FIXTURES, "wide_s15o10.json")) as f:
    RECORDED = json.load(f)


@pytest.mark.parametrize("name", sorted(CALLS))
def test_matches_mindspore(name):
    got, want = outcome(lambda: CALLS[name](ms, ops, Tensor)), RECORDED[name]
    assert_outcome(got, want, rtol=1e-6, atol=1e-7)


class _Apply(nn.Cell):
    def __init__(self, fn):
        super().__init__()
        self.fn = fn

    def construct(self, *args):
        return self.fn(*args)


def _both_modes(fn, args, dynamic=None):
    """``fn(*args)`` in PYNATIVE and in GRAPH (with ``dynamic`` inputs set, when given)."""
    ms.set_context(mode=ms.PYNATIVE_MODE)
    eager = _Apply(fn)(*args)
    ms.set_context(mode=ms.GRAPH_MODE)
    net = _Apply(fn)
    if dynamic is not None:
        net.set_inputs(*dynamic)
    try:
        return eager, net(*args)
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)


def _flat(v):
    return [np.asarray(e.asnumpy()) for e in v] if isinstance(v, (tuple, list)) \
        else [v.asnumpy()]


@pytest.mark.parametrize("fn, args", [
    (lambda x: ops.bincount(x, minlength=3), (Tensor(np.array([4, 0, 4], np.int64)),)),
    (lambda x, w: ops.bincount(x, w, 7), (Tensor(np.array([2, 4, 1, 0, 0], np.int64)),
                                          Tensor(np.linspace(0, 1, 5).astype(np.float32)))),
    (lambda b, lu, p: ops.lu_solve(b, lu, p),
     tuple(Tensor(np.asarray(a)) for a in (np.eye(3, 2, dtype=np.float32),
                                           np.triu(X[:, :3]) + 3 * np.eye(3, dtype=np.float32),
                                           np.array([3, 2, 3], np.int32)))),
    (lambda x: inner.ClipByNorm(0)(x, Tensor(np.float32(1.0))), (Tensor(X),)),
    (lambda x: inner.TensorCopySlices()(x, ops.ones((2, 4), ms.float32), (1,), (3,), (1,)),
     (Tensor(X),)),
    (lambda x: G.SqrtGrad()(x, x), (Tensor(X + 3),)),
])
def test_graph_equals_pynative(fn, args):
    eager, graph = _both_modes(fn, args)
    for e, g in zip(_flat(eager), _flat(graph)):
        np.testing.assert_allclose(g, e, rtol=1e-6)


def test_bincount_graph_length_follows_the_values():
    ms.set_context(mode=ms.GRAPH_MODE)
    net = _Apply(lambda x: ops.bincount(x))
    assert net(Tensor(np.array([1, 1], np.int32))).shape == (2,)
    np.testing.assert_array_equal(net(Tensor(np.array([5, 0], np.int32))).asnumpy(),
                                  [1, 0, 0, 0, 0, 1])


def test_bce_mean_gradient_under_dynamic_shape():
    """The loss cotangent is spread over sizes read when the graph runs."""
    x = Tensor(np.array([0.2, 0.7, 0.9, 0.4], np.float32))
    y = Tensor(np.array([0.0, 1.0, 1.0, 0.5], np.float32))
    w = Tensor(np.array([1.0, 2.0, 0.5, 1.5], np.float32))
    want = RECORDED["bce_mean_grad"][1]
    for reduction, scale in (("mean", 1.0), ("sum", 4.0)):
        grad = ops.GradOperation(get_all=True)(
            lambda a, b, c, r=reduction: ops.BinaryCrossEntropy(r)(a, b, c))
        dyn = [Tensor(shape=(None,), dtype=ms.float32)] * 3
        _, got = _both_modes(grad, (x, y, w), dyn)
        np.testing.assert_allclose(got[0].asnumpy(), np.array(want[0]) * scale, rtol=1e-6)
        np.testing.assert_allclose(got[1].asnumpy(), np.array(want[1]) * scale, rtol=1e-6)


def test_strided_slice_grad_masks_match_the_forward_positions():
    """MindSpore's CPU StridedSliceGrad ignores begin/end masks (it writes where the slice
    without masks would read) and gives zeros for negative strides: NumPy's adjoint here."""
    dy = np.arange(1, 13, dtype=np.float32).reshape(2, 3, 2)
    got = G.StridedSliceGrad(begin_mask=1, end_mask=4)(
        Tensor(dy), (4, 3, 5), (1, 0, 1), (4, 3, 5), (2, 1, 3)).asnumpy()
    want = np.zeros((4, 3, 5), np.float32)
    want[0::2, 0:3:1, 1::3] = dy
    np.testing.assert_array_equal(got, want)
    got = G.StridedSliceGrad()(Tensor(dy), (4, 3, 5), (3, 0, 4), (0, 3, 0), (-2, 1, -2))
    want = np.zeros((4, 3, 5), np.float32)
    want[3:0:-2, 0:3, 4:0:-2] = dy
    np.testing.assert_array_equal(got.asnumpy(), want)


def test_sparse_dense_cwise_div_and_broadcast():
    """(MindSpore's CPU build has no SparseDenseCwiseDiv kernel.)"""
    dense = np.array([[2.0], [4.0], [-8.0]], np.float32)
    got = sparse_ops.SparseDenseCwiseDiv()(Tensor(SP_IDX), Tensor(SP_VAL), Tensor(SP_SHAPE),
                                          Tensor(dense))
    full = np.broadcast_to(dense, tuple(SP_SHAPE))
    np.testing.assert_allclose(got.asnumpy(), SP_VAL / full[SP_IDX[:, 0], SP_IDX[:, 1]])


def test_tensor_copy_slices_strided():
    """(MindSpore's CPU kernel copies contiguous slices only.)"""
    x = np.zeros((5, 4), np.int32)
    v = np.arange(1, 7, dtype=np.int32).reshape(3, 2)
    got = inner.TensorCopySlices()(Tensor(x), Tensor(v), (0, 1), (5, 4), (2, 2)).asnumpy()
    x[0:5:2, 1:4:2] = v
    np.testing.assert_array_equal(got, x)


def test_cauchy_draws():
    ms.set_seed(5)
    draws = ops.Cauchy([4000], median=1.0, sigma=2.0)().asnumpy()
    assert draws.shape == (4000,) and draws.dtype == np.float32
    # the quartiles of Cauchy(median, sigma) are median -+ sigma
    np.testing.assert_allclose(np.percentile(draws, [25, 50, 75]), [-1.0, 1.0, 3.0], atol=0.25)
    with pytest.raises(TypeError):
        ops.Cauchy([2], median=0)
    with pytest.raises(ValueError):
        ops.Cauchy([2, 0])


def test_fractional_max_pool_regions():
    """Random regions: sizes k and k + 1 in any order (a sequence from 0 to the size), and
    pseudo-random ones of the same sizes; the pooled values are each region's maximum or
    mean."""
    rng = np.random.default_rng(0)
    for pseudo in (False, True):
        for size, out in ((7, 4), (10, 3), (6, 6), (9, 2)):
            seq = pooling_sequence(rng, size, out, pseudo)
            steps = np.diff(seq)
            assert seq[0] == 0 and seq[-1] == size and len(seq) == out + 1
            assert set(steps.tolist()) <= {size // out, size // out + 1}, (pseudo, seq)
    op = ops.FractionalMaxPool([1.0, 1.5, 1.4, 1.0], pseudo_random=True, seed=3)
    y, rows, cols = (v.asnumpy() for v in op(Tensor(IMG)))
    want = [[IMG[0, r0:r1, c0:c1, 0].max() for c0, c1 in zip(cols[:-1], cols[1:])]
            for r0, r1 in zip(rows[:-1], rows[1:])]
    np.testing.assert_array_equal(y[0, :, :, 0], want)
    op = ops.FractionalAvgPool([1.0, 1.5, 1.4, 1.0], pseudo_random=True, overlapping=True,
                               seed2=8)
    y, rows, cols = (v.asnumpy() for v in op(Tensor(IMG)))
    ends = lambda seq: [min(e + 1, 6) for e in seq[1:]]  # noqa: E731  (overlapping regions)
    want = [[IMG[0, r0:r1, c0:c1, 0].mean() for c0, c1 in zip(cols[:-1], ends(cols))]
            for r0, r1 in zip(rows[:-1], ends(rows))]
    np.testing.assert_allclose(y[0, :, :, 0], want, rtol=1e-6)
    with pytest.raises(ValueError):
        ops.FractionalMaxPool([2.0, 1.5, 1.5, 1.0])(Tensor(IMG))


def test_assert_in_a_graph():
    ms.set_context(mode=ms.GRAPH_MODE)
    net = _Apply(lambda c, x: ops.Assert(3)(c, [x]))
    assert net(Tensor(np.array([True])), Tensor(X)).shape == (1,)
    with pytest.raises(RuntimeError, match="assert failed"):
        net(Tensor(np.array([False])), Tensor(X))


def test_optimizer_map_reverse_trains_like_map():
    """A user optimizer's construct may map its update over the weights in reverse."""
    def train(attr):
        ms.set_seed(1)
        net = nn.Dense(3, 2)

        class SGD(nn.Optimizer):
            def construct(self, grads):
                lr = self.get_lr()
                return getattr(self, attr)(
                    lambda p, g: ops.assign(p, p - lr * g), self.parameters, grads)
        step = nn.TrainOneStepCell(nn.WithLossCell(net, nn.MSELoss()),
                                   SGD(0.1, net.trainable_params()))
        data, label = Tensor(X[:, :3]), Tensor(X[:, 2:])
        return [float(step(data, label).asnumpy()) for _ in range(3)]
    forward, reverse = train("map_"), train("map_reverse")
    assert forward == reverse and forward[0] > forward[-1]


def test_clip_by_norm_per_axis():
    """Each row scaled to the clip norm when its L2 norm exceeds it (MindSpore 2.10's CPU
    kernel mixes elements of other rows into the norms of rows after the first)."""
    got = inner.ClipByNorm(1)(Tensor(X), Tensor(np.array([3.0], np.float32))).asnumpy()
    norms = np.sqrt((X.astype(np.float64) ** 2).sum(1, keepdims=True))
    np.testing.assert_allclose(got, np.where(norms > 3.0, X * 3.0 / norms, X), rtol=1e-6)


@pytest.mark.parametrize("sa, sb", [((4, 3, 2), (2,)), ((2,), (2,)), ((2,), (3, 2, 4)),
                                    ((3, 2), (2,)), ((5, 1, 3, 2), (4, 2, 6))])
def test_matmul_of_dynamic_shapes_equals_numpy(sa, sb):
    """A 1-D operand is promoted and demoted without a reshape, so any dimension may be
    known only at run time (ops.Dense on (4, 3, 2) x (2,) in the tests/st slice)."""
    rng = np.random.default_rng(1)
    a, b = rng.standard_normal(sa).astype(np.float32), rng.standard_normal(sb).astype(np.float32)
    dyn = (Tensor(shape=[None] * len(sa), dtype=ms.float32),
           Tensor(shape=[None] * len(sb), dtype=ms.float32))
    eager, graph = _both_modes(ops.matmul, (Tensor(a), Tensor(b)), dyn)
    for got in (eager, graph):
        np.testing.assert_allclose(got.asnumpy(), np.matmul(a, b), rtol=1e-5, atol=1e-6)
