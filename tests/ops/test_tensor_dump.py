"""``ops.TensorDump`` / ``ops.tensordump``: files named as MindSpore 2.10 CPU names them in
PyNative (recorded by hand from its run of the same network: ``add_float32_0.npy``,
``div_float32_1.npy``, ``sub/mul_float32_2.npy``, ``int_int32_3.npy``, then 4-7 for the
second call); MindSpore's CPU refuses them in graphs, graphkiln runs them there the same
way."""
import os

import numpy as np
import pytest

import graphkiln as ms
from graphkiln import Tensor, nn, ops
from graphkiln.ops.defs import side_effects

X = np.array([[1, 2, 3, 4], [5, 6, 7, 8]], np.float32)


class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.dump = ops.TensorDump()

    def construct(self, x):
        x = x + 1.
        self.dump("add", x)
        x = x / 2.
        self.dump("div", x)
        ops.tensordump("sub/mul", x * 5)
        self.dump("int", (x * 5).astype(ms.int32))
        return x


@pytest.fixture(params=[ms.PYNATIVE_MODE, ms.GRAPH_MODE])
def in_tmp(request, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(side_effects, "_DUMP_IDS", __import__("itertools").count())
    ms.set_context(mode=request.param)
    yield tmp_path
    ms.set_context(mode=ms.PYNATIVE_MODE)


def test_files_names_and_values(in_tmp):
    net = Net()
    net(Tensor(X))
    out = net(Tensor(X))
    np.testing.assert_array_equal(out.asnumpy(), (X + 1) / 2)
    assert sorted(f for f in os.listdir(in_tmp) if f.endswith(".npy")) == [
        "add_float32_0.npy", "add_float32_4.npy", "div_float32_1.npy", "div_float32_5.npy",
        "int_int32_3.npy", "int_int32_7.npy"]
    assert sorted(os.listdir(in_tmp / "sub")) == ["mul_float32_2.npy", "mul_float32_6.npy"]
    np.testing.assert_array_equal(np.load(in_tmp / "add_float32_4.npy"), X + 1)
    np.testing.assert_array_equal(np.load(in_tmp / "sub" / "mul_float32_2.npy"),
                                  (X + 1) / 2 * 5)
    assert np.load(in_tmp / "int_int32_3.npy").dtype == np.int32


def test_gradients_flow_around_a_dump(in_tmp):
    def f(x):
        ops.tensordump("g", x * 2)
        return (x * 3).sum()
    np.testing.assert_array_equal(ms.grad(f)(Tensor(X)).asnumpy(), np.full_like(X, 3))
    np.testing.assert_array_equal(np.load(in_tmp / "g_float32_0.npy"), X * 2)


def test_bfloat16_is_saved_as_float32_under_its_name(in_tmp):
    ops.tensordump("bf", Tensor(X, ms.bfloat16))
    a = np.load(in_tmp / "bf_bfloat16_0.npy")
    assert a.dtype == np.float32
    np.testing.assert_array_equal(a, X)


def test_direct_calls_return_none_as_mindspore(in_tmp):
    assert ops.TensorDump()("direct", Tensor(X)) is None
    assert ops.Print()("") is None
    np.testing.assert_array_equal(np.load(in_tmp / "direct_float32_0.npy"), X)


def test_mindspores_errors():
    with pytest.raises(ValueError, match=r"should be one of \['in', 'out'\], but got: all"):
        ops.TensorDump("all")
    with pytest.raises(TypeError, match="the type of 'file' should be 'str'"):
        ops.TensorDump()(1, Tensor(X))
    with pytest.raises(TypeError, match="the type of 'input_x' should be 'Tensor'"):
        ops.TensorDump()("c", 3)
