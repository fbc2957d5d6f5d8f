"""Softmax, LogSoftmax, LayerNorm, OneHot and Dropout against NumPy references, and their
errors. LayerNorm and OneHot values were also compared with MindSpore 2.10 by hand."""
import numpy as np
import pytest

import graphkiln as ms
from graphkiln import Tensor, ops
from graphkiln.ir.primitive import REGISTRY

pytestmark = pytest.mark.filterwarnings("error")

RNG = np.random.default_rng(3)


def arr(*shape, dtype=np.float32):
    return RNG.uniform(-3, 3, shape).astype(dtype)


def check(out, ref, rtol=1e-5, atol=1e-6):
    ref = np.asarray(ref)
    assert isinstance(out, Tensor)
    assert out.dtype is ms.dtype.from_numpy(ref.dtype), (out.dtype, ref.dtype)
    assert out.shape == ref.shape
    np.testing.assert_allclose(out.asnumpy().astype(np.float64), ref.astype(np.float64),
                               rtol=rtol, atol=atol)


def np_softmax(x, axis):
    w = x.astype(np.float64)
    e = np.exp(w - w.max(axis=axis, keepdims=True))
    return (e / e.sum(axis=axis, keepdims=True)).astype(x.dtype)


# ------------------------------------------------------------------ softmax

@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64])
def test_softmax(dtype):
    x = arr(2, 3, 4, dtype=dtype)
    tol = 2e-3 if dtype == np.float16 else 1e-5
    check(ops.softmax(Tensor(x)), np_softmax(x, -1), rtol=tol, atol=tol)
    check(ops.softmax(Tensor(x), 0), np_softmax(x, 0), rtol=tol, atol=tol)
    check(ops.Softmax()(Tensor(x)), np_softmax(x, -1), rtol=tol, atol=tol)
    check(ops.Softmax(1)(Tensor(x)), np_softmax(x, 1), rtol=tol, atol=tol)
    check(ops.Softmax((0, 2))(Tensor(x)), np_softmax(x, (0, 2)), rtol=tol, atol=tol)


def test_softmax_is_stable_and_dtype_argument():
    x = np.array([[1000.0, 1000.0], [-1e4, 0.0]], np.float32)
    check(ops.softmax(Tensor(x)), np.array([[0.5, 0.5], [0.0, 1.0]], np.float32))
    y = arr(2, 3)
    check(ops.softmax(Tensor(y), dtype=ms.float64), np_softmax(y.astype(np.float64), -1))


def test_log_softmax():
    x = arr(2, 3, 4)
    w = x.astype(np.float64)
    for axis in (-1, 0, 1):
        ref = w - w.max(axis, keepdims=True)
        ref = (ref - np.log(np.exp(ref).sum(axis, keepdims=True))).astype(np.float32)
        check(ops.log_softmax(Tensor(x), axis), ref)
        check(ops.LogSoftmax(axis)(Tensor(x)), ref)
    big = np.array([[1000.0, 0.0]], np.float32)
    check(ops.log_softmax(Tensor(big)), np.array([[0.0, -1000.0]], np.float32))


def test_softmax_errors():
    x = Tensor(arr(2, 3))
    with pytest.raises(ValueError, match=r"For 'Softmax'.*\[-2, 2\).*2"):
        ops.softmax(x, 2)
    with pytest.raises(TypeError, match=r"For 'Softmax'.*Int32"):
        ops.Softmax()(Tensor(arr(2, 3, dtype=np.int32)))
    with pytest.raises(ValueError, match=r"For 'LogSoftmax'.*\[-2, 2\).*3"):
        ops.LogSoftmax(3)(x)
    with pytest.raises(TypeError, match=r"For 'LogSoftmax'.*Int32"):
        ops.log_softmax(Tensor(arr(2, 3, dtype=np.int32)))


# ------------------------------------------------------------------ layer norm

def np_layer_norm(x, gamma, beta, bna, eps):
    w = x.astype(np.float64)
    axes = tuple(range(bna % x.ndim, x.ndim))
    mean = w.mean(axes, keepdims=True)
    var = ((w - mean) ** 2).mean(axes, keepdims=True)
    y = (w - mean) / np.sqrt(var + eps) * gamma + beta
    return y.astype(x.dtype), mean.astype(np.float32), var.astype(np.float32)


