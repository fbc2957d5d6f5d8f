"""nn layers against NumPy references; defaults, names and errors as in MindSpore 2.10."""
import math

import numpy as np
import pytest

import graphkiln as ms
from graphkiln import Tensor, nn


def _x(*shape, lo=-3.0, hi=3.0):
    n = int(np.prod(shape))
    return np.linspace(lo, hi, n, dtype=np.float32).reshape(shape)


# ------------------------------------------------------------------ Dense

def test_dense_matches_numpy(seeded):
    d = nn.Dense(4, 3)
    x = _x(5, 4)
    w, b = d.weight.asnumpy(), d.bias.asnumpy()
    assert w.shape == (3, 4) and b.shape == (3,)
    np.testing.assert_allclose(d(Tensor(x)).asnumpy(), x @ w.T + b, rtol=1e-6, atol=1e-6)


def test_dense_higher_rank_input_is_flattened_and_restored(seeded):
    d = nn.Dense(4, 2)
    x = _x(2, 3, 4)
    out = d(Tensor(x)).asnumpy()
    assert out.shape == (2, 3, 2)
    ref = x @ d.weight.asnumpy().T + d.bias.asnumpy()
    np.testing.assert_allclose(out, ref, rtol=1e-6, atol=1e-6)


def test_dense_activation_and_no_bias():
    d = nn.Dense(3, 2, weight_init="ones", has_bias=False, activation="relu")
    assert d.bias is None and [p.name for p in d.get_parameters()] == ["weight"]
    assert isinstance(d.activation, nn.ReLU)
    x = np.array([[1.0, 1.0, 1.0], [-1.0, -2.0, 0.0]], np.float32)
    np.testing.assert_array_equal(d(Tensor(x)).asnumpy(), [[3.0, 3.0], [0.0, 0.0]])
    assert repr(d) == ("Dense(\n  input_channels=3, output_channels=2, activation=ReLU()\n"
                       "  (activation): ReLU()\n)")


def test_dense_default_init_is_mindspore_he_uniform():
    ms.set_seed(7)
    d = nn.Dense(64, 256)
    bound = 1.0 / math.sqrt(64)  # HeUniform(sqrt(5)) and the bias Uniform give 1/sqrt(in)
    w, b = d.weight.asnumpy(), d.bias.asnumpy()
    assert w.dtype == np.float32 and np.abs(w).max() <= bound
    assert np.abs(w).max() > 0.9 * bound  # really spread over the whole range
    assert np.abs(b).max() <= bound
    assert abs(float(w.std()) - bound / math.sqrt(3)) < 0.01


def test_dense_init_is_reproducible_with_set_seed():
    ms.set_seed(3)
    a = nn.Dense(5, 4)
    np.random.seed(99)  # NumPy's global seed does not matter
    ms.set_seed(3)
    b = nn.Dense(5, 4)
    np.testing.assert_array_equal(a.weight.asnumpy(), b.weight.asnumpy())
    np.testing.assert_array_equal(a.bias.asnumpy(), b.bias.asnumpy())
    c = nn.Dense(5, 4)
    assert not np.array_equal(a.weight.asnumpy(), c.weight.asnumpy())


def test_dense_init_arguments():
    d = nn.Dense(3, 2, weight_init="ones", bias_init="zeros")
    np.testing.assert_array_equal(d.weight.asnumpy(), np.ones((2, 3)))
    np.testing.assert_array_equal(d.bias.asnumpy(), np.zeros(2))
    w = Tensor(np.arange(6, dtype=np.float32).reshape(2, 3))
    d = nn.Dense(3, 2, weight_init=w, bias_init=Tensor(np.array([1.0, 2.0], np.float32)))
    np.testing.assert_array_equal(d.weight.asnumpy(), w.asnumpy())
    d = nn.Dense(3, 2, weight_init=nn.init.Normal(0.5), bias_init=0.25)
    np.testing.assert_array_equal(d.bias.asnumpy(), [0.25, 0.25])


