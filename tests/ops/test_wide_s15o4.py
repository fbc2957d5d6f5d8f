"""Fixes from the ``tests/st/ops`` every-15th-from-the-4th slice beyond the recorded family
(fixtures/api_ops_s15o4.json, collected by test_api_families.py): the AvgPool gradient bit
for bit as MindSpore 2.10 recorded it, the gradients of ``MaxPoolGradGradWithArgmax``
(float32) and ``EmbeddingLookup`` against NumPy, ``RandomCategorical``'s seed 0, a run-time
``size`` of ``ResizeLinear1D`` in a graph, and ``ApplyAdagradDA``'s checks."""
import json
import sys
from pathlib import Path

import numpy as np
import pytest

import graphkiln as ms
from graphkiln import Parameter, Tensor, ops
from graphkiln.ops.operations import _grad_ops as G

FIXTURES = Path(__file__).resolve().parent / "fixtures"
sys.path.insert(0, str(FIXTURES))
from api_ops_s15o4_cases import CASES  # noqa: E402

RECORDED = json.loads((FIXTURES / "api_ops_s15o4.json").read_text())


@pytest.mark.parametrize("name", ["avg_pool_same_grad", "avg_pool_same_grad_overlapping",
                                  "avg_pool_valid_grad"])
def test_avg_pool_grad_is_bitwise_mindspore(name):
    """Each input element adds its windows' shares in the windows' row-major order, as
    MindSpore's kernel: the float32 bits are the recorded ones (not only close)."""
    fn, arrays = CASES[name]
    got = fn(ms, *[Tensor(a) for a in arrays]).asnumpy()
    want = np.array(RECORDED[name][0][1], np.float64).astype(np.float32)
    np.testing.assert_array_equal(got, want)


def _flat_index(argmax, plane):
    return argmax.astype(np.int64) + (np.arange(argmax.shape[0]) * plane).reshape(-1, 1, 1, 1)


@pytest.mark.parametrize("mode", [ms.GRAPH_MODE, ms.PYNATIVE_MODE])
def test_max_pool_grad_grad_argmax_gradient_scatters_dout(mode):
    ms.set_context(mode=mode)
    try:
        r = np.random.default_rng(3)
        x = r.standard_normal((2, 2, 3, 4)).astype(np.float32)
        g = r.standard_normal((2, 2, 3, 4)).astype(np.float32)
        argmax = np.array([0, 7, 7, -3, 23, 30, 47, 100] * 2, np.int32).reshape(2, 2, 2, 2)
        w = r.standard_normal((2, 2, 2, 2)).astype(np.float32)
        op = G.MaxPoolGradGradWithArgmax(kernel_size=2, strides=2)

        def loss(xt, gt):
            return (op(xt, gt, Tensor(argmax)) * Tensor(w)).sum()
        dx, dg = ms.grad(loss, grad_position=(0, 1))(Tensor(x), Tensor(g))
        want = np.zeros(g.size, np.float32)
        idx = _flat_index(argmax, 24).reshape(-1)
        inside = (idx >= 0) & (idx < g.size)
        np.add.at(want, idx[inside], w.reshape(-1)[inside])
        np.testing.assert_array_equal(dx.asnumpy(), np.zeros_like(x))
        np.testing.assert_allclose(dg.asnumpy(), want.reshape(g.shape), rtol=1e-6)
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)


@pytest.mark.parametrize("mode", [ms.GRAPH_MODE, ms.PYNATIVE_MODE])
def test_embedding_lookup_gradient_adds_rows(mode):
    """The dense gradient: each looked-up row adds its cotangent (MindSpore 2.10's PyNative
    gradient is its RowTensor's values without the scatter)."""
    ms.set_context(mode=mode)
    try:
        r = np.random.default_rng(4)
        table = r.standard_normal((5, 3)).astype(np.float32)
        ids = np.array([[1, 2], [9, 1], [0, 3]], np.int32)
        w = r.standard_normal((3, 2, 3)).astype(np.float32)
        look = ops.operations.EmbeddingLookup()
        dt = ms.grad(lambda t: (look(t, Tensor(ids), 1) * Tensor(w)).sum())(Tensor(table))
        want = np.zeros_like(table)
        rows = ids.reshape(-1) - 1
        inside = (rows >= 0) & (rows < 5)
        np.add.at(want, rows[inside], w.reshape(-1, 3)[inside])
        np.testing.assert_allclose(dt.asnumpy(), want, rtol=1e-6)
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)


def test_random_categorical_seed_zero_draws_fresh_and_reproducibly():
    logits = Tensor(np.zeros((2, 50), np.float32))
    op = ops.operations.RandomCategorical(ms.int32)
    ms.set_seed(7)
    a, b = op(logits, 40, 0).asnumpy(), op(logits, 40, 0).asnumpy()
    ms.set_seed(7)
    again = op(logits, 40, 0).asnumpy()
    assert not np.array_equal(a, b)
    np.testing.assert_array_equal(a, again)
    assert a.dtype == np.int32 and a.min() >= 0 and a.max() < 50
    np.testing.assert_array_equal(a[0], a[1])  # MindSpore's rows share their draws


