"""The runtime's memory behaviour: weights update in their own arrays, loads are copied only
where a read follows the write in the generated order, element-wise kernels reuse dead
buffers, and none of it changes a result (GRAPH == PYNATIVE, NumPy references)."""
import numpy as np
import pytest

import graphkiln as ms
from graphkiln import Parameter, Tensor, context, nn, ops


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
