"""``ops.ResizeNearestNeighborV2`` against MindSpore 2.10 CPU (fixtures/resize_nearest_v2.json,
by fixtures/record_resize_nearest_v2.py): outputs, gradients (also by the backward primitive
``ResizeNearestNeighborV2Grad``), the same in a graph and with the image's shape unknown
until the graph runs; bad input raises MindSpore's error types (seen on MindSpore 2.10)."""
import json
import os
import sys

import numpy as np
import pytest

import graphkiln as ms
from graphkiln import Tensor, nn, ops

FIXTURES = os.path.join(os.path.dirname(__file__), "fixtures")
sys.path.insert(0, FIXTURES)
from resize_nearest_v2_cases import CASES, cotangent, image  # noqa: E402

with open(os.path.join(FIXTURES, "resize_nearest_v2.json")) as f:
    RECORDED = json.load(f)


def _op(name):
    corners, centers = CASES[name][:2]
    return ops.ResizeNearestNeighborV2(corners, centers), CASES[name][4]


@pytest.mark.parametrize("name", sorted(CASES))
def test_matches_mindspore(name):
    op, size = _op(name)
    out = op(Tensor(image(name)), size)
    assert str(out.dtype) == RECORDED[name]["dtype"]
    np.testing.assert_array_equal(out.asnumpy(), RECORDED[name]["out"])


@pytest.mark.parametrize("name", sorted(n for n in CASES if CASES[n][3] == "float32"))
def test_gradient_matches_mindspore(name):
    op, size = _op(name)
    grad = ops.grad(lambda x, d: (op(x, size) * d).sum())
    got = grad(Tensor(image(name)), Tensor(cotangent(name)))
    np.testing.assert_array_equal(got.asnumpy(), RECORDED[name]["grad"])


@pytest.mark.parametrize("name", sorted(n for n in CASES if CASES[n][3] == "float32"))
@pytest.mark.parametrize("dynamic", [False, True])
def test_grad_primitive_matches_mindspore(name, dynamic):
    """``ResizeNearestNeighborV2Grad(cotangent, image size)`` gives MindSpore's gradient,
    eagerly, and in a graph with the cotangent's shape unknown until it runs."""
    corners, centers = CASES[name][:2]
    op = ops.auto_generate.ResizeNearestNeighborV2Grad(corners, centers)
    size = tuple(CASES[name][2][2:])
    if not dynamic:
        got = op(Tensor(cotangent(name)), size)
    else:
        ms.set_context(mode=ms.GRAPH_MODE)
        try:
            net = _Call(op, size)
            net.set_inputs(Tensor(shape=[None] * 4, dtype=ms.float32))
            got = net(Tensor(cotangent(name)))
        finally:
            ms.set_context(mode=ms.PYNATIVE_MODE)
    np.testing.assert_array_equal(got.asnumpy(), RECORDED[name]["grad"])


class _Call(nn.Cell):
    def __init__(self, op, size):
        super().__init__()
        self.op, self.size = op, size

    def construct(self, x):
        return self.op(x, self.size)


class _Resize(nn.Cell):
    def __init__(self, name):
        super().__init__()
        self.op, self.size = _op(name)

    def construct(self, x):
        return self.op(x, self.size)


@pytest.mark.parametrize("name", sorted(CASES))
@pytest.mark.parametrize("dynamic", [False, True])
def test_graph_matches_mindspore(name, dynamic):
    ms.set_context(mode=ms.GRAPH_MODE)
    try:
        net = _Resize(name)
        if dynamic:  # the sizes read as the graph runs
            net.set_inputs(Tensor(shape=[None] * 4, dtype=getattr(ms, CASES[name][3])))
        out = net(Tensor(image(name)))
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)
    np.testing.assert_array_equal(out.asnumpy(), RECORDED[name]["out"])


def test_size_may_be_an_int_tensor():
    op, _ = _op("centers_down")
    out = op(Tensor(image("centers_down")), Tensor(np.array([2, 3], np.int32)))
    np.testing.assert_array_equal(out.asnumpy(), RECORDED["centers_down"]["out"])


def test_errors_as_mindspore():
    x = Tensor(image("down"))
    with pytest.raises(ValueError, match="align_corners is true"):
        ops.ResizeNearestNeighborV2(True, True)
    with pytest.raises(ValueError, match="rank must be equal to 4"):
        ops.ResizeNearestNeighborV2()(Tensor(np.ones((2, 3, 4), np.float32)), (3, 3))
    with pytest.raises(ValueError, match="number of size must be equal to 2"):
        ops.ResizeNearestNeighborV2()(x, (1, 1, 1))
    with pytest.raises(ValueError, match="greater than 0"):
        ops.ResizeNearestNeighborV2()(x, (0, 2))
    with pytest.raises(TypeError, match="can not be converted to tuple of int"):
        ops.ResizeNearestNeighborV2()(x, Tensor(np.array([2.0, 2.0], np.float32)))
    with pytest.raises(TypeError, match="Int32"):
        ops.ResizeNearestNeighborV2()(Tensor(np.ones((1, 1, 2, 2), np.int32)), (3, 3))
