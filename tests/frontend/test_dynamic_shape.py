"""Dynamic shapes: placeholders, ``set_inputs`` / ``input_signature`` (one compile for every
batch size), run-time ``x.shape``, widening joins and data-dependent ops, against MindSpore
2.10's recorded results (``fixtures/dynamic_shape_programs.py``) and PYNATIVE == GRAPH."""
import json
from pathlib import Path

import numpy as np
import pytest

import graphkiln as ms
from graphkiln import Tensor, compat, nn, ops
from graphkiln.backend.memplan import _buffer_key
from graphkiln.compile.api import _cell_graph_executor
from graphkiln.compile.call_cache import compile_info
from graphkiln.ir.abstract import AbstractTensor, widen
from graphkiln.ir.anf import CNode

FIXTURES = Path(__file__).parent / "fixtures"
EXPECTED = json.loads((FIXTURES / "ms_dynamic_shape.json").read_text())


PROGRAMS = compat.import_mindspore_module(FIXTURES / "dynamic_shape_programs.py")


def _same(got, want, where):
    if isinstance(want, dict):
        assert got["shape"] == want["shape"] and got["dtype"] == want["dtype"], (where, got)
        np.testing.assert_allclose(got["value"], want["value"], rtol=1e-5, atol=1e-5,
                                   err_msg=where)
    elif isinstance(want, list):
        assert isinstance(got, list) and len(got) == len(want), (where, got, want)
        for i, (g, w) in enumerate(zip(got, want)):
            _same(g, w, f"{where}[{i}]")
    else:
        assert got == want, (where, got, want)


@pytest.fixture
def graph_mode():
    ms.set_context(mode=ms.GRAPH_MODE)
    yield
    ms.set_context(mode=ms.GRAPH_MODE)


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_program_matches_mindspore(name, graph_mode):
    _same(PROGRAMS.CASES[name](), EXPECTED[name], name)


# ------------------------------------------------------------------ placeholders

def test_placeholder_shape_repr_and_errors():
    p = Tensor(shape=[None, 3], dtype=ms.float32)
    assert p.shape == (-1, 3) and p.is_placeholder
    assert Tensor(shape=None, dtype=ms.int32).shape == (-2,)
    assert repr(p) == "Tensor(shape=[-1, 3], dtype=Float32, value= )"
    with pytest.raises(ValueError, match="dtype must not be None"):
        Tensor(shape=[None, 3])
    with pytest.raises(ValueError, match="negative dimensions"):
        p.asnumpy()
    assert Tensor(shape=[2, 3], dtype=ms.float32).asnumpy().shape == (2, 3)  # zeros


class _Scale(nn.Cell):
    def construct(self, x):
        return (x * 2).sum(axis=1) + x.shape[0]


def _net_with(*placeholders):
    net = _Scale()
    net.set_inputs(*placeholders)
    return net


def test_set_inputs_compiles_once_for_every_batch_size(graph_mode):
    net = _net_with(Tensor(shape=[None, 3], dtype=ms.float32))
    infos = []
    for b in (1, 4, 9):
        x = np.arange(b * 3, dtype=np.float32).reshape(b, 3)
        np.testing.assert_allclose(net(Tensor(x)).asnumpy(), (x * 2).sum(1) + b)
        infos.append(compile_info(net))
    assert all(info is infos[0] for info in infos)  # one compile served every batch size
    assert infos[0].graph.params[0].abstract.shape == (-1, 3)
    net.set_inputs()  # no placeholders: compiled per shape again
    net(Tensor(np.ones((2, 3), np.float32)))
    assert compile_info(net).graph.params[0].abstract.shape == (2, 3)


