"""The convolution and pooling kernels' workspaces (``ops/workspace.py``) and ``out=``: a
returned array is never a workspace nor changed by a later call, shapes and paddings that
alternate keep their own buffers, two threads never share one, ``out=`` gives the same bits,
and MaxPoolGrad's tiled route gives ``np.where``'s bits."""
import threading

import numpy as np
import pytest

import graphkiln as ms
from graphkiln.ops import conv_gemm, workspace
from graphkiln.ops.defs.conv import (
    ConvGeometry,
    conv_filter_grad,
    conv_forward,
    conv_input_grad,
)
from graphkiln.ops.primitive import REGISTRY

# name: (x shape, weight shape, pad_mode, pad, stride); two shapes share a padded size
CONVS = {
    "grid_pad1": ((2, 3, 6, 6), (4, 3, 3, 3), "pad", 1, 1),
    "grid_pad_asym": ((2, 3, 6, 6), (4, 3, 3, 3), "pad", (2, 0, 0, 2), 1),
    "valid": ((3, 2, 9, 7), (5, 2, 5, 5), "valid", 0, 1),
    "strided_pad": ((2, 3, 7, 7), (4, 3, 3, 3), "pad", 1, 2),
    "strided_pad_asym": ((2, 3, 7, 7), (4, 3, 3, 3), "pad", (2, 0, 0, 2), 2),
}
POOLS = {
    "tiled": ((2, 3, 8, 8), {"kernel_size": 2, "strides": 2}),
    "tiled_with_rest": ((2, 3, 7, 9), {"kernel_size": 2, "strides": 2}),
    "overlapping": ((2, 3, 7, 7), {"kernel_size": 3, "strides": 1}),
    "same_padding": ((2, 3, 7, 7), {"kernel_size": 3, "strides": 2, "pad_mode": "same"}),
}


def _conv(name):
    x_shape, w_shape, mode, pad, stride = CONVS[name]
    return x_shape, w_shape, ConvGeometry("Conv2D", 2, x_shape[2:], w_shape[2:], mode, pad,
                                          stride, 1, 1)


def _conv_inputs(name, seed):
    x_shape, w_shape, geo = _conv(name)
    r = np.random.default_rng(seed)
    dy_shape = (x_shape[0], w_shape[0]) + geo.out(x_shape[2:])
    return [r.standard_normal(s).astype(np.float32) for s in (x_shape, w_shape, dy_shape)]


def _conv_results(name, seed, outs=(None, None, None)):
    x_shape, w_shape, geo = _conv(name)
    x, w, dy = _conv_inputs(name, seed)
    return [conv_forward(x, w, geo, outs[0]), conv_input_grad(dy, w, x_shape, geo, outs[1]),
            conv_filter_grad(dy, x, w_shape, geo, outs[2])]


def _pool_inputs(name, seed):
    x_shape, attrs = POOLS[name]
    r = np.random.default_rng(seed)
    x = r.integers(-2, 3, x_shape).astype(np.float32)  # ties
    y = REGISTRY["MaxPool"].kernel(x, **attrs)
    return x, y, r.standard_normal(y.shape).astype(np.float32), attrs


def _pool_results(name, seed):
    x, y, dout, attrs = _pool_inputs(name, seed)
    k = {n: REGISTRY[n].kernel for n in ("MaxPool", "MaxPoolGrad", "AvgPool", "AvgPoolGrad")}
    return [k["MaxPool"](x, **attrs), k["MaxPoolGrad"](x, y, dout, **attrs),
            k["AvgPool"](x, **attrs), k["AvgPoolGrad"](x, y, dout, **attrs)]


def _all_results(seed):
    return [r for name in CONVS for r in _conv_results(name, seed)] + \
        [r for name in POOLS for r in _pool_results(name, seed)]


def _workspace_arrays():
    return list(workspace.WORKSPACE.buffers.values())


def test_returned_arrays_are_not_workspaces_and_keep_their_values():
    first = _all_results(seed=1)
    kept = [a.copy() for a in first]
    for a in first:
        assert not any(np.shares_memory(a, b) for b in _workspace_arrays())
    second = _all_results(seed=2)
    for a, b, k in zip(first, second, kept):
        np.testing.assert_array_equal(a, k)  # the next call wrote elsewhere
        assert not np.shares_memory(a, b)