def test_dense_errors():
    with pytest.raises(TypeError, match="the 'in_channels' must be int, but got 'float'"):
        nn.Dense(4.0, 2)
    with pytest.raises(ValueError, match="the 'in_channels' must be int and must > 0"):
        nn.Dense(0, 2)
    with pytest.raises(ValueError, match="weight init shape error"):
        nn.Dense(3, 2, weight_init=Tensor(np.ones((3, 2), np.float32)))
    with pytest.raises(KeyError, match="but got foo"):
        nn.Dense(4, 2, activation="foo")
    with pytest.raises(ValueError, match="'x1_col': 3 and 'x2_row': 4"):
        nn.Dense(4, 2)(Tensor(np.ones((2, 3), np.float32)))


# ------------------------------------------------------------------ activations

def test_relu():
    x = _x(3, 4)
    np.testing.assert_array_equal(nn.ReLU()(Tensor(x)).asnumpy(), np.maximum(x, 0))


def test_gelu_tanh_default_and_erf():
    x = _x(3, 4)
    tanh_ref = 0.5 * x * (1 + np.tanh(np.sqrt(2 / np.pi) * (x + 0.044715 * x ** 3)))
    erf_ref = 0.5 * x * (1 + np.vectorize(math.erf)(x / np.sqrt(2)))
    got = nn.GELU()(Tensor(x)).asnumpy()
    assert got.dtype == np.float32
    np.testing.assert_allclose(got, tanh_ref, atol=1e-6)
    np.testing.assert_allclose(nn.GELU(approximate=False)(Tensor(x)).asnumpy(), erf_ref,
                               atol=1e-6)


@pytest.mark.parametrize("axis", [-1, 0])
def test_softmax(axis):
    x = _x(3, 4)
    e = np.exp(x - x.max(axis, keepdims=True))
    ref = e / e.sum(axis, keepdims=True)
    np.testing.assert_allclose(nn.Softmax(axis)(Tensor(x)).asnumpy(), ref, rtol=1e-6)


# ------------------------------------------------------------------ LayerNorm

def test_layernorm_last_axis():
    ln = nn.LayerNorm((4,), epsilon=1e-5)
    assert [p.name for p in ln.get_parameters()] == ["gamma", "beta"]
    x = _x(3, 4)
    ref = (x - x.mean(-1, keepdims=True)) / np.sqrt(x.var(-1, keepdims=True) + 1e-5)
    np.testing.assert_allclose(ln(Tensor(x)).asnumpy(), ref, rtol=1e-5, atol=1e-5)


def test_layernorm_begin_axes_and_affine():
    x = np.random.default_rng(0).random((2, 3, 4)).astype(np.float32)
    ln = nn.LayerNorm((3, 4), begin_norm_axis=1, begin_params_axis=1)
    assert [tuple(p.shape) for p in ln.get_parameters()] == [(3, 4), (3, 4)]
    g = np.arange(12, dtype=np.float32).reshape(3, 4) / 10
    ln.gamma.set_data(Tensor(g))
    ln.beta.set_data(Tensor(np.full((3, 4), 0.5, np.float32)))
    m, v = x.mean((1, 2), keepdims=True), x.var((1, 2), keepdims=True)
    ref = (x - m) / np.sqrt(v + 1e-7) * g + 0.5
    np.testing.assert_allclose(ln(Tensor(x)).asnumpy(), ref, rtol=1e-5, atol=1e-5)


def test_layernorm_errors_and_repr():
    with pytest.raises(TypeError, match="'normalized_shape' must be tuple"):
        nn.LayerNorm(4)
    assert repr(nn.LayerNorm((2,))).startswith(
        "LayerNorm(normalized_shape=(2,), begin_norm_axis=-1, begin_params_axis=-1, gamma=")


# ------------------------------------------------------------------ Dropout

def test_dropout_is_identity_in_eval_mode():
    d = nn.Dropout(p=0.5)
    assert d.training is False
    x = Tensor(np.ones(100, np.float32))
    np.testing.assert_array_equal(d(x).asnumpy(), np.ones(100))