def test_random_categorical_seed_fixes_draws_in_graph_and_pynative():
    x = Tensor(np.random.default_rng(5).standard_normal((3, 4)).astype(np.float32))
    eager = ops.random_categorical(x, 6, 17).asnumpy()
    graph = ms.jit(lambda t, s: ops.operations.RandomCategorical()(t, 6, s))(
        x, Tensor(np.int32(17))).asnumpy()
    np.testing.assert_array_equal(eager, graph)


def test_random_categorical_bad_dtype():
    with pytest.raises(TypeError, match="'dtype'"):
        ops.operations.RandomCategorical(ms.float32)


def test_resize_linear_1d_size_known_at_run_time():
    """A ``size`` Tensor that is a graph input: the width is known only when the graph runs;
    the result and the gradient equal PyNative's."""
    x = Tensor(np.random.default_rng(6).standard_normal((2, 3, 5)).astype(np.float32))
    op = ops.operations.ResizeLinear1D("half_pixel")

    def f(t, size):
        return ms.grad(lambda u: (op(u, size) * op(u, size)).sum())(t), op(t, size)
    for width in (3, 9):
        size = Tensor(np.array([width], np.int64))
        (g_graph, y_graph), (g_eager, y_eager) = ms.jit(f)(x, size), f(x, size)
        assert y_graph.shape == (2, 3, width)
        np.testing.assert_allclose(y_graph.asnumpy(), y_eager.asnumpy(), rtol=1e-6)
        np.testing.assert_allclose(g_graph.asnumpy(), g_eager.asnumpy(), rtol=1e-6)


def test_resize_linear_1d_bad_mode_and_size():
    x = Tensor(np.ones((1, 2, 3), np.float32))
    with pytest.raises(RuntimeError, match="coordinate_transformation_mode"):
        ops.operations.ResizeLinear1D("asymmetric")(x, Tensor(np.array([4], np.int64)))
    with pytest.raises(TypeError, match="'size'"):
        ops.operations.ResizeLinear1D()(x, Tensor(np.array([4.0], np.float32)))


def _adagrad_da_slots():
    return [Parameter(Tensor(np.full((2, 2), v, np.float32)), name=f"s{i}")
            for i, v in enumerate((0.5, 0.3, 0.2))]


@pytest.mark.parametrize("args, error, match", [
    ((0.1, 0.01, 0.02, Tensor(np.float32(2))), TypeError, r"global_step"),
    ((Tensor(np.array([0.1, 0.2], np.float32)), 0.01, 0.02, 2), ValueError, r"lr_shape"),
    ((Tensor(np.int32(1)), 0.01, 0.02, 2), TypeError, r"argument\[lr\]"),
    ((0.1, True, 0.02, 2), TypeError, r"argument\[l1\]"),
])
def test_apply_adagrad_da_checks_hyper_parameters(args, error, match):
    # MindSpore 2.10's types and messages (recorded by hand: "For primitive[ApplyAdagradDA],
    # the input argument[global_step_type] must be a type of {Int32, Int64, ...}", "the
    # lr_shape size must be equal to 0, but got 1")
    g = Tensor(np.ones((2, 2), np.float32))
    with pytest.raises(error, match=match):
        ops.ApplyAdagradDA()(*_adagrad_da_slots(), g, *args)
    with pytest.raises(TypeError, match="use_locking"):
        ops.ApplyAdagradDA(1)


class _PadNet(ms.nn.Cell):
    def __init__(self, padding):
        super().__init__()
        self.padding = padding

    def construct(self, x):
        return ops.pad(x, self.padding, value=1.5)


@pytest.mark.parametrize("padding, np_pads", [((0, 2, 1, 0), ((1, 0), (0, 2))),
                                              ((-1, 2, 2, -1), ((2, -1), (-1, 2)))])
def test_pad_constant_of_a_dimension_known_at_run_time(padding, np_pads):
    ms.set_context(mode=ms.GRAPH_MODE)
    try:
        net = _PadNet(padding)
        net.set_inputs(Tensor(shape=[None, 4], dtype=ms.float32))
        for rows in (4, 6):
            x = np.arange(rows * 4, dtype=np.float32).reshape(rows, 4)
            grow = [(max(a, 0), max(b, 0)) for a, b in np_pads]
            want = np.pad(x, grow, constant_values=1.5)
            crop = tuple(slice(-min(a, 0), want.shape[i] + min(b, 0))
                         for i, (a, b) in enumerate(np_pads))
            np.testing.assert_array_equal(net(Tensor(x)).asnumpy(), want[crop])
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)


class _SliceNet(ms.nn.Cell):
    def construct(self, x):
        x[x.shape[0] - 3:ops.dyn_shape(x)[0]:Tensor(2)] = 1
        return x[1:ops.dyn_shape(x)[0]:Tensor(np.array([2], np.int64))]


def test_constant_tensor_step_with_run_time_bounds():
    ms.set_context(mode=ms.GRAPH_MODE)
    try:
        net = _SliceNet()
        net.set_inputs(Tensor(shape=[None], dtype=ms.float32))
        for n in (5, 8):
            x = np.arange(n, dtype=np.float32) + 10
            want = x.copy()
            want[n - 3::2] = 1
            np.testing.assert_array_equal(net(Tensor(x)).asnumpy(), want[1::2])
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)
