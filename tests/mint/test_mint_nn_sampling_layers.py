"""``mint.nn`` Embedding, Fold, Unfold, MaxUnpool2d, Upsample*, SyncBatchNorm and the
stateful parts of ``mint.nn.functional`` (batch_norm's running statistics, embedding's
``padding_idx`` and ``max_norm``, the in-place functions), against NumPy with PyTorch's
definitions and against the functional calls tests/mint/test_mint_nn_functional.py checks
on MindSpore."""
import numpy as np
import pytest

import graphkiln as ms
from graphkiln import Parameter, Tensor, mint
from graphkiln.mint.nn import functional as F

R = np.random.default_rng(11)
X = R.standard_normal((2, 3, 4, 6)).astype(np.float32)


@pytest.fixture(params=[ms.PYNATIVE_MODE, ms.GRAPH_MODE])
def mode(request):
    ms.set_context(mode=request.param)
    return request.param


def test_embedding_layer_padding_row_and_gradient(mode):
    ms.set_seed(3)
    emb = mint.nn.Embedding(6, 4, padding_idx=2)
    table = emb.weight.asnumpy()
    assert table.shape == (6, 4) and not table[2].any() and table.std() > 0.5
    ids = Tensor(np.array([[2, 0, 5], [2, 2, 1]], np.int64))
    np.testing.assert_array_equal(emb(ids).asnumpy(), table[ids.asnumpy()])
    ms.set_context(mode=ms.PYNATIVE_MODE)
    g = ms.grad(lambda w: F.embedding(ids, w, padding_idx=2).sum())(Tensor(table))
    want = np.zeros_like(table)
    np.add.at(want, np.array([0, 5, 1]), 1.0)
    np.testing.assert_array_equal(g.asnumpy(), want)


def test_embedding_max_norm_renormalizes_the_used_rows(mode):
    table = np.array([[3.0, 4.0], [0.3, 0.4], [6.0, 8.0]], np.float32)
    ids = Tensor(np.array([0, 1, 0], np.int64))
    got = F.embedding(ids, Tensor(table), max_norm=1.0)
    np.testing.assert_allclose(got.asnumpy(), [[0.6, 0.8], [0.3, 0.4], [0.6, 0.8]],
                               rtol=1e-5)
    emb = mint.nn.Embedding(3, 2, max_norm=1.0, _weight=Tensor(table))
    np.testing.assert_allclose(emb(ids).asnumpy(), got.asnumpy(), rtol=1e-6)
    # the looked-up rows of the table are renormalized in place; row 2 was not used
    np.testing.assert_allclose(emb.weight.asnumpy(), [[0.6, 0.8], [0.3, 0.4], [6.0, 8.0]],
                               rtol=1e-5)


def test_embedding_max_norm_gradient_is_the_lookup():
    ms.set_context(mode=ms.PYNATIVE_MODE)
    table = np.array([[3.0, 4.0], [0.3, 0.4]], np.float32)
    ids = Tensor(np.array([0, 0, 1], np.int64))
    g = ms.grad(lambda w: F.embedding(ids, w, max_norm=1.0).sum())(Tensor(table))
    np.testing.assert_array_equal(g.asnumpy(), [[2.0, 2.0], [1.0, 1.0]])


def test_fold_is_the_adjoint_of_unfold(mode):
    unfold = mint.nn.Unfold((2, 3), 1, 1, (2, 1))
    fold = mint.nn.Fold((4, 6), (2, 3), 1, 1, (2, 1))
    cols = unfold(Tensor(X))
    other = R.standard_normal(cols.shape).astype(np.float32)
    back = fold(Tensor(other)).asnumpy()
    # <unfold(x), c> == <x, fold(c)>
    np.testing.assert_allclose((cols.asnumpy() * other).sum(), (X * back).sum(), rtol=1e-4)
    ones = fold(unfold(Tensor(np.ones_like(X)))).asnumpy()
    # each pixel counted once per block holding it: rows (stride 2) in one block each,
    # columns (width 3, stride 1, padding 1) in 2 blocks at the edges and 3 inside
    np.testing.assert_array_equal(ones, np.broadcast_to([2, 3, 3, 3, 3, 2], X.shape))


