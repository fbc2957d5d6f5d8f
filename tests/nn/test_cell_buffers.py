"""Cell buffers: untrained tensor state registered by ``register_buffer`` or a ``_Buffer``
attribute, read by ``construct`` in both modes and listed like parameters."""
import numpy as np
import pytest

import graphkiln as ms
from graphkiln import Tensor, nn
from graphkiln.common.parameter import _Buffer


class Scaled(nn.Cell):
    def __init__(self):
        super().__init__()
        self.offset = _Buffer(Tensor(np.array([1.0, 2.0], np.float32)))
        self.register_buffer("scale", Tensor(np.array([3.0, 4.0], np.float32)))
        self.w = ms.Parameter(Tensor(np.array([0.5, 0.5], np.float32)))

    def construct(self, x):
        return (x + self.offset) * self.scale + self.w


class Outer(nn.Cell):
    def __init__(self):
        super().__init__()
        self.inner = Scaled()
        self.register_buffer("bias", Tensor(np.array([10.0, 20.0], np.float32)))

    def construct(self, x):
        return self.inner(x) - self.bias


@pytest.mark.parametrize("mode", [ms.GRAPH_MODE, ms.PYNATIVE_MODE])
def test_buffers_are_read_by_construct(mode):
    ms.set_context(mode=mode)
    x = np.array([1.0, -1.0], np.float32)
    out = Outer()(Tensor(x)).asnumpy()
    np.testing.assert_allclose(out, (x + [1, 2]) * [3, 4] + 0.5 - [10, 20])


def test_named_buffers_list_own_then_sub_cells():
    net = Outer()
    names = [n for n, _ in net.named_buffers()]
    assert names == ["bias", "inner.offset", "inner.scale"]
    assert len(list(net.buffers())) == 3
    assert len(list(net.buffers(recurse=False))) == 1
    np.testing.assert_array_equal(net.get_buffer("inner.scale").asnumpy(), [3.0, 4.0])
    assert [n for n, _ in net.parameters_and_names()] == ["inner.w"]


def test_buffer_reassigned_and_deleted():
    net = Scaled()
    net.scale = Tensor(np.array([1.0, 1.0], np.float32))
    np.testing.assert_array_equal(net.get_buffer("scale").asnumpy(), [1.0, 1.0])
    del net.scale
    assert [n for n, _ in net.named_buffers()] == ["offset"]


def test_bad_buffer_names_and_lookups():
    net = Scaled()
    with pytest.raises(TypeError, match="buffer name should be a string"):
        net.register_buffer(2, Tensor(np.ones(2)))
    with pytest.raises(KeyError, match='contain "."'):
        net.register_buffer("a.b", Tensor(np.ones(2)))
    with pytest.raises(KeyError, match="already exists"):
        net.register_buffer("w", Tensor(np.ones(2)))
    with pytest.raises(TypeError, match="should be a Tensor"):
        net.register_buffer("c", [1, 2])
    with pytest.raises(AttributeError, match="has no attribute"):
        net.get_buffer("missing")