@pytest.mark.parametrize("bna,bpa", [(1, 1), (-1, -1), (2, 1), (1, 2), (0, 0)])
def test_layer_norm(bna, bpa):
    x = arr(2, 3, 4)
    gamma, beta = arr(*x.shape[bpa % 3:]), arr(*x.shape[bpa % 3:])
    y, mean, var = ops.LayerNorm(bna, bpa, 1e-5)(Tensor(x), Tensor(gamma), Tensor(beta))
    ry, rm, rv = np_layer_norm(x, gamma, beta, bna, 1e-5)
    check(y, ry)
    check(mean, rm)
    check(var, rv)
    stat = x.shape[:bna % 3] + (1,) * (3 - bna % 3)
    assert mean.shape == stat and var.shape == stat


def test_layer_norm_dtypes_and_functional():
    x = arr(2, 3, dtype=np.float16)
    g, b = Tensor(np.ones(3, np.float16)), Tensor(np.zeros(3, np.float16))
    y, mean, var = ops.LayerNorm()(Tensor(x), g, b)
    assert (y.dtype, mean.dtype, var.dtype) == (ms.float16, ms.float32, ms.float32)
    x = arr(2, 3, 4)
    ry, _, _ = np_layer_norm(x, 1.0, 0.0, 1, 1e-5)
    check(ops.layer_norm(Tensor(x), (3, 4)), ry)
    w, bias = arr(4), arr(4)
    ry, _, _ = np_layer_norm(x, w, bias, -1, 1e-3)
    check(ops.layer_norm(Tensor(x), (4,), Tensor(w), Tensor(bias), 1e-3), ry)


def test_layer_norm_errors():
    x = Tensor(arr(2, 3))
    ones3, zeros4 = Tensor(np.ones(3, np.float32)), Tensor(np.zeros(4, np.float32))
    with pytest.raises(ValueError, match=r"For 'LayerNorm'.*\[2, 3\].*\[3\].*\[4\]"):
        ops.LayerNorm()(x, ones3, zeros4)
    with pytest.raises(RuntimeError, match=r"For 'LayerNorm'.*begin_norm_axis.*3"):
        ops.LayerNorm(3)(x, ones3, ones3)
    with pytest.raises(TypeError, match=r"For 'LayerNorm'.*Int32"):
        ops.LayerNorm()(Tensor(arr(2, 3, dtype=np.int32)), ones3, ones3)
    with pytest.raises(ValueError, match=r"For 'layer_norm'.*\[5\].*\[2, 3\]"):
        ops.layer_norm(x, (5,))


# ------------------------------------------------------------------ one hot

def np_one_hot(idx, depth, on, off, axis):
    eye = (idx[..., None] == np.arange(depth))
    out = np.where(eye, on, off)
    return np.moveaxis(out, -1, axis if axis >= 0 else out.ndim - 1)


@pytest.mark.parametrize("axis", [-1, 0, 1, 2])
def test_one_hot(axis):
    idx = np.array([[0, 2, 5], [1, -1, 3]], np.int32)  # 5, -1 and 3 are out of range: all off
    on, off = Tensor(np.float32(2.0)), Tensor(np.float32(-1.0))
    ref = np_one_hot(idx, 3, np.float32(2.0), np.float32(-1.0), axis)
    check(ops.one_hot(Tensor(idx), 3, on, off, axis), ref)
    check(ops.OneHot(axis)(Tensor(idx), 3, on, off), ref)


def test_one_hot_python_values():
    idx = Tensor(np.array([0, 2, 1], np.int64))
    check(ops.one_hot(idx, 3), np.eye(3, dtype=np.int64)[[0, 2, 1]])
    check(ops.one_hot(idx, 3, 1.0, 0.0), np.eye(3, dtype=np.float32)[[0, 2, 1]])
    check(ops.one_hot(idx, 3, Tensor(np.float16(5)), 0),
          (5 * np.eye(3, dtype=np.float16))[[0, 2, 1]])


