"""Fixes from the ``tests/st/ops`` every-15th-from-the-9th slice beyond the recorded family
(fixtures/api_ops_s15o9.json, collected by test_api_families.py): ``RGBToHSV`` on float16
(MindSpore 2.10's float16 kernel gives inf/NaN saturations: checked against the float32
result) and with dimensions known only at run time, ``AddV2`` in a GRAPH_MODE cell, and the
``Minimum``/``Maximum`` gradients at NaN under ``@jit``."""
import numpy as np
import pytest

import graphkiln as ms
from graphkiln import Tensor, nn, ops
from graphkiln.ops.operations.image_ops import RGBToHSV
from graphkiln.ops.operations.math_ops import AddV2

_RGB = np.array([[0.25, 0.5, 0.5], [1, 0, 0], [0.9, 0.1, 0.5], [0.1, 0.9, 0.3], [0.3, 0.1, 0.9],
                 [0.5, 0.25, 0.0], [2, 1, 0.5], [0.2, 0.2, 0.2]], np.float32)


def _numpy_hsv(rgb: np.ndarray) -> np.ndarray:
    """colorsys's formula, one pixel at a time (hue in [0, 1))."""
    import colorsys
    flat = [colorsys.rgb_to_hsv(*px) for px in rgb.reshape(-1, 3).astype(np.float64)]
    return np.array(flat).reshape(rgb.shape)


def test_rgb_to_hsv_matches_colorsys():
    got = RGBToHSV()(Tensor(_RGB)).asnumpy()
    np.testing.assert_allclose(got, _numpy_hsv(_RGB), rtol=1e-6, atol=1e-7)


def test_rgb_to_hsv_float16_is_the_float32_result_rounded():
    half = _RGB.astype(np.float16)
    got = RGBToHSV()(Tensor(half))
    assert got.dtype == ms.float16
    want = RGBToHSV()(Tensor(half.astype(np.float32))).asnumpy().astype(np.float16)
    np.testing.assert_array_equal(got.asnumpy(), want)
    assert np.isfinite(got.asnumpy()).all()


class _HsvNet(nn.Cell):
    def __init__(self):
        super().__init__()
        self.op = RGBToHSV()

    def construct(self, images):
        return self.op(images)


@pytest.mark.parametrize("mode", [ms.GRAPH_MODE, ms.PYNATIVE_MODE])
def test_rgb_to_hsv_dynamic_shape(mode):
    ms.set_context(mode=mode)
    try:
        net = _HsvNet()
        net.set_inputs(Tensor(shape=[None, None, None, 3], dtype=ms.float32))
        images = _RGB.reshape(2, 2, 2, 3)
        out = net(Tensor(images)).asnumpy()
        np.testing.assert_allclose(out, _numpy_hsv(images), rtol=1e-6, atol=1e-7)
        with pytest.raises(ValueError, match="set_inputs|last dimension"):
            net(Tensor(np.ones((1, 1, 1, 4), np.float32)))
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)


class _AddV2Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.add = AddV2()

    def construct(self, x, y):
        return self.add(x, y)


def test_add_v2_graph_refuses_broadcasting():
    ms.set_context(mode=ms.GRAPH_MODE)
    try:
        net = _AddV2Net()
        x = np.arange(6, dtype=np.float32).reshape(2, 3)
        np.testing.assert_array_equal(net(Tensor(x), Tensor(x)).asnumpy(), 2 * x)
        with pytest.raises(ValueError, match="must be equal to"):
            net(Tensor(x), Tensor(x[0]))
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)


@pytest.mark.parametrize("name", ["minimum", "maximum"])
def test_extremum_gradient_at_nan_under_jit(name):
    """Under @jit as in PyNative: both inputs take the whole cotangent at a NaN."""
    grad = ms.jit(ops.GradOperation(get_all=True, sens_param=True)(getattr(ops, name)))
    x = Tensor(np.array([1.0, np.nan, 3.0], np.float32))
    y = Tensor(np.array([np.nan, 2.0, 3.0], np.float32))
    dx, dy = grad(x, y, Tensor(np.array([2.0, 4.0, 6.0], np.float32)))
    np.testing.assert_array_equal(dx.asnumpy(), [2.0, 4.0, 3.0])
    np.testing.assert_array_equal(dy.asnumpy(), [2.0, 4.0, 3.0])


def _numpy_count(batch, values, weights, size):
    """{(batch, value): summed weight} and the dense shape's last dimension."""
    out: dict = {}
    for b, v, w in zip(batch, values, weights):
        if v < size:
            out[(int(b), int(v))] = out.get((int(b), int(v)), 0) + w
    return out


@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.int64])
def test_sparse_count_sparse_output_against_numpy(dtype):
    """float64 weights too (MindSpore 2.10's kernel miscounts them); a 3-D sparse tensor
    counts per first index."""
    from graphkiln.ops.operations.sparse_ops import SparseCountSparseOutput
    rng = np.random.default_rng(3)
    indices = np.stack([rng.integers(0, 4, 30), rng.integers(0, 5, 30), rng.integers(0, 2, 30)],
                       1).astype(np.int64)
    values = rng.integers(0, 7, 30).astype(np.int64)
    weights = rng.uniform(0.5, 2.0, 30).round(1).astype(dtype)
    out_idx, out_val, shape = SparseCountSparseOutput(maxlength=6)(
        Tensor(indices), Tensor(values), Tensor(np.array([4, 5, 2], np.int64)), Tensor(weights))
    want = _numpy_count(indices[:, 0], values, weights, 6)
    keys = sorted(want)
    np.testing.assert_array_equal(out_idx.asnumpy(), np.array(keys))
    np.testing.assert_allclose(out_val.asnumpy(), [want[k] for k in keys], rtol=1e-6)
    assert out_val.asnumpy().dtype == dtype
    np.testing.assert_array_equal(shape.asnumpy(), [4, 6])