def test_max_unpool2d_inverts_max_pool2d(mode):
    out, index = F.max_pool2d(Tensor(X), 2, 2, return_indices=True)
    assert index.dtype == ms.int64
    back = mint.nn.MaxUnpool2d(2)(out, index).asnumpy()
    flat = back.reshape(2, 3, -1)
    np.testing.assert_array_equal(
        np.take_along_axis(flat, index.asnumpy().reshape(2, 3, -1), 2),
        out.asnumpy().reshape(2, 3, -1))
    assert np.count_nonzero(back) == out.size


def test_upsampling_layers(mode):
    x = Tensor(X)
    nearest = mint.nn.UpsamplingNearest2d(scale_factor=2.0)(x).asnumpy()
    np.testing.assert_array_equal(nearest, X.repeat(2, 2).repeat(2, 3))
    with pytest.raises(TypeError):  # an int scale factor, as MindSpore 2.10 refuses it
        mint.nn.UpsamplingNearest2d(scale_factor=2)(x)
    bilinear = mint.nn.UpsamplingBilinear2d((7, 11))(x).asnumpy()
    np.testing.assert_allclose(bilinear, F.interpolate(x, (7, 11), None, "bilinear",
                                                       True).asnumpy())
    np.testing.assert_array_equal(bilinear[..., ::2, ::2], X)  # corners aligned
    up = mint.nn.Upsample(size=(5, 9), mode="bicubic", align_corners=False)(x)
    assert up.shape == (2, 3, 5, 9)


def test_functional_batch_norm_updates_running_statistics(mode):
    mean = Parameter(Tensor(np.zeros(3, np.float32)), name="mean")
    var = Parameter(Tensor(np.ones(3, np.float32)), name="var")
    y = F.batch_norm(Tensor(X), mean, var, training=True, momentum=0.3).asnumpy()
    x = X.astype(np.float64)
    m, v = x.mean(axis=(0, 2, 3)), x.var(axis=(0, 2, 3))
    want = (x - m.reshape(1, 3, 1, 1)) / np.sqrt(v.reshape(1, 3, 1, 1) + 1e-5)
    np.testing.assert_allclose(y, want, rtol=1e-4, atol=1e-5)
    np.testing.assert_allclose(mean.asnumpy(), 0.3 * m, rtol=1e-5, atol=1e-7)
    unbiased = x.var(axis=(0, 2, 3), ddof=1)
    np.testing.assert_allclose(var.asnumpy(), 0.7 + 0.3 * unbiased, rtol=1e-5)


def test_sync_batch_norm_is_batch_norm_on_one_device(mode):
    sync, plain = mint.nn.SyncBatchNorm(3), mint.nn.BatchNorm2d(3)
    sync.set_train()
    plain.set_train()
    np.testing.assert_allclose(sync(Tensor(X)).asnumpy(), plain(Tensor(X)).asnumpy())
    np.testing.assert_allclose(sync.running_var.asnumpy(), plain.running_var.asnumpy())
    assert sync(Tensor(X[:, :, 0])).shape == (2, 3, 6)  # any rank from 2 to 5


def test_in_place_functions():
    ms.set_context(mode=ms.PYNATIVE_MODE)
    for fn, want in ((F.relu_, np.maximum(X, 0)), (F.sigmoid_, 1 / (1 + np.exp(-X))),
                     (F.elu_, np.where(X > 0, X, np.expm1(X))),
                     (lambda t: F.threshold_(t, 0.1, 2.0), np.where(X > 0.1, X, 2.0))):
        t = Tensor(X.copy())
        out = fn(t)
        np.testing.assert_allclose(t.asnumpy(), want, rtol=1e-6)
        assert out is t


