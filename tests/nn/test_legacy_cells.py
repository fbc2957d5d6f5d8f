"""MindSpore's older convenience cells (OneHot, MatMul, Conv2dBnAct, DenseBnAct), Cell.phase /
set_comm_fusion, the Parameter description, and MindSpore's module paths for layer families."""
import importlib

import numpy as np
import pytest

import graphkiln as ms
from graphkiln import nn, ops


@pytest.fixture(params=[ms.GRAPH_MODE, ms.PYNATIVE_MODE], ids=["graph", "pynative"])
def mode(request):
    ms.set_context(mode=request.param)
    yield request.param
    ms.set_context(mode=ms.GRAPH_MODE)


def test_one_hot_axis_values_dtype(mode):
    idx = np.array([[0, 2], [1, -1]], np.int32)
    out = nn.OneHot(axis=0, depth=3, on_value=5.0, off_value=-1.0)(ms.Tensor(idx))
    want = np.where(np.arange(3)[:, None, None] == idx[None], 5.0, -1.0)
    np.testing.assert_array_equal(out.asnumpy(), want)
    assert nn.OneHot(depth=3, dtype=ms.float16)(ms.Tensor(idx)).dtype == ms.float16


def test_matmul_transposes_and_broadcasts(mode):
    rng = np.random.default_rng(1)
    a, b = rng.standard_normal((2, 4, 3)), rng.standard_normal((5, 4))
    out = nn.MatMul(transpose_x1=True, transpose_x2=True)(ms.Tensor(a, ms.float32),
                                                          ms.Tensor(b, ms.float32))
    np.testing.assert_allclose(out.asnumpy(), np.swapaxes(a, -1, -2) @ b.T, rtol=1e-5)
    with pytest.raises(TypeError, match="transpose_x1"):
        nn.MatMul(transpose_x1=1)


def test_conv2d_bn_act_is_conv_then_bn_then_act(mode):
    ms.set_seed(3)
    net = nn.Conv2dBnAct(3, 4, 3, has_bn=True, activation="relu")
    assert [p.name for p in net.get_parameters()] == [
        "conv.weight", "batchnorm.moving_mean", "batchnorm.moving_variance",
        "batchnorm.gamma", "batchnorm.beta"]
    x = ms.Tensor(np.random.default_rng(2).standard_normal((2, 3, 5, 5)), ms.float32)
    net.set_train(False)
    want = ops.relu(net.batchnorm(net.conv(x)))
    np.testing.assert_allclose(net(x).asnumpy(), want.asnumpy(), rtol=1e-6)
    leaky = nn.DenseBnAct(3, 2, activation="leakyrelu", alpha=0.5)
    assert isinstance(leaky.activation, nn.LeakyReLU)
    with pytest.raises(TypeError, match="activation"):
        nn.Conv2dBnAct(3, 4, 3, activation=1)
    with pytest.raises(TypeError, match="has_bn"):
        nn.DenseBnAct(3, 4, has_bn=1)


def test_dense_bn_act_trains_like_its_parts():
    ms.set_seed(4)
    net = nn.DenseBnAct(3, 2, has_bn=True, activation="tanh")
    x = ms.Tensor(np.random.default_rng(5).standard_normal((6, 3)), ms.float32)
    net.set_train(True)
    out = net(x).asnumpy()
    h = net.dense(x).asnumpy()
    norm = (h - h.mean(0)) / np.sqrt(h.var(0) + 1e-5)
    np.testing.assert_allclose(out, np.tanh(norm), rtol=1e-4, atol=1e-5)


def test_parameter_description_matches_mindspore():
    p = ms.Parameter(ms.Tensor(np.ones((2, 3), np.float32)), name="w")
    text = "Parameter (name=w, shape=(2, 3), dtype=Float32, requires_grad=True)"
    assert repr(p) == str(p) == f"{p}" == text
    assert str(ms.Parameter(ms.Tensor(2.0), name="s")).startswith("Parameter (name=s, shape=(),")


def test_phase_and_comm_fusion():
    net = nn.Dense(2, 2)
    assert net.phase == "train"
    assert net.set_comm_fusion(3) is net
    assert [p.comm_fusion for p in net.get_parameters()] == [3, 3]
    with pytest.raises(ValueError, match=">= 0"):
        net.set_comm_fusion(-1)
    with pytest.raises(TypeError, match="must be int"):
        net.set_comm_fusion(1.5)


@pytest.mark.parametrize("path,name", [("graphkiln.nn.layer.activation", "get_activation"),
                                       ("graphkiln.nn.layer.combined", "Conv2dBnAct"),
                                       ("graphkiln.nn.layer.basic", "Dense"),
                                       ("graphkiln.train.callback._callback", "Callback"),
                                       ("graphkiln.train.callback._checkpoint", "ModelCheckpoint")])
def test_mindspore_module_paths_are_the_same_classes(path, name):
    public = {"Callback": ms.train.callback.Callback, "Dense": nn.Dense,
              "Conv2dBnAct": nn.Conv2dBnAct, "get_activation": nn.get_activation,
              "ModelCheckpoint": ms.ModelCheckpoint}[name]
    assert getattr(importlib.import_module(path), name) is public
