"""``ops.DynamicRNN`` (MindSpore's Ascend LSTM; its CPU backend has no kernel for it): a
NumPy LSTM with MindSpore's gate order (i, j, f, o) as the reference, GRAPH == PYNATIVE,
gradients by finite differences, and MindSpore's constructor errors (recorded from
MindSpore 2.10, whose constructor checks run on any device)."""
import numpy as np
import pytest

import graphkiln as ms
from graphkiln import Tensor, context, ops

T, B, IN, H = 3, 4, 6, 5


def _inputs(bias_dtype=np.float32, seed=0):
    r = np.random.default_rng(seed)
    return (r.standard_normal((T, B, IN)).astype(np.float16),
            (r.standard_normal((IN + H, 4 * H)) * 0.4).astype(np.float16),
            r.standard_normal(4 * H).astype(bias_dtype),
            r.standard_normal((1, B, H)).astype(np.float16),
            r.standard_normal((1, B, H)).astype(np.float16))


def _numpy_lstm(x, w, b, h0, c0, forget_bias=0.0, cell_clip=-1.0):
    def sigmoid(v):
        return 1 / (1 + np.exp(-v))
    h, c = h0[0].astype(np.float64), c0[0].astype(np.float64)
    outs = {k: [] for k in ("h", "c", "i", "j", "f", "o", "tanhc")}
    for t in range(x.shape[0]):
        g = np.concatenate([x[t].astype(np.float64), h], -1) @ w.astype(np.float64) + b
        i, j = sigmoid(g[:, :H]), np.tanh(g[:, H:2 * H])
        f, o = sigmoid(g[:, 2 * H:3 * H] + forget_bias), sigmoid(g[:, 3 * H:])
        c = f * c + i * j
        if cell_clip > 0:
            c = np.clip(c, -cell_clip, cell_clip)
        h = o * np.tanh(c)
        for k, v in (("h", h), ("c", c), ("i", i), ("j", j), ("f", f), ("o", o),
                     ("tanhc", np.tanh(c))):
            outs[k].append(v)
    return {k: np.stack(v) for k, v in outs.items()}


@pytest.mark.parametrize("bias_dtype", [np.float32, np.float16])
@pytest.mark.parametrize("attrs", [{}, {"forget_bias": 1.0}, {"cell_clip": 0.5}])
def test_outputs_match_a_numpy_lstm_in_both_modes(bias_dtype, attrs):
    arrays = _inputs(bias_dtype)
    want = _numpy_lstm(*arrays, **attrs)
    op = ops.DynamicRNN(**attrs)

    def run(x, w, b, h, c):
        return op(x, w, b, None, h, c)

    context.set_context(mode=context.PYNATIVE_MODE)
    eager = run(*map(Tensor, arrays))
    graph = ms.jit(run)(*map(Tensor, arrays))
    tol = 2e-3 if bias_dtype == np.float16 else 1e-5
    keys = ("h", "h", "c", "i", "j", "f", "o", "tanhc")
    for n, (k, e, g) in enumerate(zip(keys, eager, graph)):
        want_dtype = ms.float16 if n == 1 or bias_dtype == np.float16 else ms.float32
        assert e.dtype == g.dtype == want_dtype and e.shape == (T, B, H)
        np.testing.assert_allclose(e.asnumpy().astype(np.float64), want[k],
                                   rtol=tol, atol=tol if n != 1 else 2e-3)
        np.testing.assert_array_equal(g.asnumpy(), e.asnumpy())


def test_gradients_match_finite_differences():
    x, w, b, h0, c0 = _inputs()
    weights = np.random.default_rng(1).standard_normal((T, B, H))
    op = ops.DynamicRNN(forget_bias=0.5)

    def loss(bias):
        y, _, c, *_ = op(Tensor(x), Tensor(w), bias, None, Tensor(h0), Tensor(c0))
        return (y * Tensor(weights.astype(np.float32))).sum() + c.sum()

    got = ms.grad(loss)(Tensor(b)).asnumpy()

    def numeric(bias):
        out = _numpy_lstm(x, w, bias, h0, c0, forget_bias=0.5)
        return (out["h"] * weights).sum() + out["c"].sum()
    eps, fd = 1e-6, np.zeros(b.shape)
    for k in range(b.size):
        e = np.zeros(b.shape)
        e[k] = eps
        fd[k] = (numeric(b + e) - numeric(b - e)) / (2 * eps)
    np.testing.assert_allclose(got, fd, rtol=1e-3, atol=1e-4)


@pytest.mark.parametrize("attrs, error, text", [
    ({"cell_type": "GRU"}, ValueError,
     "For 'DynamicRNN', the 'cell_type' must be str and must be in '['LSTM']', but got 'GRU'."),
    ({"direction": "BIDIRECTIONAL"}, ValueError,
     "the 'direction' must be str and must be in '['UNIDIRECTIONAL']', but got "
     "'BIDIRECTIONAL'."),
    ({"time_major": False}, ValueError,
     "the 'time_major' should be = the supported value: True, but got False."),
    ({"activation": "relu"}, ValueError, "must be in '['tanh']', but got 'relu'."),
    ({"forget_bias": 1}, TypeError,
     "the type of 'forget_bias' should be 'float', but got type 'int'."),
    ({"keep_prob": 2.0}, ValueError,
     "The 'keep_prob' must be in range of [0.0, 1.0], but got 2.0 with type 'float'."),
    ({"cell_depth": 1.0}, TypeError,
     "the type of 'cell_depth' should be 'int', but got type 'float'."),
    ({"num_proj": -1}, ValueError,
     "the 'num_proj' must be int and must >= 0, but got '-1' with type 'int'."),
    ({"use_peephole": 1}, TypeError,
     "the type of 'use_peephole' should be 'bool', but got type 'int'."),
    ({"cell_clip": 1}, TypeError, "the type of 'cell_clip' should be 'float', but got type "
                                  "'int'."),
])
def test_constructor_errors_are_mindspores(attrs, error, text):
    with pytest.raises(error) as e:
        ops.operations.DynamicRNN(**attrs)
    assert text in str(e.value)


def test_bad_inputs_name_what_is_wrong():
    x, w, b, h0, c0 = map(Tensor, _inputs())
    op = ops.DynamicRNN()
    with pytest.raises(TypeError, match="dtype of 'x'"):
        op(Tensor(np.zeros((T, B, IN), np.float32)), w, b, None, h0, c0)
    with pytest.raises(ValueError, match="'w' must be"):
        op(x, Tensor(np.zeros((IN + H + 1, 4 * H), np.float16)), b, None, h0, c0)
    with pytest.raises(ValueError, match="only None is supported for 'seq_length'"):
        op(x, w, b, Tensor(np.full(B, T, np.int32)), h0, c0)
