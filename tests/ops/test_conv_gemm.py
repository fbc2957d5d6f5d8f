"""The convolution kernels (``ops/defs/conv.py``: Winograd's F(4x4, 3x3) of
``ops/conv_winograd.py`` for large float32 3x3 layers, the padded-grid GEMMs of
``ops/conv_gemm.py`` for stride 1, im2col otherwise) against a float64 reference that sums one
kernel tap at a time: forward, input gradient and filter gradient, over padding, dilation,
groups, 1x1, 3-D and float16/float64, plus reuse of the scratch buffers and non-finite inputs."""
import itertools

import numpy as np
import pytest

from graphkiln.ops import conv_gemm, conv_winograd
from graphkiln.ops.defs.conv import ConvGeometry, conv_filter_grad, conv_forward, conv_input_grad

# name: (x shape, weight shape, kernel attrs)
CASES = {
    "3x3_pad1": ((2, 4, 6, 5), (6, 4, 3, 3), {"pad_mode": "pad", "pad": 1}),
    "asym_pad_dilation": ((2, 4, 7, 6), (4, 2, 3, 2),
                          {"pad_mode": "pad", "pad": (2, 0, 1, 3), "dilation": (2, 1),
                           "group": 2}),
    "same_even_kernel": ((1, 3, 5, 6), (2, 3, 2, 4), {"pad_mode": "same"}),
    "valid": ((2, 3, 8, 8), (5, 3, 3, 3), {}),
    "pointwise_groups": ((2, 6, 4, 5), (9, 2, 1, 1), {"group": 3}),
    "wide_pad_scatters": ((1, 2, 4, 4), (3, 2, 1, 1), {"pad_mode": "pad", "pad": 1}),
    "strided": ((2, 2, 7, 7), (3, 2, 3, 3), {"pad_mode": "pad", "pad": 1, "stride": 2}),
    "3d": ((1, 2, 4, 8, 8), (3, 2, 2, 3, 2), {"pad_mode": "pad", "pad": 1}),
    # large enough for Winograd in float32 (the other dtypes run them on the grid)
    "winograd_same": ((2, 48, 12, 12), (48, 48, 3, 3), {"pad_mode": "same"}),
    "winograd_cut_tiles": ((3, 64, 10, 9), (48, 64, 3, 3), {"pad_mode": "pad",
                                                            "pad": (0, 2, 2, 1)}),
    "winograd_valid": ((2, 48, 18, 18), (64, 48, 3, 3), {}),
}
WINOGRAD = [name for name in CASES if name.startswith("winograd")]


def _geometry(x_shape, w_shape, attrs) -> ConvGeometry:
    rank = len(x_shape) - 2
    return ConvGeometry(f"Conv{rank}D", rank, x_shape[2:], w_shape[2:],
                        attrs.get("pad_mode", "valid"), attrs.get("pad", 0),
                        attrs.get("stride", 1), attrs.get("dilation", 1),
                        attrs.get("group", 1))


def _tap_slices(geo, out):
    """Per kernel tap: the padded-input slices its outputs read."""
    for tap in itertools.product(*(range(k) for k in geo.kernel)):
        yield tap, tuple(slice(i * d, i * d + (o - 1) * s + 1, s)
                         for i, d, s, o in zip(tap, geo.dilation, geo.stride, out))


def _reference(x, w, dy, geo):
    """(y, dx, dw) in float64, one tap at a time, per group."""
    with np.errstate(invalid="ignore"):  # inf * 0 is NaN here too
        return _reference_sums(x, w, dy, geo)