def test_run_time_slice_bounds_compile_once_and_match_pynative(graph_mode):
    net = PROGRAMS._RunTimeSlices()
    net.set_inputs(Tensor(shape=[2, None], dtype=ms.float32))
    x = np.arange(12, dtype=np.float32).reshape(2, 6) - 3
    graph = [net(Tensor(x[:, :k])).asnumpy() for k in (3, 6)]
    infos = {id(compile_info(net))}
    net(Tensor(x[:, :4]))
    infos.add(id(compile_info(net)))
    assert len(infos) == 1
    ms.set_context(mode=ms.PYNATIVE_MODE)
    eager = [PROGRAMS._RunTimeSlices()(Tensor(x[:, :k])).asnumpy() for k in (3, 6)]
    np.testing.assert_array_equal(graph, eager)


def test_set_inputs_unknown_rank_compiles_per_rank(graph_mode):
    net = _net_with(Tensor(shape=None, dtype=ms.float32))
    assert net(Tensor(np.ones((2, 3), np.float32))).shape == (2,)
    assert net(Tensor(np.ones((5, 3), np.float32))).shape == (5,)
    assert net(Tensor(np.ones((4, 5, 6), np.float32))).shape == (4, 6)


@pytest.mark.parametrize("x, error, phrase", [
    (np.ones((2, 3), np.int32), TypeError, "1th type should be Tensor\\[Float32\\]"),
    (np.ones((2, 3, 1), np.float32), ValueError, "dims of 1th input must be the same"),
    (np.ones((2, 4), np.float32), ValueError, "shape of 1th input must be the same as "
                                              "expected, but got expected: 3, and input: 4"),
])
def test_set_inputs_refuses_what_does_not_fit(x, error, phrase, graph_mode):
    net = _net_with(Tensor(shape=[None, 3], dtype=ms.float32))
    with pytest.raises(error, match=phrase):
        net(Tensor(x))


def test_set_inputs_count_mismatch(graph_mode):
    class Two(nn.Cell):
        def construct(self, x, y):
            return x + y
    net = Two()
    net.set_inputs(Tensor(shape=[None], dtype=ms.float32))
    with pytest.raises(TypeError, match="configured with set_inputs"):
        net(Tensor(np.ones(2, np.float32)), Tensor(np.ones(2, np.float32)))


def test_jit_input_signature_is_a_hint_and_dynamic_makes_every_input_dynamic():
    def f(x):
        return x.shape[0] * x.sum()
    sig = ms.jit(f, input_signature=Tensor(shape=[None, 3], dtype=ms.float32))
    infos = []
    for b in (2, 5, 7):
        assert float(sig(Tensor(np.ones((b, 3), np.float32)))) == b * b * 3
        infos.append(compile_info(sig))
    assert all(info is infos[0] for info in infos)
    # a tensor that does not fit compiles for its own shape (MindSpore 2.10 does not check)
    assert float(sig(Tensor(np.ones((2, 4), np.float32)))) == 16
    assert compile_info(sig) is not infos[0]
    dyn = ms.jit(f, dynamic=1)
    assert float(dyn(Tensor(np.ones((1, 2), np.float32)))) == 2
    first = compile_info(dyn)
    assert float(dyn(Tensor(np.ones((3, 2), np.float32)))) == 18
    assert compile_info(dyn) is first


# ------------------------------------------------------------------ shapes as values

def test_shape_is_a_run_time_value_in_graph_and_pynative():
    def f(x):
        n = x.shape[0]
        y = x.reshape(n, -1) + ops.ones((n, 1), ms.float32)
        return y.sum() / n, ops.dyn_shape(x)
    x = Tensor(np.arange(8, dtype=np.float32).reshape(4, 2))
    want = f(x)
    got = ms.jit(f, input_signature=Tensor(shape=[None, 2], dtype=ms.float32))(x)
    assert float(got[0]) == float(want[0]) == 9.0
    np.testing.assert_array_equal(got[1].asnumpy(), [4, 2])


