"""The runtime's memory behaviour: weights update in their own arrays, loads are copied only
where a read follows the write in the generated order, element-wise kernels reuse dead
buffers, and none of it changes a result (GRAPH == PYNATIVE, NumPy references)."""
import pickle
import sys
import threading

import numpy as np
import pytest

import graphkiln as ms
from graphkiln import Parameter, Tensor, context, nn, ops
from graphkiln.backend.memplan import ALIGN, BufferPools, pack
from graphkiln.ops.defs.grad_ops import ReluGrad
from graphkiln.ops.defs.math import MatMul, ReLU


class _MLP(nn.Cell):
    def __init__(self):
        super().__init__()
        self.f1 = nn.Dense(12, 8)
        self.relu = nn.ReLU()
        self.f2 = nn.Dense(8, 3)

    def construct(self, x):
        return self.f2(self.relu(self.f1(x)))


def _train(mode, level, monkeypatch, steps=4):
    monkeypatch.setenv("MS_DEV_SIDE_EFFECT_LOAD_ELIM", str(level))
    context.set_context(mode=mode)
    ms.set_seed(1)
    net = _MLP()
    opt = nn.SGD(net.trainable_params(), 0.1, 0.9)
    step = nn.TrainOneStepCell(nn.WithLossCell(net, nn.CrossEntropyLoss()), opt)
    r = np.random.default_rng(0)
    x = Tensor(r.standard_normal((5, 12)).astype(np.float32))
    y = Tensor(r.integers(0, 3, 5).astype(np.int32))
    arrays = [p._data for p in step.trainable_params()]
    losses = [float(step(x, y).asnumpy()) for _ in range(steps)]
    return step, losses, arrays


@pytest.mark.parametrize("level", [0, 1, 2, 3])
def test_train_step_matches_pynative_at_every_level(level, monkeypatch):
    _, eager, _ = _train(context.PYNATIVE_MODE, level, monkeypatch)
    _, graph, _ = _train(context.GRAPH_MODE, level, monkeypatch)
    np.testing.assert_allclose(graph, eager, rtol=1e-6)


def test_train_step_updates_weights_in_their_arrays_without_copies(monkeypatch):
    step, _, arrays = _train(context.GRAPH_MODE, 1, monkeypatch)
    assert all(p._data is a for p, a in zip(step.trainable_params(), arrays))
    info = ms.compile_info(step)
    assert info.count("TensorMove") == 0  # every read of a weight runs before its update
    assert "TensorMove" not in info.source


class _Decay(nn.Cell):
    def __init__(self):
        super().__init__()
        self.w = Parameter(Tensor(np.arange(512, dtype=np.float32).reshape(16, 32)), name="w")

    def construct(self, x):
        ops.assign(self.w, self.w * 0.5 + x)
        return self.w * 1


def test_an_assigned_element_wise_result_is_written_into_the_weight():
    context.set_context(mode=context.GRAPH_MODE)
    net = _Decay()
    array = net.w._data
    x = Tensor(np.ones((16, 32), np.float32))
    for _ in range(2):
        out = net(x)
    expect = (np.arange(512, dtype=np.float32).reshape(16, 32) * 0.5 + 1) * 0.5 + 1
    np.testing.assert_array_equal(out.asnumpy(), expect)
    assert net.w._data is array
    np.testing.assert_array_equal(array, expect)
    src = ms.compile_info(net).source
    assert "out=a1)" in src and "Assign" not in src  # a1: the weight's array


class _ReadAfterWrite(nn.Cell):
    def __init__(self):
        super().__init__()
        self.w = Parameter(Tensor(np.arange(4, dtype=np.float32).reshape(2, 2)), name="w")

    def construct(self, x):
        r = ops.reshape(self.w, (4,))  # a view of the weight, read after the write
        ops.assign(self.w, x)
        return r * 1


def test_a_view_read_after_the_write_keeps_its_copy(monkeypatch):
    monkeypatch.setenv("MS_DEV_SIDE_EFFECT_LOAD_ELIM", "1")
    context.set_context(mode=context.GRAPH_MODE)
    net = _ReadAfterWrite()
    out = net(Tensor(np.full((2, 2), 9, np.float32)))
    np.testing.assert_array_equal(out.asnumpy(), [0, 1, 2, 3])
    np.testing.assert_array_equal(net.w.asnumpy(), np.full((2, 2), 9))
    assert ms.compile_info(net).count("TensorMove") == 1


