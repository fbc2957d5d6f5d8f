"""Element-wise fusion: the ``FusedElementwise`` kernel gives NumPy's unfused results bit
for bit (broadcasting, blocks, ``out=``, aliasing), and the backend pass groups exactly the
element-wise trees it may (single users, no write in between) without changing any result
of a graph, its gradient or a training step."""
import numpy as np
import pytest

import graphkiln as ms
from graphkiln import Parameter, Tensor, context, nn, ops
from graphkiln.backend import fusion
from graphkiln.ir.abstract import AbstractScalar, AbstractTensor
from graphkiln.ops.defs import fused

GELU_GRAD = ("t0 = maximum(x0, -20.0); t1 = minimum(t0, 20.0); t2 = multiply(t1, t1); "
             "t3 = multiply(t2, 0.044715); t4 = add(t3, 1); t5 = multiply(t1, t4); "
             "t6 = tanh(t5); t7 = subtract(1, t6); t8 = exp(t7); t9 = multiply(x1, t8); "
             "t10 = divide(t9, x2); t11 = power(t10, 2.0); t12 = add(t11, inf)")


def _gelu_grad_numpy(x0, x1, x2):
    t1 = np.minimum(np.maximum(x0, -20.0), 20.0)
    t2 = t1 * t1
    t6 = np.tanh(t1 * (t2 * 0.044715 + 1))
    return np.power(x1 * np.exp(1 - t6) / x2, 2.0) + np.inf


def _same_bits(a, b) -> bool:
    return a.dtype == b.dtype and a.shape == b.shape and a.tobytes() == b.tobytes()


@pytest.fixture
def small_blocks(monkeypatch):
    """Blocks of 64 elements and no size or length threshold, so small arrays and short
    chains take the block path."""
    monkeypatch.setattr(fused, "BLOCK_ELEMENTS", 64)
    monkeypatch.setattr(fusion, "MIN_GROUP_BYTES", 0)
    monkeypatch.setattr(fusion, "STEPS_PER_ARRAY", 0)


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.float16])
@pytest.mark.parametrize("rows", [1, 7, 64])
def test_kernel_equals_unfused_numpy_bit_for_bit(small_blocks, dtype, rows):
    r = np.random.default_rng(rows)
    x0 = (r.standard_normal((rows, 5, 6)) * 4).astype(dtype)
    x0.flat[:4] = [np.nan, -0.0, np.inf, -np.inf]
    x1 = r.standard_normal((1, 6)).astype(dtype)  # broadcast along the blocked axis
    x2 = r.standard_normal((rows, 5, 1)).astype(dtype)
    with np.errstate(all="ignore"):
        want = _gelu_grad_numpy(x0, x1, x2)
    got = fused.FusedElementwise.kernel(x0, x1, x2, program=GELU_GRAD)
    assert _same_bits(got, want)


def test_kernel_writes_into_out_and_into_its_own_input(small_blocks):
    r = np.random.default_rng(0)
    x = r.standard_normal((33, 10)).astype(np.float32)
    want = np.exp(np.tanh(x) * x)
    prog = "t0 = tanh(x0); t1 = multiply(t0, x0); t2 = exp(t1)"
    out = np.empty_like(x)
    assert fused.FusedElementwise.kernel(x, program=prog, out=out) is out
    assert _same_bits(out, want)
    assert fused.FusedElementwise.kernel(x, program=prog, out=x) is x  # in place
    assert _same_bits(x, want)


def test_kernel_reads_an_overlapping_view_of_out_before_writing(small_blocks):
    w = np.arange(100 * 100, dtype=np.float64).reshape(100, 100)
    want = w + w.T * 2
    fused.FusedElementwise.kernel(w, w.T, program="t0 = multiply(x1, 2); t1 = add(x0, t0)",
                                  out=w)
    assert _same_bits(w, want)


def test_infer_follows_numpy_types_and_broadcasting():
    a = fused.FusedElementwise.infer(AbstractTensor(ms.float32, (8, 1, 3)),
                                     AbstractTensor(ms.float32, (5, 1)), AbstractScalar(0.5),
                                     program="t0 = multiply(x0, x2); t1 = greater(t0, x1)")
    assert a == AbstractTensor(ms.bool_, (8, 5, 3))