def test_unknown_dims_propagate_through_inference():
    def f(x, w):
        h = ops.matmul(x, w)                      # (-1, 4)
        c = ops.concat((h, h), 0)
        s = ops.stack((h, h), 1)
        r = h.reshape(-1, 2, 2)
        shapes = tuple(t._abs.shape for t in (
            h, c, s, r, h.sum(axis=1), h + w[0], h[1:, :2], h.T, x[x > 0]))
        return c.sum() + s.sum() + r.sum(), shapes
    jf = ms.jit(f, input_signature=(Tensor(shape=[None, 3], dtype=ms.float32),
                                    Tensor(shape=[3, 4], dtype=ms.float32)))
    x, w = np.ones((5, 3), np.float32), np.ones((3, 4), np.float32)
    total, shapes = jf(Tensor(x), Tensor(w))
    assert float(total) == pytest.approx(5 * (x @ w).sum())
    assert shapes == ((-1, 4), (-1, 4), (-1, 2, 4), (-1, 2, 2), (-1,), (-1, 4), (-1, 2),
                      (4, -1), (-1,))


def test_memory_plan_never_reuses_a_buffer_of_unknown_size():
    node = CNode.__new__(CNode)
    node.abstract = AbstractTensor(ms.float32, (-1, 1024))
    assert _buffer_key(node) is None
    node.abstract = AbstractTensor(ms.float32, (4, 1024))
    assert _buffer_key(node) == ((4, 1024), ms.float32)


def test_shape_of_unknown_dims_is_not_folded():
    jf = ms.jit(lambda x: x.shape[0] + 1,
                input_signature=Tensor(shape=[None], dtype=ms.float32))
    assert jf(Tensor(np.ones(3, np.float32))) == 4
    assert jf(Tensor(np.ones(6, np.float32))) == 7
    assert "Shape" in compile_info(jf).ir()


# ------------------------------------------------------------------ joins

def test_widen():
    a, b = AbstractTensor(ms.float32, (1, 2)), AbstractTensor(ms.float32, (4, 2))
    assert widen(a, b) == AbstractTensor(ms.float32, (-1, 2))
    assert widen(a, AbstractTensor(ms.float32, (1, 2, 1))) is None
    assert widen(a, AbstractTensor(ms.int32, (1, 2))) is None


def test_loop_that_grows_a_tensor_widens_its_state():
    def grow(x, n):
        i = Tensor(0)
        while i < n:
            x = ops.concat((x, x))
            i += 1
        return x
    x = Tensor(np.ones((1, 2), np.float32))
    for n in (0, 3):
        assert ms.jit(grow)(x, Tensor(n)).shape == grow(x, Tensor(n)).shape == (2 ** n, 2)


def test_branches_of_different_ranks_still_refused():
    def f(x, c):
        y = x if c > 0 else x.reshape(-1)
        return y
    with pytest.raises(TypeError, match="Cannot join.*type or rank differs"):
        ms.jit(f)(Tensor(np.ones((2, 2), np.float32)), Tensor(1))


# ------------------------------------------------------------------ data-dependent ops

def _data_ops(x):
    m = x > 1
    y, idx = ops.unique(x)
    return (ops.nonzero(x), ops.masked_select(x, m), x[m], y * 2, idx, x.nonzero(),
            x.masked_select(m).shape[0] + 0.5)


def test_data_dependent_ops_pynative_equals_graph():
    x = Tensor(np.array([0, 2, 3, 0, 2, 5], np.float32))
    eager, graph = _data_ops(x), ms.jit(_data_ops)(x)
    for e, g in zip(eager, graph):
        np.testing.assert_array_equal(np.asarray(g.asnumpy() if isinstance(g, Tensor) else g),
                                      np.asarray(e.asnumpy() if isinstance(e, Tensor) else e))
    np.testing.assert_array_equal(graph[3].asnumpy(), [0, 4, 6, 10])  # order of appearance