def test_dead_intermediates_are_reused_and_views_keep_theirs():
    context.set_context(mode=context.GRAPH_MODE)

    @ms.jit
    def f(x):
        a = x * 2.0
        b = a + 1.0  # a dies here: b may write into it
        c = b * b
        v = ops.reshape(c, (32, 16))  # c has a view reader: never reused
        d = x - 1.0
        e = d * 3.0
        return v, e + b

    xa = np.arange(512, dtype=np.float32).reshape(16, 32)  # planned from 256 elements on
    v, s = f(Tensor(xa))
    b = xa * 2 + 1
    np.testing.assert_array_equal(v.asnumpy(), (b * b).reshape(32, 16))
    np.testing.assert_array_equal(s.asnumpy(), (xa - 1) * 3 + b)
    src = ms.compile_info(f).source
    assert "out=" in src
    reshape = next(ln for ln in src.splitlines() if "Reshape" in ln)
    viewed = reshape.split("(")[1].split(",")[0]  # the variable the view reads
    assert not any(f"out={viewed})" in ln for ln in src.splitlines())


def _mlp_grad_step():
    """A jitted forward + backward of Dense-ReLU-Dense (every intermediate >= 256 elements)."""
    context.set_context(mode=context.GRAPH_MODE)
    ms.set_seed(3)
    net = nn.SequentialCell(nn.Dense(48, 40), nn.ReLU(), nn.Dense(40, 24))
    grad = ops.GradOperation(get_by_list=True)(net, net.trainable_params())

    @ms.jit
    def step(x):
        return net(x), grad(x)
    return step


def _inputs(seed, n=3):
    r = np.random.default_rng(seed)
    return [Tensor(r.standard_normal((16, 48)).astype(np.float32)) for _ in range(n)]


def test_a_steady_call_reuses_its_pool_and_returns_fresh_arrays():
    step = _mlp_grad_step()
    xs = _inputs(0)
    first = [step(x) for x in xs]
    again = [step(x) for x in xs]  # the same inputs after the pool was reused
    for (out1, grads1), (out2, grads2) in zip(first, again):
        np.testing.assert_array_equal(out1.asnumpy(), out2.asnumpy())
        for g1, g2 in zip(grads1, grads2):
            np.testing.assert_array_equal(g1.asnumpy(), g2.asnumpy())
    src = ms.compile_info(step).source
    assert "pools0.take()" in src and "out=b0" in src and "pools0.give(pool)" in src
    # no two calls returned the same array (the last bias gradient is a folded constant)
    outputs = {id(a) for out, grads in first + again
               for a in (out._data, *(g._data for g in grads[:3]))}
    assert len(outputs) == 2 * 3 * 4


def test_buffer_pools_give_each_caller_its_own_pool():
    pools = BufferPools(192, [(0, (4, 8), np.float32), (128, (8,), np.float64)])
    a, b = pools.take(), pools.take()  # two calls at once (threads, recursion)
    assert a[0] is not b[0] and a[1].dtype == np.float64 and a[0].shape == (4, 8)
    assert not np.shares_memory(a[0], b[0]) and not np.shares_memory(a[0], a[1])
    assert a[0].flags.c_contiguous and a[1].flags.aligned
    pools.give(a)
    assert pools.take()[0] is a[0]  # the next call reuses the given-back pool
    copy = pickle.loads(pickle.dumps(pools))  # the compile cache keeps the layout only
    assert (copy.size, copy.views) == (pools.size, pools.views) and copy.free == []