@pytest.mark.parametrize("mode", [ms.PYNATIVE_MODE, ms.GRAPH_MODE])
@pytest.mark.parametrize("depth", [Tensor(3, ms.int32), Tensor(np.array([3], np.int64))])
def test_one_hot_depth_tensor(mode, depth):
    """A one-element int Tensor depth (MindSpore 2.10: shape (4, 3) for either); in a graph
    its value, so the output's size, is known only when the graph runs."""
    idx = Tensor(np.array([0, 1, 2, 5], np.int32))
    on, off = Tensor(np.float32(1.0)), Tensor(np.float32(0.0))
    ms.set_context(mode=mode)
    try:
        out = ms.jit(lambda i, d: ops.OneHot()(i, d, on, off))(idx, depth) \
            if mode == ms.GRAPH_MODE else ops.OneHot()(idx, depth, on, off)
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)
    check(out, np_one_hot(idx.asnumpy(), 3, np.float32(1.0), np.float32(0.0), -1))
    with pytest.raises(TypeError, match=r"For 'OneHot'.*depth"):
        ops.OneHot()(idx, Tensor(3.0, ms.float32), on, off)
    with pytest.raises(ValueError, match=r"For 'OneHot'.*depth.*-1"):
        ops.OneHot()(idx, Tensor(-1, ms.int32), on, off)


def test_one_hot_errors():
    idx = Tensor(np.array([0, 2, 1], np.int32))
    on, off = Tensor(1.0), Tensor(0.0)
    with pytest.raises(TypeError, match=r"For 'OneHot'.*Int32, Int64.*Float32"):
        ops.one_hot(Tensor(arr(3)), 3, on, off)
    with pytest.raises(ValueError, match=r"For 'OneHot'.*depth.*-1"):
        ops.one_hot(idx, -1, on, off)
    with pytest.raises(ValueError, match=r"For 'OneHot'.*\[-1, 1\].*2"):
        ops.OneHot(2)(idx, 3, on, off)
    with pytest.raises(TypeError, match=r"For 'OneHot'.*Float32.*Int32"):
        ops.OneHot()(idx, 3, on, Tensor(0, ms.int32))


# ------------------------------------------------------------------ dropout

def test_dropout_values_and_determinism():
    x = arr(50, 40) + 4.0  # no zeros, so the mask is visible in the output
    ms.set_seed(3)
    out1 = ops.dropout(Tensor(x), p=0.3, seed=11).asnumpy()
    out2 = ops.dropout(Tensor(x), p=0.3, seed=11).asnumpy()
    assert (out1 != out2).any()  # the op seed's counter advances, as MindSpore's
    kept = out1 != 0
    assert 0.6 < kept.mean() < 0.8
    np.testing.assert_allclose(out1[kept], x[kept] / np.float32(0.7), rtol=1e-6)
    ms.set_seed(3)  # restarts the counters
    np.testing.assert_array_equal(ops.dropout(Tensor(x), p=0.3, seed=11).asnumpy(), out1)


def test_dropout_primitive_returns_output_and_mask():
    x = arr(4, 5, dtype=np.float16) + 4
    out, mask = ops.Dropout(0.8, 1, 2)(Tensor(x))
    assert out.dtype is ms.float16 and mask.dtype is ms.float16
    m = mask.asnumpy()
    assert set(np.unique(m)) <= {0.0, 1.0}
    np.testing.assert_allclose(out.asnumpy(), (x * m * np.float16(1 / 0.8)), rtol=1e-3)
    out2, mask2 = ops.Dropout(0.8, 1, 2)(Tensor(x))  # a new primitive starts its stream
    np.testing.assert_array_equal(mask2.asnumpy(), m)
    _, mask_all = ops.Dropout(1.0)(Tensor(x))
    assert (mask_all.asnumpy() == 1).all()


def test_dropout_kernel_is_a_pure_function_of_its_seed():
    kernel = REGISTRY["Dropout"].kernel
    x = np.ones((8, 8), np.float32)
    a = kernel(x, 5, keep_prob=0.5)
    b = kernel(x, np.array(5, np.int64), keep_prob=0.5)
    np.testing.assert_array_equal(a[1], b[1])


def test_dropout_eager_equals_compiled():
    x = Tensor(arr(6, 7) + 4)

    def f(x):
        return ops.dropout(x, 0.5, seed=7), ops.dropout(x, 0.5)

    ms.set_seed(2)
    eager = f(x)
    ms.set_seed(2)
    g = ms.jit(f)
    compiled = g(x)
    for e, c in zip(eager, compiled):
        np.testing.assert_array_equal(e.asnumpy(), c.asnumpy())
    # each run of the compiled graph draws each node's next mask
    again = g(x)
    assert all((a.asnumpy() != c.asnumpy()).any() for a, c in zip(again, compiled))


