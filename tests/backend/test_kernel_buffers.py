"""Normalisation, softmax, loss and indexing-gradient kernels that write into buffers the
memory plan gives them (``out=``, ``scratch=``): the same bits as the kernels computing
new arrays, no per-step allocation in a steady compiled call, and no buffer reaching the
caller."""
import math
import threading
import tracemalloc

import numpy as np
import pytest

import graphkiln as ms
from graphkiln import Parameter, Tensor, context, nn, ops
from graphkiln.backend import fusion
from graphkiln.ops.defs.array import AddN, BroadcastTo, Gather
from graphkiln.ops.defs.grad_ops import GetitemGrad, ReluGrad
from graphkiln.ops.defs.math import GeLU
from graphkiln.ops.defs.nn import LayerNorm, LogSoftmax, OneHot, Softmax
from graphkiln.ops.defs.nn_losses import SparseSoftmaxCrossEntropyWithLogits
from graphkiln.ops.defs.norm import BatchNorm

_R = np.random.default_rng(0)
# float32, float64, float16 (computed in float32) and a transposed (not C-contiguous) input
_INPUTS = [(_R.standard_normal((6, 5, 40)) * 10).astype(np.float32),
           (_R.standard_normal((7, 33)) * 30).astype(np.float64),
           _R.standard_normal((5, 9, 13)).astype(np.float16),
           (_R.standard_normal((48, 64)) * 5).astype(np.float32).T]
_IDS = [f"{x.dtype}-{'x'.join(map(str, x.shape))}" for x in _INPUTS]


def _same(a, b) -> bool:
    a, b = np.asarray(a), np.asarray(b)
    return a.dtype == b.dtype and a.shape == b.shape and a.tobytes() == b.tobytes()


def _wide(x):
    return x.astype(np.float32) if x.dtype == np.float16 else x


def _buffers(x, dtype=None):
    """Output buffers: C order, and Fortran order (a dead intermediate may have it)."""
    return [np.empty(x.shape, dtype or x.dtype), np.empty(x.shape, dtype or x.dtype, order="F")]


@pytest.mark.parametrize("x", _INPUTS, ids=_IDS)
def test_softmax_kernels_into_buffers_give_the_formulas_bits(x):
    w = _wide(x)
    e = np.exp(w - w.max(-1, keepdims=True))
    softmax = (e / e.sum(-1, keepdims=True)).astype(x.dtype)
    s = w - w.max(-1, keepdims=True)
    log_softmax = (s - np.log(np.exp(s).sum(-1, keepdims=True))).astype(x.dtype)
    assert _same(Softmax.kernel(x, -1), softmax)
    assert _same(LogSoftmax.kernel(x, -1), log_softmax)
    scratch = (np.empty(x.shape, w.dtype),)
    for out in _buffers(x):
        assert Softmax.kernel(x, -1, out=out) is out and _same(out, softmax)
        assert LogSoftmax.kernel(x, -1, out=out, scratch=scratch) is out
        assert _same(out, log_softmax)
    own = x.copy(order="K")  # OUT_INPLACE: out may be the input itself
    assert Softmax.kernel(own, -1, out=own) is own and _same(own, softmax)
    # the plan may give either the out or the scratch array from the dying input
    own = x.copy(order="K")
    assert _same(LogSoftmax.kernel(own, -1, out=own, scratch=scratch), log_softmax)
    own = x.copy(order="K")
    assert _same(LogSoftmax.kernel(own, -1, out=_buffers(x)[0], scratch=(own,)), log_softmax)


def test_sparse_cross_entropy_kernels_into_buffers_give_the_same_bits():
    """The loss in a scratch array, the gradient in ``out=``: either may be the logits'
    own buffer (OUT_INPLACE)."""
    x = np.random.default_rng(3).standard_normal((6, 5)).astype(np.float32)
    labels = np.array([4, 0, 2, 2, 1, 3], np.int32)
    kernel = SparseSoftmaxCrossEntropyWithLogits.kernel
    loss, grad = kernel(x, labels), kernel(x, labels, is_grad=True)
    own = x.copy()
    assert _same(kernel(own, labels, scratch=(own,)), loss)
    own = x.copy()
    assert kernel(own, labels, is_grad=True, out=own, scratch=(np.empty_like(x),)) is own
    assert _same(own, grad)
    assert _same(x, np.random.default_rng(3).standard_normal((6, 5)).astype(np.float32))