def test_dropout_drops_in_training_mode():
    d = nn.Dropout(p=0.25)
    x = Tensor(np.ones(4000, np.float32))
    out = d.set_train()(x).asnumpy()
    assert set(np.unique(out).tolist()) <= {0.0, np.float32(1 / 0.75)}
    assert 0.2 < float((out == 0).mean()) < 0.3
    d.set_train(False)
    np.testing.assert_array_equal(d(x).asnumpy(), np.ones(4000))


def test_set_train_on_parent_reaches_dropout():
    net = nn.SequentialCell([nn.Dense(8, 8, weight_init="ones"), nn.Dropout(keep_prob=0.5)])
    x = Tensor(np.ones((50, 8), np.float32))
    assert (net(x).asnumpy() != 0).all()
    net.set_train()
    assert (net(x).asnumpy() == 0).any()


def test_dropout_arguments():
    assert repr(nn.Dropout()) == "Dropout(keep_prob=0.5)"
    assert repr(nn.Dropout(p=0.2)) == "Dropout(p=0.2)"
    assert nn.Dropout(keep_prob=0.9).p == pytest.approx(0.1)
    x = Tensor(np.ones(10, np.float32))
    assert nn.Dropout(p=0.0).set_train()(x) is x
    with pytest.raises(ValueError, match=r"the 'p' must be a number in range \[0, 1\)"):
        nn.Dropout(p=1.0)
    with pytest.raises(ValueError, match=r"the 'keep_prob' must be a number in range \(0, 1\]"):
        nn.Dropout(keep_prob=0.0)


# ------------------------------------------------------------------ Embedding

def test_embedding_gathers_rows(seeded):
    e = nn.Embedding(10, 3)
    table = e.embedding_table.asnumpy()
    assert table.shape == (10, 3) and e.embedding_table.name == "embedding_table"
    ids = np.array([[1, 2], [3, 9]], np.int32)
    out = e(Tensor(ids)).asnumpy()
    assert out.shape == (2, 2, 3)
    np.testing.assert_array_equal(out, table[ids])


def test_embedding_init():
    ms.set_seed(0)
    e = nn.Embedding(1000, 8)
    assert abs(float(e.embedding_table.asnumpy().std()) - 0.01) < 0.001  # Normal(0.01)
    e = nn.Embedding(4, 2, embedding_table="ones", padding_idx=1)
    np.testing.assert_array_equal(e.embedding_table.asnumpy()[:, 0], [1, 0, 1, 1])


# ------------------------------------------------------------------ Flatten

@pytest.mark.parametrize("start,end,shape", [(1, -1, (2, 12)), (0, -1, (24,)),
                                             (1, 1, (2, 3, 4)), (0, 1, (6, 4))])
def test_flatten(start, end, shape):
    x = _x(2, 3, 4)
    out = nn.Flatten(start, end)(Tensor(x)).asnumpy()
    assert out.shape == shape
    np.testing.assert_array_equal(out, x.reshape(shape))


def test_flatten_errors():
    with pytest.raises(ValueError, match="'start_dim' must be in range"):
        nn.Flatten(3)(Tensor(_x(2, 3)))
    with pytest.raises(TypeError, match="'start_dim' must be int"):
        nn.Flatten(1.0)


# ------------------------------------------------------------------ all layers

def test_layer_parameter_names_in_a_network():
    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.d = nn.Dense(3, 4, activation="relu")
            self.l = nn.LayerNorm((4,))
            self.dr = nn.Dropout(p=0.2)
            self.e = nn.Embedding(10, 4)
            self.s = nn.Softmax()
            self.g = nn.GELU()
            self.f = nn.Flatten()

    net = Net()
    # MindSpore 2.10 gives exactly these names and shapes.
    assert [(n, p.name, tuple(p.shape)) for n, p in net.parameters_and_names()] == [
        ("d.weight", "d.weight", (4, 3)), ("d.bias", "d.bias", (4,)),
        ("l.gamma", "l.gamma", (4,)), ("l.beta", "l.beta", (4,)),
        ("e.embedding_table", "e.embedding_table", (10, 4))]


# ------------------------------------------------------------------ GRAPH_MODE