def test_masked_select_grad_matches_finite_differences():
    def f(x):
        return (ops.masked_select(x, x > 0) ** 3).sum()
    x0 = np.array([[0.5, -1.0, 2.0], [-0.3, 1.5, 0.7]], np.float32)
    got = ms.grad(ms.jit(f))(Tensor(x0)).asnumpy()
    eps, fd = 1e-3, np.zeros_like(x0)
    for i in np.ndindex(x0.shape):
        hi, lo = x0.copy(), x0.copy()
        hi[i] += eps
        lo[i] -= eps
        fd[i] = (float(f(Tensor(hi))) - float(f(Tensor(lo)))) / (2 * eps)
    np.testing.assert_allclose(got, fd, rtol=1e-2, atol=1e-2)


def test_topk_with_a_run_time_k():
    f = ms.jit(lambda x, k: ops.topk(x, k))
    x = Tensor(np.array([1, 5, 3, 2], np.float32))
    values, indices = f(x, Tensor([2]))
    np.testing.assert_array_equal(values.asnumpy(), [5, 3])
    np.testing.assert_array_equal(indices.asnumpy(), [1, 2])
    assert f(x, ms.mutable(3))[0].shape == (3,)


# ------------------------------------------------------------------ training

class _ConvNet(nn.Cell):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(1, 2, 3, pad_mode="same", weight_init="ones")
        self.bn = nn.BatchNorm2d(2)
        self.flat = nn.Flatten()
        self.fc = nn.Dense(2 * 4 * 4, 3, weight_init="ones", bias_init="zeros")

    def construct(self, x):
        return self.fc(self.flat(ops.relu(self.bn(self.conv(x))))).mean(axis=1)


def _train_losses(dynamic: bool) -> list:
    net = _ConvNet()
    loss = nn.MSELoss()
    train = nn.TrainOneStepCell(nn.WithLossCell(net, loss),
                                nn.Momentum(net.trainable_params(), 0.01, 0.9))
    if dynamic:
        train.set_inputs(Tensor(shape=[None, 1, 4, 4], dtype=ms.float32),
                         Tensor(shape=[None], dtype=ms.float32))
    train.set_train()
    rng = np.random.default_rng(0)
    out = []
    for b in (3, 2, 3):
        x = rng.standard_normal((b, 1, 4, 4)).astype(np.float32)
        out.append(float(train(Tensor(x), Tensor(x.mean(axis=(1, 2, 3))))))
    return out


def test_training_with_set_inputs_equals_static_shapes(graph_mode):
    np.testing.assert_allclose(_train_losses(True), _train_losses(False), rtol=1e-5)


def test_a_placeholder_compiles_but_does_not_run(graph_mode):
    net = _Scale()
    p = Tensor(shape=[None, 3], dtype=ms.float32)
    _, compiled = _cell_graph_executor.compile(net, p)
    assert compiled and compile_info(net).graph.params[0].abstract.shape == (-1, 3)
    with pytest.raises(ValueError, match="placeholder Tensor"):
        net(p)


def _shape_patterns(x):
    s = 0
    for i in range(x.shape[0]):
        s = s + x[i].sum()
    big = x.sum() if x.shape[0] > 2 else x.mean()
    ones = ops.ones(x.shape, ms.float32) + ops.broadcast_to(Tensor([1.0, 2.0, 3.0]), x.shape)
    return s, big, ones


@pytest.mark.parametrize("batch", [2, 4])
def test_shape_patterns_pynative_equals_graph(batch):
    x = Tensor(np.arange(batch * 3, dtype=np.float32).reshape(batch, 3))
    jf = ms.jit(_shape_patterns, input_signature=Tensor(shape=[None, 3], dtype=ms.float32))
    for got, want in zip(jf(x), _shape_patterns(x)):
        np.testing.assert_allclose(got.asnumpy(), want.asnumpy())
    grad = ms.jit(ms.grad(lambda v: (v.mean(axis=0) ** 2).sum()),
                  input_signature=Tensor(shape=[None, 3], dtype=ms.float32))(x).asnumpy()
    np.testing.assert_allclose(grad, np.broadcast_to(2 * x.asnumpy().mean(0) / batch,
                                                     (batch, 3)), rtol=1e-6)