@pytest.mark.parametrize("x", _INPUTS, ids=_IDS)
def test_gelu_kernel_into_buffers_gives_the_formulas_bits(x):
    w = _wide(x)
    xc = np.clip(w, -20, 20)
    c = math.sqrt(2.0 / math.pi)
    # 0.5 * x * (1 + tanh(u)) computed as x * sigmoid(2u), in the kernel's order
    tanh_form = (w / (np.exp(-2.0 * c * (xc + 0.044715 * xc * xc * xc)) + 1.0)).astype(x.dtype)
    assert _same(GeLU.kernel(x), tanh_form)
    erf_form = GeLU.kernel(x, approximate="none")
    for out in _buffers(x):
        assert GeLU.kernel(x, out=out, scratch=(np.empty(x.shape, w.dtype),)) is out
        assert _same(out, tanh_form)
        assert _same(GeLU.kernel(x, approximate="none", out=out), erf_form)
    assert _same(GeLU.kernel(np.asarray(np.float32(0.7))), GeLU.kernel(np.float32([0.7]))[0])


@pytest.mark.parametrize("x", _INPUTS, ids=_IDS)
def test_layer_norm_and_batch_norm_buffers_keep_their_bits(x):
    wide = np.float64 if x.dtype == np.float64 else np.float32
    gamma, beta = (_R.standard_normal(x.shape[-1:]).astype(x.dtype) for _ in range(2))
    w = x.astype(wide)
    centred = w - w.mean(-1, keepdims=True)
    var = np.square(centred).mean(-1, keepdims=True)
    expect = LayerNorm.kernel(x, gamma, beta, -1, -1, 1e-5)
    assert _same(expect[1], w.mean(-1, keepdims=True).astype(np.float32))
    assert _same(expect[2], var.astype(np.float32))
    for scratch, out in zip(_buffers(x, wide), _buffers(x)):
        got = LayerNorm.kernel(x, gamma, beta, -1, -1, 1e-5, out=out, scratch=(scratch,))
        assert got[0] is out and all(_same(a, b) for a, b in zip(got, expect))
    stats = [_R.standard_normal(x.shape[1]).astype(np.float32) for _ in range(4)]
    stats[3] = np.abs(stats[3])
    expect = BatchNorm.kernel(x, *stats, is_training=True)
    axes = (0,) + tuple(range(2, x.ndim))
    rows = (w - w.mean(axes, keepdims=True)).reshape(x.shape[0], x.shape[1], -1)
    m = x.size // x.shape[1]
    assert _same(expect[2], (np.einsum("nci,nci->c", rows, rows) / m * (m / (m - 1)))
                 .astype(np.float32))
    for out in _buffers(x):
        got = BatchNorm.kernel(x, *stats, is_training=True, out=out)
        assert got[0] is out and all(_same(a, b) for a, b in zip(got, expect))
    inference = BatchNorm.kernel(x, *stats)
    out = np.empty_like(x)
    assert _same(BatchNorm.kernel(x, *stats, out=out)[0], inference[0])


def test_indexing_and_broadcast_kernels_write_into_out():
    dout = _R.standard_normal((4, 6, 5)).astype(np.float32)
    rows = np.array([2, 0, 2, -1, 7, 2], np.int32)
    expect = np.zeros((8, 6, 5), np.float32)
    np.add.at(expect, rows[[0, 1, 2, 3]], dout)  # the first four rows' cotangents
    out = np.full((8, 6, 5), 9.0, np.float32)  # a reused buffer holds old values
    assert GetitemGrad.kernel(dout, rows[:4], shape=(8, 6, 5), out=out) is out
    assert _same(out, expect)
    basic = np.full((3, 4, 6, 5), 7.0, np.float32)
    GetitemGrad.kernel(dout, 1, shape=(3, 4, 6, 5), out=basic)
    assert _same(basic[1], dout) and not basic[[0, 2]].any()

    params = _R.standard_normal((10, 7)).astype(np.float32)
    out = np.empty((6, 7), np.float32)
    assert Gather.kernel(params, rows, 0, out=out) is out and _same(out, params[rows])

    xs = [_R.standard_normal((5, 8)).astype(np.float32) for _ in range(3)]
    out = np.empty((5, 8), np.float32)
    assert AddN.kernel(xs, out=out) is out and _same(out, xs[0] + xs[1] + xs[2])

    col = _R.standard_normal((5, 1)).astype(np.float32)
    out = np.empty((5, 8), np.float32)
    assert BroadcastTo.kernel(col, shape=(-1, 8), out=out) is out
    assert _same(out, np.repeat(col, 8, 1))

    ids = np.array([[3, 0], [9, -2]], np.int32)  # out-of-range indices give off rows
    on, off = np.float32(2.0), np.float32(-1.0)
    for out in _buffers(np.empty((2, 2, 4)), np.float32):
        assert OneHot.kernel(ids, 4, on, off, out=out) is out
        assert _same(out, np.where(ids[..., None] == np.arange(4), on, off))
    moved = np.empty((4, 2, 2), np.float32)
    assert OneHot.kernel(ids, 4, on, off, axis=0, out=moved) is moved
    assert _same(moved, np.moveaxis(np.where(ids[..., None] == np.arange(4), on, off), -1, 0))