@pytest.mark.parametrize("program", ["t0 = exp(x0); t2 = log(t0)", "t0 = where(x0, 1, 2)",
                                     "t0 = add(x0, y)", "t0 = exp x0"])
def test_malformed_programs_are_rejected(program):
    with pytest.raises(ValueError, match="FusedElementwise"):
        fused.parse_program(program)


def _gelu_tanh(x, g):
    inner = 0.7978845608028654 * (x + 0.044715 * (x * x * x))
    return g * (0.5 * x * (1 + ops.tanh(inner)))


def _compile(fn, monkeypatch, on: bool):
    monkeypatch.setenv("GRAPHKILN_FUSION", "1" if on else "0")
    jitted = ms.jit(lambda *a: fn(*a))
    return jitted


def _inputs(*shapes, seed=0):
    r = np.random.default_rng(seed)
    return [Tensor(r.standard_normal(s).astype(np.float32)) for s in shapes]


def test_a_chain_becomes_one_node_with_the_same_bits(small_blocks, monkeypatch):
    x, g = _inputs((40, 16), (16,))
    on = _compile(_gelu_tanh, monkeypatch, True)
    fused_out = on(x, g).asnumpy()
    info = ms.compile_info(on)
    assert info.count("FusedElementwise") == 1 and info.count("Tanh") == 0
    assert "program='t0 = multiply(0.5, x0); " in info.source and "tanh(" in info.source
    assert "fusion" in info.table()
    off = _compile(_gelu_tanh, monkeypatch, False)
    plain = off(x, g).asnumpy()
    assert ms.compile_info(off).count("FusedElementwise") == 0
    eager = _gelu_tanh(x, g).asnumpy()
    assert _same_bits(fused_out, plain) and _same_bits(fused_out, eager)


@pytest.mark.parametrize("dtype", [np.float32, np.float16])
def test_relu_fuses_as_its_kernel_computes_it(small_blocks, monkeypatch, dtype):
    x = np.linspace(-3, 3, 40 * 6).astype(dtype).reshape(40, 6)
    x[0, :3] = [np.nan, -0.0, 0.0]  # ReLU gives +0 for NaN and -0
    x = Tensor(x)
    f = _compile(lambda x: ops.relu(x * 2 - 1), monkeypatch, True)
    got = f(x).asnumpy()
    assert "t2 = fmax(0, t1); t3 = add(t2, 0)" in ms.compile_info(f).source
    assert _same_bits(got, ops.relu(x * 2 - 1).asnumpy())
    assert got[0, 0] == 0 and not np.signbit(got[0, 1])


def test_small_arrays_are_not_fused_by_default(monkeypatch):
    x, g = _inputs((64, 256), (256,))
    f = _compile(_gelu_tanh, monkeypatch, True)
    f(x, g)
    assert ms.compile_info(f).count("FusedElementwise") == 0


def test_short_chains_over_many_arrays_are_left_alone(small_blocks, monkeypatch):
    monkeypatch.setattr(fusion, "STEPS_PER_ARRAY", 2)
    x, g = _inputs((40, 16), (40, 16))
    long_chain = _compile(_gelu_tanh, monkeypatch, True)  # 10 steps over 3 arrays
    long_chain(x, g)
    assert ms.compile_info(long_chain).count("FusedElementwise") == 1
    short = _compile(lambda x, g: ops.relu(x + g), monkeypatch, True)  # 3 over 3
    short(x, g)
    assert ms.compile_info(short).count("FusedElementwise") == 0


def test_a_value_read_elsewhere_stays_outside_the_group(small_blocks, monkeypatch):
    def two_outputs(x):
        e = ops.exp(x * 0.5)  # read by the group and returned
        return (e + 1) * 3, e

    x, = _inputs((50, 8))
    f = _compile(two_outputs, monkeypatch, True)
    a, e = f(x)
    info = ms.compile_info(f)
    assert info.count("Exp") == 1 and info.count("FusedElementwise") == 2
    ea, ee = two_outputs(x)
    assert _same_bits(a.asnumpy(), ea.asnumpy()) and _same_bits(e.asnumpy(), ee.asnumpy())