def test_bad_arguments():
    with pytest.raises(ValueError, match="padding"):
        F.conv2d(Tensor(X), Tensor(np.ones((2, 3, 3, 3), np.float32)), padding="full")
    with pytest.raises(ValueError, match="strided"):
        F.conv2d(Tensor(X), Tensor(np.ones((2, 3, 3, 3), np.float32)), stride=2,
                 padding="same")
    with pytest.raises(RuntimeError, match="fold"):
        F.fold(Tensor(np.ones((1, 12, 5), np.float32)), (4, 4), 2)
    with pytest.raises(ValueError, match="reduction"):
        F.kl_div(Tensor(X), Tensor(X), "average")
    with pytest.raises(ValueError, match="clamp"):
        F.clamp(Tensor(X))
    with pytest.raises(ValueError, match="grid_sample"):
        F.grid_sample(Tensor(X), Tensor(np.zeros((2, 3, 3, 2), np.float32)), "bicubic")
    with pytest.raises(ValueError, match="glu"):
        F.glu(Tensor(X), 1)


def test_adaptive_max_pool_layers_return_indices(mode):
    values, index = mint.nn.AdaptiveMaxPool2d((2, 3), return_indices=True)(Tensor(X))
    want, want_index = F.adaptive_max_pool2d(Tensor(X), (2, 3), True)
    np.testing.assert_array_equal(values.asnumpy(), want.asnumpy())
    np.testing.assert_array_equal(index.asnumpy(), want_index.asnumpy())
    flat = X.reshape(2, 3, -1)
    np.testing.assert_array_equal(
        np.take_along_axis(flat, index.asnumpy().reshape(2, 3, -1), 2),
        values.asnumpy().reshape(2, 3, -1))
    one = mint.nn.AdaptiveMaxPool1d(4)(Tensor(X[:, :, 0]))
    np.testing.assert_array_equal(one.asnumpy(), F.adaptive_max_pool1d(
        Tensor(X[:, :, 0]), 4).asnumpy())


def test_embedding_scale_grad_by_freq(mode):
    table = R.standard_normal((5, 2)).astype(np.float32)
    ids = Tensor(np.array([[1, 3, 1], [1, 0, 3]], np.int64))
    s = Tensor(R.standard_normal((2, 3, 2)).astype(np.float32))
    g = ms.grad(lambda w: (F.embedding(ids, w, scale_grad_by_freq=True) * s).sum())(
        Tensor(table)).asnumpy()
    want = np.zeros_like(table)
    np.add.at(want, ids.asnumpy().ravel(), s.asnumpy().reshape(-1, 2))
    want /= np.maximum(np.bincount(ids.asnumpy().ravel(), minlength=5), 1)[:, None]
    np.testing.assert_allclose(g, want, rtol=1e-6)
    same = F.embedding(ids, Tensor(table), scale_grad_by_freq=True).asnumpy()
    np.testing.assert_array_equal(same, table[ids.asnumpy()])


def test_unbatched_inputs_match_the_batch_of_one(mode):
    x2, x3 = X[0, :, 0], X[0]
    weight = Tensor(R.standard_normal((2, 3, 3)).astype(np.float32))
    for fn, x in ((lambda t: F.conv1d(t, weight, None, 1, 1), x2),
                  (lambda t: F.avg_pool1d(t, 3, 2), x2),
                  (lambda t: F.adaptive_avg_pool1d(t, 4), x2),
                  (lambda t: F.adaptive_max_pool1d(t, 4), x2),
                  (lambda t: F.max_pool2d(t, 2, return_indices=True)[1], x3),
                  (lambda t: F.adaptive_max_pool2d(t, (3, 4)), x3),
                  (lambda t: F.dropout2d(t, 0.5, False), x3)):
        one = fn(Tensor(x[None])).asnumpy()[0]
        np.testing.assert_array_equal(fn(Tensor(x)).asnumpy(), one)