def test_relu_grad_mask_in_scratch_keeps_its_bits():
    x = np.array([[-1.5, 0.0, -0.0, 2.0, np.nan, np.inf] * 50], np.float32)
    dy = np.linspace(-3, 3, x.size, dtype=np.float32).reshape(x.shape)
    out, mask = np.empty_like(x), np.ones(x.shape, bool)
    got = ReluGrad.kernel(dy, x, out=out, scratch=(mask,))
    assert np.shares_memory(got, out) and _same(out, np.where(x > 0, dy, np.float32(0)))


# ------------------------------------------------------------------ compiled steps

class _Block(nn.Cell):
    """A pre-LayerNorm attention block with a GELU MLP, and a BatchNorm + ReLU branch."""

    def __init__(self, vocab=50, d=32, seq=16):
        super().__init__()
        self.tok = nn.Embedding(vocab, d)
        self.ln = nn.LayerNorm((d,))
        self.qkv = nn.Dense(d, 3 * d)
        self.fc1 = nn.Dense(d, 4 * d)
        self.gelu = nn.GELU()
        self.fc2 = nn.Dense(4 * d, d)
        self.bn = nn.BatchNorm2d(4)
        self.relu = nn.ReLU()
        self.head = nn.Dense(d, vocab)
        self.scores = ops.BatchMatMul(transpose_b=True)
        self.mix = ops.BatchMatMul()
        self.seq, self.d = seq, d

    def construct(self, ids):
        b = ids.shape[0]
        x = self.tok(ids)
        qkv = ops.transpose(ops.reshape(self.qkv(self.ln(x)), (b, self.seq, 3, self.d)),
                            (2, 0, 1, 3))
        att = ops.softmax(self.scores(qkv[0], qkv[1]) * 0.2, -1)
        x = x + self.mix(att, qkv[2])
        x = x + self.fc2(self.gelu(self.fc1(x)))
        img = ops.reshape(x, (b, 4, self.seq, self.d // 4))
        x = ops.reshape(self.relu(self.bn(img)), (b * self.seq, self.d))
        return self.head(x)


def _train(mode, steps=3):
    context.set_context(mode=mode)
    ms.set_seed(5)
    net = _Block()
    loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    step = nn.TrainOneStepCell(nn.WithLossCell(net, loss), nn.Adam(net.trainable_params(), 1e-2))
    step.set_train()
    r = np.random.default_rng(1)
    ids = Tensor(r.integers(0, 50, (4, 16)).astype(np.int32))
    labels = Tensor(r.integers(0, 50, 64).astype(np.int32))
    losses = [step(ids, labels).asnumpy().tobytes() for _ in range(steps)]
    return step, losses, [p.asnumpy() for p in net.trainable_params()]


def test_a_train_step_with_planned_kernels_matches_pynative_bit_for_bit():
    _, eager, eager_weights = _train(context.PYNATIVE_MODE)
    step, graph, weights = _train(context.GRAPH_MODE)
    assert graph == eager
    assert all(_same(w, e) for w, e in zip(weights, eager_weights))
    # LayerNorm and BatchNorm return new arrays: their weights are read without a copy
    assert ms.compile_info(step).count("TensorMove") == 0
    src = ms.compile_info(step).source
    for op in ("GeLU", "Softmax", "SparseSoftmaxCrossEntropyWithLogitsGradAndLoss",
               "ReluGrad", "LayerNorm", "BatchNorm"):
        assert any("out=b" in ln for ln in src.splitlines() if f"k_{op}_" in ln), op
    for op in ("GeLU", "ReluGrad", "LayerNorm"):
        assert any("scratch=(b" in ln for ln in src.splitlines() if f"k_{op}_" in ln), op


_GAMMA = Tensor(np.linspace(0.5, 1.5, 512).astype(np.float32))
_BETA = Tensor(np.linspace(-1, 1, 512).astype(np.float32))
_LAYER_NORM = ops.LayerNorm(begin_norm_axis=-1, begin_params_axis=-1)


@ms.jit
def _chain(x, ids, col):
    """Each planned kernel between element-wise readers: their results die inside."""
    x = _LAYER_NORM(x, _GAMMA, _BETA)[0] * 0.75
    h = ops.gelu(x * 1.5, approximate="tanh") * 2.0
    p = ops.softmax(h, -1) + ops.log_softmax(h * 0.5, -1)
    hot = ops.one_hot(ids, 512, Tensor(1.0, ms.float32), Tensor(0.0, ms.float32))
    wide = ops.broadcast_to(col, (64, 512))
    return ((p * hot) - wide).sum(), p * 3.0


def _chain_inputs(seed):
    r = np.random.default_rng(seed)
    return (Tensor(r.standard_normal((64, 512)).astype(np.float32)),
            Tensor(r.integers(0, 512, 64).astype(np.int32)),
            Tensor(r.standard_normal((64, 1)).astype(np.float32)))


def test_a_steady_call_allocates_only_its_results():
    context.set_context(mode=context.GRAPH_MODE)
    args = _chain_inputs(0)
    _chain(*args)
    _chain(*args)  # the pool is made on the first call and taken back since
    src = ms.compile_info(_chain).source
    for op in ("LayerNorm", "GeLU", "Softmax", "LogSoftmax", "OneHot", "BroadcastTo"):
        assert "out=b" in next(ln for ln in src.splitlines() if f"k_{op}_" in ln)
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        tracemalloc.reset_peak()
        _chain(*args)
        peak = tracemalloc.get_traced_memory()[1] - before
    finally:
        tracemalloc.stop()
    result_bytes = 64 * 512 * 4  # ``p * 3.0``, the only array that leaves the call
    assert peak < 1.5 * result_bytes, peak  # the kernels' arrays came from the pool


def test_results_of_planned_kernels_never_change_with_later_calls():
    context.set_context(mode=context.GRAPH_MODE)
    firsts = [_chain(*_chain_inputs(seed)) for seed in (1, 2)]
    kept = [(s.asnumpy().copy(), p.asnumpy().copy()) for s, p in firsts]
    for seed in (3, 4, 1):
        _chain(*_chain_inputs(seed))
    for (s, p), (s0, p0) in zip(firsts, kept):
        assert _same(s.asnumpy(), s0) and _same(p.asnumpy(), p0)
    assert _same(kept[0][1], _chain(*_chain_inputs(1))[1].asnumpy())


def test_threads_calling_the_planned_kernels_get_their_own_buffers():
    context.set_context(mode=context.GRAPH_MODE)
    inputs = [_chain_inputs(seed) for seed in range(4)]
    expect = [_chain(*a)[1].asnumpy() for a in inputs]
    errors = []

    def run(k):
        for _ in range(10):
            if not _same(_chain(*inputs[k])[1].asnumpy(), expect[k]):
                errors.append(k)
    threads = [threading.Thread(target=run, args=(k,)) for k in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []


def test_getitem_gradients_summed_by_addn_keep_their_values_across_calls():
    context.set_context(mode=context.GRAPH_MODE)
    w = Parameter(Tensor(np.ones((3, 16, 32), np.float32)), name="w")

    def loss(x):
        y = x * w
        return (y[0] * y[1] + y[2]).sum()

    grad = ms.jit(ms.grad(loss))
    x = np.random.default_rng(7).standard_normal((3, 16, 32)).astype(np.float32)
    first = grad(Tensor(x))
    kept = first.asnumpy().copy()
    grad(Tensor(x * 2))
    assert _same(first.asnumpy(), kept)
    np.testing.assert_allclose(kept, np.stack([x[1], x[0], np.ones_like(x[0])]), rtol=1e-6)
    context.set_context(mode=context.PYNATIVE_MODE)
    assert _same(ms.grad(loss)(Tensor(x)).asnumpy(), kept)


# ------------------------------------------------------------------ buffers read through views

def _line(src: str, op: str) -> str:
    return next(ln for ln in src.splitlines() if f"k_{op}_" in ln)


def test_a_buffer_read_through_a_view_lives_until_the_views_last_reader():
    context.set_context(mode=context.GRAPH_MODE)

    @ms.jit
    def f(x):
        a = ops.exp(x)  # read only through the reshape, by the Mul below
        v = ops.reshape(a, (32, 16))
        c = ops.reshape(ops.neg(x), (32, 16))  # runs before that Mul: a is not dead yet
        return (v * c).sum(), v * 2.0

    xa = np.random.default_rng(3).standard_normal((16, 32)).astype(np.float32)
    total, doubled = f(Tensor(xa))
    np.testing.assert_allclose(total.asnumpy(), (np.exp(xa) * -xa).sum(), rtol=1e-5)
    np.testing.assert_array_equal(doubled.asnumpy(), (np.exp(xa) * 2.0).reshape(32, 16))
    src = ms.compile_info(f).source
    exp_buffer = _line(src, "Exp").split("out=")[1].split(")")[0]
    assert exp_buffer.startswith("b")  # planned although only a view of it is read
    assert f"out={exp_buffer})" not in _line(src, "Neg")  # a's buffer was not free for it


def test_an_array_whose_view_leaves_the_call_is_never_pooled():
    context.set_context(mode=context.GRAPH_MODE)

    @ms.jit
    def f(x):
        a = ops.exp(x)
        return ops.reshape(a, (32, 16)), (a * 3.0).sum()

    xs = [np.full((16, 32), v, np.float32) for v in (0.5, 1.5)]
    first, _ = f(Tensor(xs[0]))
    f(Tensor(xs[1]))
    np.testing.assert_array_equal(first.asnumpy(), np.exp(xs[0]).reshape(32, 16))
    assert "out=" not in _line(ms.compile_info(f).source, "Exp")


def test_arrays_summed_through_a_tuple_by_addn_are_pooled_and_keep_their_values():
    context.set_context(mode=context.GRAPH_MODE)

    @ms.jit
    def f(x):
        return ops.addn([ops.exp(x), ops.neg(x), x * 2.0]) * 0.5

    xs = [np.random.default_rng(s).standard_normal((16, 32)).astype(np.float32) for s in (4, 5)]
    first = f(Tensor(xs[0]))
    kept = first.asnumpy().copy()
    second = f(Tensor(xs[1]))
    assert _same(first.asnumpy(), kept)
    np.testing.assert_array_equal(kept, (np.exp(xs[0]) + -xs[0] + xs[0] * 2.0) * 0.5)
    np.testing.assert_array_equal(second.asnumpy(), (np.exp(xs[1]) - xs[1] + xs[1] * 2) * 0.5)
    src = ms.compile_info(f).source
    assert "out=b" in _line(src, "Exp") and "out=b" in _line(src, "AddN")


def test_a_fused_kernel_never_writes_into_the_buffer_it_reads_transposed(monkeypatch):
    monkeypatch.setattr(fusion, "MIN_GROUP_BYTES", 0)  # fuse this small chain
    context.set_context(mode=context.GRAPH_MODE)

    @ms.jit
    def f(x):
        t = ops.transpose(ops.exp(x), (1, 0))  # a square view: its result fits the buffer
        return (((t * 2.0 + 1.0) * 3.0 - 0.5) * t).sum()

    xa = np.random.default_rng(6).standard_normal((512, 512)).astype(np.float32) * 0.1
    total = f(Tensor(xa))  # 4 blocks of a fused pass: block 2 reads what block 1 wrote
    e = np.exp(xa).T
    np.testing.assert_allclose(total.asnumpy(), (((e * 2.0 + 1.0) * 3.0 - 0.5) * e).sum(),
                               rtol=1e-5)
    assert "k_FusedElementwise" in ms.compile_info(f).source


def test_a_batch_norm_result_that_leaves_the_call_is_never_pooled():
    context.set_context(mode=context.GRAPH_MODE)
    bn = ops.BatchNorm(is_training=True)
    stats = [Tensor(np.full(4, v, np.float32)) for v in (1.0, 0.0, 0.0, 1.0)]

    @ms.jit
    def f(x):
        y, mean, _, _, _ = bn(x, *stats)
        return y, (ops.relu(y) * mean.reshape(1, 4, 1, 1)).sum()

    xs = [np.random.default_rng(s).standard_normal((2, 4, 8, 8)).astype(np.float32)
          for s in (8, 9)]
    first, _ = f(Tensor(xs[0]))
    kept = first.asnumpy().copy()
    f(Tensor(xs[1]))
    assert _same(first.asnumpy(), kept)
    assert "out=" not in _line(ms.compile_info(f).source, "BatchNorm")