def test_alternating_shapes_and_paddings_keep_their_own_buffers():
    """Two paddings of one padded size (their zero borders differ) and other shapes in
    between: each call's result is the one it gets in a fresh thread."""
    want = {}

    def fresh(name):
        want[name] = _conv_results(name, seed=3)
    for name in CONVS:
        t = threading.Thread(target=fresh, args=(name,))
        t.start()
        t.join()
    for name in list(CONVS) * 2 + list(reversed(CONVS)):
        for got, ref in zip(_conv_results(name, seed=3), want[name]):
            np.testing.assert_array_equal(got, ref)


def test_two_threads_never_share_a_workspace():
    want = _all_results(seed=4)
    start = threading.Barrier(2)
    errors, arrays = [], []

    def run():
        try:
            start.wait()
            for _ in range(5):
                for got, ref in zip(_all_results(seed=4), want):
                    np.testing.assert_array_equal(got, ref)
            arrays.append(workspace.workspace("probe", (8,), np.float32))
        except Exception as e:  # noqa: BLE001 (reported below)
            errors.append(e)
    threads = [threading.Thread(target=run) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors, errors
    assert arrays[0] is not arrays[1]


@pytest.mark.parametrize("name", sorted(CONVS))
def test_conv_kernels_write_into_out_with_the_same_bits(name):
    plain = _conv_results(name, seed=5)
    outs = [np.full_like(a, np.nan) for a in plain]
    got = _conv_results(name, seed=5, outs=outs)
    for g, o, p in zip(got, outs, plain):
        assert g is o
        np.testing.assert_array_equal(g, p)
    strided = [np.empty(a.shape[:-1] + (2 * a.shape[-1],), a.dtype)[..., ::2] for a in plain]
    for g, o, p in zip(_conv_results(name, seed=5, outs=strided), strided, plain):
        assert g is o  # an out= it cannot compute into still receives the result
        np.testing.assert_array_equal(g, p)


@pytest.mark.parametrize("name", sorted(POOLS))
def test_pool_kernels_write_into_out_with_the_same_bits(name):
    x, y, dout, attrs = _pool_inputs(name, seed=6)
    for op, args in (("MaxPool", (x,)), ("MaxPoolGrad", (x, y, dout)), ("AvgPool", (x,)),
                     ("AvgPoolGrad", (x, y, dout))):
        kernel = REGISTRY[op].kernel
        plain = kernel(*args, **attrs)
        out = np.full_like(plain, np.nan)
        assert kernel(*args, out=out, **attrs) is out
        np.testing.assert_array_equal(out.view(np.int32), plain.view(np.int32))


@pytest.mark.parametrize("dtype", [np.float32, np.float16, np.float64])
@pytest.mark.parametrize("name", ["tiled", "tiled_with_rest", "overlapping"])
def test_max_pool_grad_routes_the_bits_of_dout(name, dtype):
    """Each window's ``dout`` (inf, NaN and -0.0 included) is added at its first maximum
    (windows that tile the input: the bits of ``0 + dout`` there, +0.0 everywhere else)."""
    x_shape, attrs = POOLS[name]
    k, s = attrs["kernel_size"], attrs["strides"]
    r = np.random.default_rng(7)
    x = r.integers(-1, 2, x_shape).astype(dtype)
    x[0, 1, 2, 3] = np.nan
    y = REGISTRY["MaxPool"].kernel(x, **attrs)
    dout = r.standard_normal(y.shape).astype(dtype)
    dout.flat[:4] = [np.inf, -np.inf, np.nan, -0.0]
    want = np.zeros_like(x)
    for n, c, i, j in np.ndindex(*dout.shape):
        win = x[n, c, i * s:i * s + k, j * s:j * s + k]
        a, b = np.unravel_index(np.argmax(win), win.shape)  # the first NaN, else max
        want[n, c, i * s + a, j * s + b] += dout[n, c, i, j]
    got = REGISTRY["MaxPoolGrad"].kernel(x, y, dout, **attrs)
    bits = f"i{np.dtype(dtype).itemsize}"
    if s == k:
        np.testing.assert_array_equal(got.view(bits), want.view(bits))
    else:  # overlapping windows: the sums at an element may add in another order
        tol = 1e-2 if dtype == np.float16 else 1e-6
        np.testing.assert_allclose(got, want, rtol=tol, atol=tol)


def test_budget_drops_the_least_recently_used(monkeypatch):
    """Least recently used buffers go once the budget is reached; a buffer larger than the
    budget is handed out but not kept."""
    monkeypatch.setattr(workspace, "BUDGET_BYTES", 1 << 16)
    space = workspace.Workspace()
    kept = space.get("a", (4096,), np.float32)  # 16 KB
    assert space.get("a", (4096,), np.float32) is kept
    for i in range(8):
        space.get("b", (4096 + i,), np.float32)
    assert space.nbytes <= 1 << 16 and ("a", (4096,), np.dtype(np.float32)) not in \
        space.buffers
    big = space.get("c", (1 << 15,), np.float32)
    assert big.shape == (1 << 15,) and not big.any() and space.nbytes <= 1 << 16
    assert (space.get("d", (3,), np.float32, fill=-np.inf) == -np.inf).all()


class _ConvPool(ms.nn.Cell):
    def __init__(self):
        super().__init__()
        self.conv = ms.nn.Conv2d(2, 4, 3, pad_mode="pad", padding=1)
        self.pool = ms.nn.MaxPool2d(kernel_size=2, stride=2)
        self.relu = ms.nn.ReLU()

    def construct(self, x):
        return self.pool(self.relu(self.conv(x)))


def _compiled_grad():
    net = _ConvPool()
    grad = ms.grad(lambda x: (net(x) * net(x)).sum(), grad_position=0)
    return ms.jit(lambda x: (net(x), grad(x)))


def test_a_compiled_step_returns_arrays_the_next_call_leaves_alone():
    """The plan's buffers (out= of the conv and pool kernels) are reused across calls; what
    a call returned must not change."""
    step = _compiled_grad()
    r = np.random.default_rng(8)
    xs = [ms.Tensor(r.standard_normal((2, 2, 8, 8)).astype(np.float32)) for _ in range(3)]
    first = [t.asnumpy().copy() for t in step(xs[0])]
    held = step(xs[0])
    step(xs[1])
    step(xs[2])
    for t, want in zip(held, first):
        np.testing.assert_array_equal(t.asnumpy(), want)


def test_a_compiled_step_in_two_threads_gives_each_its_own_result():
    step = _compiled_grad()
    r = np.random.default_rng(9)
    xs = [ms.Tensor(r.standard_normal((2, 2, 8, 8)).astype(np.float32)) for _ in range(2)]
    want = [[t.asnumpy().copy() for t in step(x)] for x in xs]
    start = threading.Barrier(2)
    errors = []

    def run(i):
        try:
            start.wait()
            for _ in range(20):
                for t, w in zip(step(xs[i]), want[i]):
                    np.testing.assert_array_equal(t.asnumpy(), w)
        except Exception as e:  # noqa: BLE001 (reported below)
            errors.append(e)
    threads = [threading.Thread(target=run, args=(i,)) for i in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors, errors


def _in_fresh_thread(fn, *args):
    """``fn(*args)`` run in a new thread (its own, empty workspace)."""
    result = []
    t = threading.Thread(target=lambda: result.append(fn(*args)))
    t.start()
    t.join()
    return result[0]


def test_the_filter_gradient_reuses_the_forward_columns_only_for_the_same_bits(monkeypatch):
    """After a forward, the filter gradient of the same images skips its im2col copy;
    images changed in place, or other images of the same shape, are copied afresh (checked
    on the padded grid, where the columns are built)."""
    builds = []
    taps = conv_gemm._taps
    monkeypatch.setattr(conv_gemm, "_taps", lambda *a, **k: builds.append(1) or taps(*a, **k))
    x_shape, w_shape, geo = _conv("grid_pad1")
    assert geo.flat_grid(x_shape[2:]) is not None
    x, w, dy = _conv_inputs("grid_pad1", seed=10)
    other = x + 1

    def changed_in_place(images):
        images[1, 0, 3, 2] += 1.0
        return images
    for name, images_for_grad, copies in (("same", lambda a: a, 0),
                                          ("changed in place", changed_in_place, 1),
                                          ("other images", lambda a: other, 1)):
        images = x.copy()
        conv_forward(images, w, geo)
        images = images_for_grad(images)
        builds.clear()
        got = conv_filter_grad(dy, images, w_shape, geo)
        assert len(builds) == copies, name
        want = _in_fresh_thread(conv_filter_grad, dy, images, w_shape, geo)
        np.testing.assert_array_equal(got, want)