@pytest.mark.parametrize("seed", range(20))
def test_packed_slots_in_use_at_one_line_never_share_memory(seed):
    r = np.random.default_rng(seed)
    n = int(r.integers(1, 40))
    sizes = [int(s) for s in r.integers(1, 5000, n)]
    busy = []
    for _ in range(n):
        starts = np.sort(r.integers(0, 60, int(r.integers(1, 4))))
        busy.append([(int(a), int(a + r.integers(0, 8))) for a in starts])
    offsets, size = pack(sizes, busy)
    for a in range(n):
        assert offsets[a] % ALIGN == 0 and offsets[a] + sizes[a] <= size
        for b in range(a):
            together = any(fa <= lb and fb <= la for fa, la in busy[a] for fb, lb in busy[b])
            apart = offsets[a] + sizes[a] <= offsets[b] or offsets[b] + sizes[b] <= offsets[a]
            assert apart or not together, (a, b)
    # never larger than giving every slot its own aligned range
    assert size <= sum(-(-s // ALIGN) * ALIGN for s in sizes)


def test_slots_used_one_after_another_share_the_arena():
    # a chain of matmuls: each result dies at the next, so every slot can reuse one range
    offsets, size = pack([4096, 8192, 4096], [[(0, 1)], [(1, 2)], [(2, 3)]])
    assert offsets == [8192, 0, 8192] and size == 12288
    offsets, size = pack([4096, 4096], [[(0, 1)], [(2, 3)]])
    assert offsets == [0, 0] and size == 4096


def test_threads_calling_one_compiled_step_get_their_own_buffers():
    step = _mlp_grad_step()
    xs = _inputs(1, 4)
    expect = [(o.asnumpy(), [g.asnumpy() for g in gs]) for o, gs in (step(x) for x in xs)]
    errors = []

    def run(k):
        for _ in range(30):
            out, grads = step(xs[k])
            if not np.array_equal(out.asnumpy(), expect[k][0]) or not all(
                    np.array_equal(g.asnumpy(), e) for g, e in zip(grads, expect[k][1])):
                errors.append(k)
    threads = [threading.Thread(target=run, args=(k,)) for k in range(4)]
    switch = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)  # switch threads inside a step, often
    try:
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    finally:
        sys.setswitchinterval(switch)
    assert errors == []


def test_pooled_buffers_in_a_loop_body_and_pynative_agree():
    @ms.jit
    def f(x, n):
        i = 0
        while i < n:
            x = ops.relu(ops.matmul(x, x.T) * 0.01) + x
            i += 1
        return x

    xa = np.random.default_rng(2).standard_normal((24, 24)).astype(np.float32)
    context.set_context(mode=context.GRAPH_MODE)
    graph = f(Tensor(xa), Tensor(3)).asnumpy()
    context.set_context(mode=context.PYNATIVE_MODE)
    eager = f(Tensor(xa), Tensor(3)).asnumpy()
    np.testing.assert_array_equal(graph, eager)


@pytest.mark.parametrize("m,k,n", [(64, 784, 256), (32, 400, 120), (16, 64, 300),
                                   (128, 128, 84)])
def test_matmul_kernel_with_out_and_either_layout_gives_numpys_bits(m, k, n):
    r = np.random.default_rng(m + k + n)
    x = r.standard_normal((m, k)).astype(np.float32)
    w = r.standard_normal((n, k)).astype(np.float32)
    expect = np.matmul(x, w.T)
    got = MatMul.kernel(x, w, transpose_b=True)
    assert got.flags.c_contiguous
    np.testing.assert_array_equal(got, expect)
    out = np.empty((m, n), np.float32)
    assert MatMul.kernel(x, w, transpose_b=True, out=out) is out
    np.testing.assert_array_equal(out, expect)


def test_relu_and_relu_grad_kernels_write_into_out_with_the_same_bits():
    x = np.array([[-1.5, 0.0, -0.0, 2.0, np.nan, np.inf] * 50], np.float32)
    dy = np.linspace(-3, 3, x.size, dtype=np.float32).reshape(x.shape)
    out = np.empty_like(x)
    assert ReLU.kernel(x, out=out) is out
    assert ReLU.kernel(x).tobytes() == out.tobytes()
    inplace = x.copy()
    assert ReLU.kernel(inplace, out=inplace).tobytes() == out.tobytes()
    grad = np.empty_like(x)
    ReluGrad.kernel(dy, x, out=grad)
    assert grad.tobytes() == ReluGrad.kernel(dy, x).tobytes()
    ints = np.arange(-3, 3, dtype=np.int32).reshape(2, 3)
    np.testing.assert_array_equal(ReluGrad.kernel(ints, ints), np.where(ints > 0, ints, 0))


def test_a_value_returned_through_a_skipping_reduction_is_not_pooled():
    context.set_context(mode=context.GRAPH_MODE)
    keep = ops.ReduceSum(skip_mode=True)  # an empty axis returns its input itself

    @ms.jit
    def f(x):
        a = ops.matmul(x, x) * 2.0
        return keep(a, ()), ops.ReduceSum()(a * 3.0, 1)

    xs = [np.full((16, 16), v, np.float32) for v in (1.0, 2.0)]
    first, _ = f(Tensor(xs[0]))
    f(Tensor(xs[1]))  # a pooled buffer would now hold the second call's values
    np.testing.assert_array_equal(first.asnumpy(), xs[0] @ xs[0] * 2)
    assert "pools0" in ms.compile_info(f).source


def _optimizer_run(mode, make_opt, steps=3):
    context.set_context(mode=mode)
    ms.set_seed(5)
    net = nn.SequentialCell(nn.Dense(48, 40), nn.ReLU(), nn.Dense(40, 24))
    step = nn.TrainOneStepCell(nn.WithLossCell(net, nn.MSELoss()),
                               make_opt(net.trainable_params()))
    r = np.random.default_rng(4)
    x = Tensor(r.standard_normal((16, 48)).astype(np.float32))
    y = Tensor(r.standard_normal((16, 24)).astype(np.float32))
    losses = [float(step(x, y).asnumpy()) for _ in range(steps)]
    return step, losses, [p.asnumpy() for p in net.trainable_params()]


@pytest.mark.parametrize("make_opt", [lambda ps: nn.Momentum(ps, 0.05, 0.9),
                                      lambda ps: nn.Adam(ps, 1e-2)], ids=["momentum", "adam"])
def test_optimizer_scratch_from_the_pool_keeps_pynatives_bits(make_opt):
    _, eager_losses, eager = _optimizer_run(context.PYNATIVE_MODE, make_opt)
    step, losses, weights = _optimizer_run(context.GRAPH_MODE, make_opt)
    assert losses == eager_losses
    for w, e in zip(weights, eager):
        assert w.tobytes() == e.tobytes()
    assert "scratch=(b" in ms.compile_info(step).source