def test_gradients_through_fused_chains_are_unchanged(small_blocks, monkeypatch):
    x, g = _inputs((40, 16), (16,))
    loss = lambda x, g: _gelu_tanh(x, g).sum()  # noqa: E731
    grads = {}
    for on in (True, False):
        monkeypatch.setenv("GRAPHKILN_FUSION", "1" if on else "0")
        f = ms.jit(ms.grad(lambda x, g: loss(x, g), grad_position=(0, 1)))
        grads[on] = [t.asnumpy() for t in f(x, g)]
        assert (ms.compile_info(f).count("FusedElementwise") > 0) == on
    assert all(_same_bits(a, b) for a, b in zip(grads[True], grads[False]))


class _ReadWriteRead(nn.Cell):
    """Reads the weight, overwrites it, then combines the old value with the new one: the
    first read must stay before the write."""

    def __init__(self):
        super().__init__()
        self.w = Parameter(Tensor(np.full((30, 4), 2.0, np.float32)), name="w")

    def construct(self, x):
        old = self.w * 2.0
        ops.assign(self.w, x)
        return (old + self.w) * 3.0


@pytest.mark.parametrize("level", [1, 2, 3])
def test_no_member_moves_past_a_write_of_what_it_reads(small_blocks, monkeypatch, level):
    monkeypatch.setenv("MS_DEV_SIDE_EFFECT_LOAD_ELIM", str(level))
    monkeypatch.setenv("GRAPHKILN_FUSION", "1")
    context.set_context(mode=context.GRAPH_MODE)
    net = _ReadWriteRead()
    x = Tensor(np.ones((30, 4), np.float32))
    assert np.all(net(x).asnumpy() == 15.0)  # (2 * 2 + 1) * 3
    assert np.all(net.w.asnumpy() == 1.0)


class _Decay(nn.Cell):
    def __init__(self):
        super().__init__()
        self.w = Parameter(Tensor(np.ones((48, 8), np.float32)), name="w")

    def construct(self, x):
        ops.assign(self.w, self.w * 0.9 + ops.tanh(x) * 0.1)
        return self.w + 0


def test_an_assigned_group_writes_into_the_weight(small_blocks, monkeypatch):
    monkeypatch.setenv("GRAPHKILN_FUSION", "1")
    context.set_context(mode=context.GRAPH_MODE)
    net = _Decay()
    buffer = net.w._data
    x, = _inputs((48, 8))
    for _ in range(3):
        net(x)
    info = ms.compile_info(net)
    assert info.count("FusedElementwise") == 1 and "out=a" in info.source
    assert net.w._data is buffer
    want = np.ones((48, 8), np.float32)
    for _ in range(3):
        want = want * np.float32(0.9) + np.tanh(x.asnumpy()) * np.float32(0.1)
    assert _same_bits(net.w.asnumpy(), want)


def test_training_is_bitwise_the_same_with_and_without_fusion(small_blocks, monkeypatch):
    context.set_context(mode=context.GRAPH_MODE)
    losses = {}
    for on in (True, False):
        monkeypatch.setenv("GRAPHKILN_FUSION", "1" if on else "0")
        ms.set_seed(3)
        net = nn.SequentialCell(nn.Dense(12, 32), nn.GELU(approximate=True), nn.Dense(32, 3))
        opt = nn.Adam(net.trainable_params(), 1e-2)
        step = nn.TrainOneStepCell(nn.WithLossCell(net, nn.CrossEntropyLoss()), opt)
        x, = _inputs((96, 12))
        y = Tensor(np.arange(96, dtype=np.int32) % 3)
        losses[on] = [float(step(x, y).asnumpy()) for _ in range(4)]
        assert (ms.compile_info(step).count("FusedElementwise") > 0) == on
        losses[on] += [p.asnumpy().tobytes() for p in net.trainable_params()]
    assert losses[True] == losses[False]


def test_the_compile_cache_keeps_fused_graphs(small_blocks, monkeypatch, tmp_path):
    monkeypatch.setenv("GRAPHKILN_FUSION", "1")
    ms.set_context(enable_compile_cache=True, compile_cache_path=str(tmp_path))

    def chain(x):
        return ops.exp(ops.tanh(x) * 2.0) - 1.0

    x, = _inputs((30, 5))
    first = ms.jit(chain)
    want = first(x).asnumpy()
    second = ms.jit(chain)  # a new function object: found on disk
    got = second(x).asnumpy()
    info = ms.compile_info(second)
    assert info.from_cache and info.count("FusedElementwise") == 1
    assert "exp(" in info.source and _same_bits(got, want)
