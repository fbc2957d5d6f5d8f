"""nn.ClipByNorm against NumPy, Cell.init_parameters_data, MindSpore's module paths
(nn.layer, nn.loss.loss). Pad is checked against MindSpore in test_vs_mindspore.py."""
import numpy as np
import pytest

import graphkiln as ms
from graphkiln import Tensor, nn


def test_clip_by_norm_matches_numpy():
    x = np.arange(6, dtype=np.float32).reshape(2, 3)
    got = nn.ClipByNorm()(ms.Tensor(x), ms.Tensor(np.array([3.0], np.float32))).asnumpy()
    np.testing.assert_allclose(got, x * 3.0 / np.linalg.norm(x), rtol=1e-6)
    rows = nn.ClipByNorm(axis=1)(ms.Tensor(x), ms.Tensor(np.array(4.0, np.float32))).asnumpy()
    norms = np.linalg.norm(x, axis=1, keepdims=True)
    np.testing.assert_allclose(rows, x * 4.0 / np.maximum(norms, 4.0), rtol=1e-6)


def test_init_parameters_data_maps_each_parameter_to_itself():
    net = nn.Dense(2, 2)
    data = net.init_parameters_data()
    assert list(data) == list(net.get_parameters()) and all(k is v for k, v in data.items())


def test_mindspore_module_paths():
    from graphkiln.nn.layer import CellList, Conv2d
    from graphkiln.nn.loss.loss import LossBase
    assert CellList is nn.CellList and Conv2d is nn.Conv2d and LossBase is nn.LossBase


@pytest.mark.parametrize("mode", [ms.PYNATIVE_MODE, ms.GRAPH_MODE])
def test_upsample_nearest_repeats_and_bilinear_is_interpolate(mode):
    ms.set_context(mode=mode)
    x = np.arange(2 * 3 * 4, dtype=np.float32).reshape(1, 2, 3, 4)
    out = nn.Upsample(size=(6, 8))(Tensor(x)).asnumpy()
    np.testing.assert_array_equal(out, x.repeat(2, axis=2).repeat(2, axis=3))
    up = nn.Upsample(size=(5, 7), mode="bilinear", align_corners=True)(Tensor(x)).asnumpy()
    want = ms.ops.interpolate(Tensor(x), (5, 7), None, "bilinear", True).asnumpy()
    np.testing.assert_allclose(up, want)
    np.testing.assert_allclose(up[..., 0, :][..., [0, -1]], x[..., 0, :][..., [0, -1]])