def _reference_sums(x, w, dy, geo):
    x, w, dy = (a.astype(np.float64) for a in (x, w, dy))
    g, o, cg = geo.group, w.shape[0], w.shape[1]
    pad = [(0, 0), (0, 0)] + list(geo.pads)
    xp = np.pad(x, pad)
    out = dy.shape[2:]
    y = np.zeros(dy.shape)
    dxp = np.zeros(xp.shape)
    dw = np.zeros(w.shape)
    lead = (slice(None),)
    for k in range(g):
        oc, ic = slice(k * o // g, (k + 1) * o // g), slice(k * cg, (k + 1) * cg)
        for tap, win in _tap_slices(geo, out):
            wt = w[(oc, slice(None)) + tap]
            xs = xp[lead + (ic,) + win]
            y[:, oc] += np.einsum("oc,nc...->no...", wt, xs)
            dxp[lead + (ic,) + win] += np.einsum("oc,no...->nc...", wt, dy[:, oc])
            summed = [0] + list(range(2, dy.ndim))
            dw[(oc, slice(None)) + tap] = np.tensordot(dy[:, oc], xs, (summed, summed))
    inner = lead * 2 + tuple(slice(b, b + n) for (b, _), n in zip(geo.pads, x.shape[2:]))
    return y, dxp[inner], dw


def _run(x, w, dy, geo):
    return (conv_forward(x, w, geo), conv_input_grad(dy, w, x.shape, geo),
            conv_filter_grad(dy, x, w.shape, geo))


def _inputs(x_shape, w_shape, geo, dtype, seed=0):
    rng = np.random.default_rng(seed)
    x = rng.standard_normal(x_shape).astype(dtype)
    w = rng.standard_normal(w_shape).astype(dtype)
    dy = rng.standard_normal((x_shape[0], w_shape[0]) + geo.out(x_shape[2:])).astype(dtype)
    return x, w, dy


@pytest.mark.parametrize("dtype,rtol", [(np.float32, 2e-5), (np.float64, 1e-12),
                                        (np.float16, 2e-3)])
@pytest.mark.parametrize("name", CASES)
def test_conv_kernels_match_the_tap_by_tap_reference(name, dtype, rtol):
    x_shape, w_shape, attrs = CASES[name]
    geo = _geometry(x_shape, w_shape, attrs)
    x, w, dy = _inputs(x_shape, w_shape, geo, dtype)
    for got, want in zip(_run(x, w, dy, geo), _reference(x, w, dy, geo)):
        assert got.dtype == dtype and got.shape == want.shape and got.flags.c_contiguous
        scale = np.abs(want).max()
        np.testing.assert_allclose(got, want, rtol=0, atol=rtol * scale * 4)


def test_the_stride_one_cases_take_the_padded_grid():
    """The cases meant for the GEMM layout use it (else this file would test im2col twice)."""
    for name in ("3x3_pad1", "asym_pad_dilation", "same_even_kernel", "valid",
                 "pointwise_groups", "3d"):
        x_shape, w_shape, attrs = CASES[name]
        assert _geometry(x_shape, w_shape, attrs).flat_grid(x_shape[2:]) is not None, name
    x_shape, w_shape, attrs = CASES["strided"]
    assert _geometry(x_shape, w_shape, attrs).flat_grid(x_shape[2:]) is None


def test_only_the_large_float32_3x3_cases_take_winograd():
    for name, (x_shape, w_shape, attrs) in CASES.items():
        geo = _geometry(x_shape, w_shape, attrs)
        for dtype in (np.float32, np.float64, np.float16):
            want = name in WINOGRAD and dtype == np.float32
            assert geo.winograd(dtype, x_shape, w_shape) == want, (name, dtype)
    x_shape, w_shape, attrs = CASES["winograd_same"]
    for change in ({"stride": 2}, {"dilation": 2}, {"pad_mode": "pad", "pad": 3}):
        geo = _geometry(x_shape, w_shape, {**attrs, **change})
        assert not geo.winograd(np.float32, x_shape, w_shape), change
    grouped = _geometry(x_shape, (48, 24, 3, 3), {**attrs, "group": 2})
    assert not grouped.winograd(np.float32, x_shape, (48, 24, 3, 3))
    few_channels = (2, 16, 12, 12)
    assert not _geometry(few_channels, (16, 16, 3, 3), attrs).winograd(
        np.float32, few_channels, (16, 16, 3, 3))


def test_winograd_transforms_compute_the_correlation_exactly():
    """F(4, 3) in one dimension: ``A^T [(G g) * (B^T d)] == sum_j g_j d_{i+j}``."""
    bt, g, at = conv_winograd._toom_cook(conv_winograd.POINTS, 4, 3)
    rng = np.random.default_rng(0)
    for _ in range(5):
        d, k = rng.standard_normal(6), rng.standard_normal(3)
        want = np.array([k @ d[i:i + 3] for i in range(4)])
        np.testing.assert_allclose(at @ ((g @ k) * (bt @ d)), want, rtol=0, atol=1e-12)


def test_the_filter_gradient_reuses_the_forward_tiles_only_for_the_same_input():
    """The forward keeps its input's transformed tiles for the filter gradient; an input
    changed in place since (same address, other bits) is transformed again."""
    x_shape, w_shape, attrs = CASES["winograd_same"]
    geo = _geometry(x_shape, w_shape, attrs)
    x, w, dy = _inputs(x_shape, w_shape, geo, np.float32)
    grid = conv_winograd.tile_grid(x_shape[2:], geo.pads)
    chunk = min(x_shape[0], conv_winograd._chunk(48, grid))
    conv_forward(x, w, geo)
    assert conv_winograd.MEMO.find(x, grid, chunk) is not None
    x[1, 3, 5, 7] += 1.0
    assert conv_winograd.MEMO.find(x, grid, chunk) is None
    got = conv_filter_grad(dy, x, w.shape, geo)
    np.testing.assert_allclose(got, _reference(x, w, dy, geo)[2], rtol=0,
                               atol=1e-5 * np.abs(got).max())


def test_the_filter_gradient_reuses_every_chunk_of_the_forward_columns(monkeypatch):
    """A forward that keeps its columns keeps every chunk's: the filter gradient builds
    none of them again, and builds a chunk again when its images changed in place."""
    x_shape, w_shape, attrs = CASES["valid"]
    geo = _geometry(x_shape, w_shape, attrs)
    grid = geo.flat_grid(x_shape[2:])
    per_example = 3 * 9 * grid.length * 4
    monkeypatch.setattr(conv_gemm, "CACHE_BUDGET", per_example)  # one example per chunk
    x, w, dy = _inputs(x_shape, w_shape, geo, np.float32)
    built = []
    copy = conv_gemm._taps
    monkeypatch.setattr(conv_gemm, "_taps", lambda *a, **k: built.append(1) or copy(*a, **k))
    want = _reference(x, w, dy, geo)[2]
    conv_forward(x, w, geo, keep_tiles=True)
    assert len(built) == 2
    got = conv_filter_grad(dy, x, w.shape, geo)
    assert len(built) == 2
    np.testing.assert_allclose(got, want, rtol=0, atol=2e-5 * np.abs(want).max())
    conv_forward(x, w, geo, keep_tiles=True)
    x[1, 2, 3, 4] += 1.0
    got = conv_filter_grad(dy, x, w.shape, geo)
    assert len(built) == 5  # the changed second example only
    np.testing.assert_allclose(got, _reference(x, w, dy, geo)[2], rtol=0,
                               atol=2e-5 * np.abs(want).max())


def _input_grad_route(monkeypatch, x_shape, w_shape, attrs):
    """(which way the stride-1 input gradient went, its result, the reference)."""
    routes = []
    scatter = conv_gemm.scatter_input_grad
    monkeypatch.setattr(conv_gemm, "scatter_input_grad",
                        lambda *a, **k: routes.append("scatter") or scatter(*a, **k))
    geo = _geometry(x_shape, w_shape, attrs)
    x, w, dy = _inputs(x_shape, w_shape, geo, np.float32)
    got = conv_input_grad(dy, w, x.shape, geo)
    return (routes or ["transposed"])[0], got, _reference(x, w, dy, geo)[1]


ROUTES = {  # name: (x shape, weight shape, attrs, the way the input gradient goes)
    "3x3_pad1": (*CASES["3x3_pad1"], "transposed"),  # as many columns either way: one GEMM
    "valid": (*CASES["valid"], "scatter"),  # dy's columns cover twice the input's grid
    "wide_pad": (*CASES["wide_pad_scatters"], "scatter"),  # no transposed conv exists
    "lenet_first_layer": ((2, 1, 8, 8), (6, 1, 3, 3), {}, "scatter"),  # 6 channels over 1
    # a row of kernel taps at a time, in 3-D and with groups
    "3d_groups": ((2, 4, 5, 6, 5), (8, 2, 3, 2, 2), {"group": 2}, "scatter"),
    # the last axis's taps summed over a view shifted by the dilation before they are added
    "dilated_last_axis": ((3, 2, 7, 31), (16, 2, 2, 3), {"dilation": (1, 3)}, "scatter"),
}


@pytest.mark.parametrize("name", ROUTES)
def test_the_input_gradient_copies_the_fewer_columns(monkeypatch, name):
    x_shape, w_shape, attrs, route = ROUTES[name]
    got_route, got, want = _input_grad_route(monkeypatch, x_shape, w_shape, attrs)
    assert got_route == route
    np.testing.assert_allclose(got, want, rtol=0, atol=1e-5 * np.abs(want).max())


def test_reused_scratch_buffers_keep_their_padding_zero():
    """A second call of the same shape (its buffers reused) sees only its own input."""
    x_shape, w_shape, attrs = CASES["3x3_pad1"]
    geo = _geometry(x_shape, w_shape, attrs)
    first = _inputs(x_shape, w_shape, geo, np.float32, seed=1)
    _run(*first, geo)
    second = _inputs(x_shape, w_shape, geo, np.float32, seed=2)
    for got, want in zip(_run(*second, geo), _reference(*second, geo)):
        np.testing.assert_allclose(got, want, rtol=0, atol=1e-4 * np.abs(want).max())


@pytest.mark.parametrize("name", ["3x3_pad1", "winograd_same"])
def test_non_finite_inputs_reach_only_the_outputs_that_read_them(name):
    """The grid's extra columns read real pixels, and a Winograd tile mixes all its inputs
    into each output; an inf (an overflowed input or gradient, as loss scaling meets) must
    not turn into NaN where the true result is finite or inf. (A non-finite weight meets
    the zero padding in the input gradient, which the transposed convolution multiplies and
    a scatter would not: NaN at the border.)"""
    x_shape, w_shape, attrs = CASES[name]
    geo = _geometry(x_shape, w_shape, attrs)
    x, w, dy = _inputs(x_shape, w_shape, geo, np.float32)
    x[0, 1, 2, 0] = np.inf  # the first column: read by the previous row's extra columns
    dy[1, 2, 3, 4] = -np.inf
    with np.errstate(invalid="ignore"):  # the kernels' OpDefs run them quietly
        y, dx, dw = _run(x, w, dy, geo)
    want_y, want_dx, want_dw = _reference(x, w, dy, geo)
    for got, want in ((y, want_y), (dx, want_dx), (dw, want_dw)):
        np.testing.assert_array_equal(np.isnan(got), np.isnan(want))
        np.testing.assert_array_equal(np.isposinf(got), np.isposinf(want))
        finite = np.isfinite(want)
        np.testing.assert_allclose(got[finite], want[finite], rtol=0,
                                   atol=1e-4 * np.abs(want[finite]).max())



def test_a_non_finite_weight_reaches_only_the_input_gradient_it_touches():
    """The scattered route multiplies the grid's extra (zero) columns by the filter too:
    an inf weight must not turn them into NaN on real pixels."""
    x_shape, w_shape, attrs = CASES["valid"]
    geo = _geometry(x_shape, w_shape, attrs)
    x, w, dy = _inputs(x_shape, w_shape, geo, np.float32)
    w[1, 2, 0, 1] = np.inf
    with np.errstate(invalid="ignore"):
        got = conv_input_grad(dy, w, x.shape, geo)
    want = _reference(x, w, dy, geo)[1]
    np.testing.assert_array_equal(np.isnan(got), np.isnan(want))
    np.testing.assert_array_equal(np.isposinf(got), np.isposinf(want))
    finite = np.isfinite(want)
    np.testing.assert_allclose(got[finite], want[finite], rtol=0,
                               atol=1e-4 * np.abs(want[finite]).max())


def test_compiled_programs_keep_the_tiles_only_when_a_filter_gradient_reads_them():
    """Codegen passes ``keep_tiles`` from the whole program: an inference graph does not
    fill the memo, a training graph does (and its filter gradient finds the entry)."""
    import graphkiln as ms
    from graphkiln import nn, ops

    x_shape, w_shape, _ = CASES["winograd_same"]
    conv = nn.Conv2d(w_shape[1], w_shape[0], 3, pad_mode="same", has_bias=False)
    x = ms.Tensor(np.random.default_rng(0).standard_normal(x_shape).astype(np.float32))

    @ms.jit
    def infer(t):
        return conv(t)

    grad = ms.jit(ops.grad(lambda t: (conv(t) ** 2).sum() / 2, grad_position=None,
                           weights=conv.trainable_params()))
    conv_winograd.MEMO.entries.clear()
    infer(x)
    assert conv_winograd.MEMO.entries == []
    (dw,) = grad(x)
    entries = conv_winograd.MEMO.entries
    assert len(entries) == 1 and entries[0].address is not None
    geo = _geometry(x_shape, w_shape, {"pad_mode": "same"})
    out_shape = (x_shape[0], w_shape[0]) + x_shape[2:]
    dy = _reference(x.asnumpy(), conv.weight.asnumpy(), np.zeros(out_shape), geo)[0]  # y
    want = _reference(x.asnumpy(), conv.weight.asnumpy(), dy, geo)[2]
    np.testing.assert_allclose(dw.asnumpy(), want, rtol=0, atol=1e-5 * np.abs(want).max())


def test_eager_convolutions_keep_the_tiles_only_while_a_gradient_records():
    """PyNative: a forward outside any gradient leaves the memo empty; under ``grad`` the
    forward keeps its tiles and the filter gradient (still right) finds them."""
    import graphkiln as ms
    from graphkiln import nn, ops

    x_shape, w_shape, _ = CASES["winograd_same"]
    conv = nn.Conv2d(w_shape[1], w_shape[0], 3, pad_mode="same", has_bias=False)
    x = ms.Tensor(np.random.default_rng(1).standard_normal(x_shape).astype(np.float32))
    ms.set_context(mode=ms.PYNATIVE_MODE)  # the test's context is reset afterwards
    conv_winograd.MEMO.entries.clear()
    y = conv(x)
    assert conv_winograd.MEMO.entries == []
    (dw,) = ops.grad(lambda t: (conv(t) ** 2).sum() / 2, grad_position=None,
                     weights=conv.trainable_params())(x)
    assert len(conv_winograd.MEMO.entries) == 1
    geo = _geometry(x_shape, w_shape, {"pad_mode": "same"})
    want = _reference(x.asnumpy(), conv.weight.asnumpy(), y.asnumpy(), geo)[2]
    np.testing.assert_allclose(dw.asnumpy(), want, rtol=0, atol=1e-5 * np.abs(want).max())


def _winograd_case(rng):
    """Random sizes (tiles cut at the edges) and pads 0-2 per side, redrawn until the
    layer is one Winograd runs."""
    while True:
        n, c, o = int(rng.integers(3, 6)), int(rng.integers(48, 72)), int(rng.integers(48, 72))
        h, w = (int(v) for v in rng.integers(5, 15, 2))
        pad = tuple(int(v) for v in rng.integers(0, 3, 4))
        x_shape, w_shape = (n, c, h, w), (o, c, 3, 3)
        geo = _geometry(x_shape, w_shape, {"pad_mode": "pad", "pad": pad})
        if geo.winograd(np.float32, x_shape, w_shape):
            return x_shape, w_shape, geo


@pytest.mark.parametrize("seed", range(6))
def test_winograd_over_random_shapes_and_partial_chunks(seed, monkeypatch):
    """Batches cut into chunks of two with a smaller last one: forward (keeping its
    tiles), input and filter gradients against the tap-by-tap reference."""
    x_shape, w_shape, geo = _winograd_case(np.random.default_rng(seed))
    grid = conv_winograd.tile_grid(x_shape[2:], geo.pads)
    per_example = conv_winograd.TILE ** 2 * max(x_shape[1], w_shape[0]) * grid.count * 4
    monkeypatch.setattr(conv_winograd, "CACHE_BUDGET", 2 * per_example)
    x, wt, dy = _inputs(x_shape, w_shape, geo, np.float32, seed=seed)
    for got, want in zip(_run(x, wt, dy, geo), _reference(x, wt, dy, geo)):
        np.testing.assert_allclose(got, want, rtol=0, atol=2e-5 * np.abs(want).max())