def test_dropout_seed_stream_is_reproducible():
    x = Tensor(arr(10, 10) + 4)
    ms.set_seed(5)
    a = ops.dropout(x).asnumpy()
    b = ops.dropout(x).asnumpy()
    ms.set_seed(5)
    np.testing.assert_array_equal(ops.dropout(x).asnumpy(), a)
    np.testing.assert_array_equal(ops.dropout(x).asnumpy(), b)
    assert (a != b).any()


def test_dropout_identity_cases():
    x = Tensor(arr(3, 3))
    assert ops.dropout(x, 0.5, training=False) is x
    np.testing.assert_array_equal(ops.dropout(x, p=0.0).asnumpy(), x.asnumpy())


def test_dropout_errors():
    x = Tensor(arr(2, 3))
    with pytest.raises(RuntimeError, match=r"For 'dropout'.*\[0.0, 1.0\).*1.5"):
        ops.dropout(x, 1.5)
    with pytest.raises(RuntimeError, match=r"For 'dropout'.*1.0"):
        ops.dropout(x, p=1.0)
    with pytest.raises(RuntimeError, match=r"For 'Dropout'.*keep_prob.*1.5"):
        ops.Dropout(1.5)(x)
    with pytest.raises(RuntimeError, match=r"For 'Dropout'.*keep_prob.*0"):
        ops.Dropout(0.0)(x)
    with pytest.raises(TypeError, match=r"For 'Dropout'.*Int32"):
        ops.Dropout()(Tensor(arr(2, 3, dtype=np.int32)))
    with pytest.raises(TypeError, match=r"For 'dropout', the 'seed' must be int, but got "
                                         r"'Tensor'"):
        ops.dropout(x, 0.5, seed=Tensor(arr(2)))
    with pytest.raises(ValueError, match=r"For 'dropout', the 'seed' must be int and must >= "
                                         r"0, but got '-2'"):
        ops.dropout(x, 0.5, seed=-2)


def _max_pool_grad_reference(x, dout, k, s):
    """Each window's ``dout`` added at its first maximum (np.argmax: the first NaN if any)."""
    dx = np.zeros_like(x)
    for n, c, i, j in np.ndindex(*dout.shape):
        win = x[n, c, i * s:i * s + k, j * s:j * s + k]
        a, b = np.unravel_index(np.argmax(win), win.shape)
        dx[n, c, i * s + a, j * s + b] += dout[n, c, i, j]
    return dx


@pytest.mark.parametrize("k,s", [(2, 2), (3, 1), (3, 2)])
def test_max_pool_and_grad_with_ties_and_nan(k, s):
    r = np.random.default_rng(k * 10 + s)
    x = r.integers(-1, 2, (2, 3, 7, 7)).astype(np.float32)  # many ties
    x[0, 1, 2, 3] = x[1, 0, 4, 4] = x[1, 0, 4, 5] = np.nan
    y = REGISTRY["MaxPool"].kernel(x, kernel_size=k, strides=s)
    win = np.lib.stride_tricks.sliding_window_view(x, (k, k), (2, 3))[:, :, ::s, ::s]
    np.testing.assert_array_equal(y, win.max(axis=(-2, -1)))
    dout = r.standard_normal(y.shape).astype(np.float32)
    dx = REGISTRY["MaxPoolGrad"].kernel(x, y, dout, kernel_size=k, strides=s)
    np.testing.assert_allclose(dx, _max_pool_grad_reference(x, dout, k, s), rtol=1e-6)


def test_conv_of_a_non_tensor_names_it_as_mindspore_does():
    """MindSpore 2.10 (GRAPH_MODE, nn.Conv2d given an int): "The primitive[Conv2D]'s input
    arguments[w, x] must be all tensor and those type must be same. But got input
    argument[x]:Int64"."""
    ms.set_context(mode=ms.GRAPH_MODE)

    class Net(ms.nn.Cell):
        def __init__(self):
            super().__init__()
            self.conv = ms.nn.Conv2d(3, 4, 1)

        def construct(self, x):
            return self.conv(1)

    with pytest.raises(TypeError, match=r"The primitive\[Conv2D\]'s input arguments\[w, x\] "
                                        r"must be all tensor.*argument\[x\]"):
        Net()(Tensor(np.ones((1, 3, 2, 2), np.float32)))
    ms.set_context(mode=ms.PYNATIVE_MODE)