def _graph_and_eager(net, *args):
    ms.set_context(mode=ms.GRAPH_MODE)
    graph = net(*args).asnumpy()
    ms.set_context(mode=ms.PYNATIVE_MODE)
    return graph, net(*args).asnumpy()


def test_layers_compile_and_agree_with_pynative(seeded):
    net = nn.SequentialCell([nn.Dense(4, 6, activation="relu"), nn.GELU(),
                             nn.GELU(approximate=False), nn.Dropout(p=0.5),
                             nn.Dense(6, 3), nn.Flatten(0)])
    graph, eager = _graph_and_eager(net, Tensor(_x(2, 5, 4)))
    assert graph.shape == (30,)
    np.testing.assert_allclose(graph, eager, rtol=1e-6, atol=1e-6)


def test_nn_op_layers_compile_and_agree_with_pynative(seeded):
    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.emb = nn.Embedding(10, 4)
            self.norm = nn.LayerNorm((4,))
            self.soft = nn.Softmax()

        def construct(self, ids):
            return self.soft(self.norm(self.emb(ids)))

    ids = Tensor(np.array([[1, 2, 3], [9, 0, 4]], np.int32))
    graph, eager = _graph_and_eager(Net(), ids)
    assert graph.shape == (2, 3, 4)
    np.testing.assert_allclose(graph, eager, rtol=1e-5, atol=1e-6)


def test_set_train_reaches_dropout_in_graph_mode():
    ms.set_context(mode=ms.GRAPH_MODE)
    d = nn.Dropout(p=0.5)
    x = Tensor(np.ones(200, np.float32))
    np.testing.assert_array_equal(d(x).asnumpy(), np.ones(200))
    d.set_train()
    assert (d(x).asnumpy() == 0).any()


def test_compiled_dropout_draws_a_fresh_mask_every_run():
    ms.set_context(mode=ms.GRAPH_MODE)
    ms.set_seed(7)
    d = nn.Dropout(p=0.5)
    d.set_train()
    x = Tensor(np.ones(200, np.float32))
    a, b = d(x).asnumpy(), d(x).asnumpy()
    assert not np.array_equal(a, b)
    ms.set_seed(7)  # the same stream as eager dropout: the same two masks again
    ms.set_context(mode=ms.PYNATIVE_MODE)
    np.testing.assert_array_equal(d(x).asnumpy(), a)
    np.testing.assert_array_equal(d(x).asnumpy(), b)


def test_transformer_defaults_and_input_checks():
    net = nn.Transformer(8, 2, 1, 1, 16)
    assert len(net.trainable_params()) == 34  # as MindSpore 2.10
    weight = net.decoder.layers[0].dense1.weight.asnumpy()  # Xavier-uniform: |w| <= sqrt(6/24)
    assert np.abs(weight).max() <= np.sqrt(6 / 24) and weight.std() > 0.2
    ones = lambda *s: ms.Tensor(np.ones(s, np.float32))  # noqa: E731
    with pytest.raises(ValueError, match="must be equal to `d_model`"):
        net(ones(3, 2, 6), ones(4, 2, 8))
    with pytest.raises(ValueError, match="batch size for 'src' and 'tgt' must be equal"):
        net(ones(3, 2, 8), ones(4, 3, 8))


def test_transformer_custom_encoder_and_decoder_are_used():
    enc = nn.TransformerEncoder(nn.TransformerEncoderLayer(8, 2, 16, dropout=0.0), 1)
    dec = nn.TransformerDecoder(nn.TransformerDecoderLayer(8, 2, 16, dropout=0.0), 1)
    net = nn.Transformer(8, 2, dim_feedforward=16, dropout=0.0, custom_encoder=enc,
                         custom_decoder=dec)
    assert net.encoder is enc and net.decoder is dec
    src = ms.Tensor(np.random.default_rng(0).standard_normal((3, 2, 8)).astype(np.float32))
    tgt = ms.Tensor(np.random.default_rng(1).standard_normal((4, 2, 8)).astype(np.float32))
    np.testing.assert_allclose(net(src, tgt).asnumpy(), dec(tgt, enc(src)).asnumpy(),
                               rtol=1e-6)
