"""Extra tests for the tests/st/ops slice s15o13: ``MaxPoolWithArgmax`` with channels
known only when the graph runs (the recorded cases are in fixtures/api_ops_s15o13*)."""
import numpy as np
import pytest

import graphkiln as ms
from graphkiln import Tensor, nn
from graphkiln.ops import operations as P


class _Pool(nn.Cell):
    def __init__(self):
        super().__init__()
        self.pool = P.MaxPoolWithArgmax(kernel_size=2, strides=1, pad_mode="valid")

    def construct(self, x):
        return self.pool(x)


def test_max_pool_with_argmax_dynamic_channels_match_static():
    x = Tensor(np.random.default_rng(0).standard_normal((2, 3, 3, 3)).astype(np.float32))
    mode = ms.get_context("mode")
    ms.set_context(mode=ms.GRAPH_MODE)
    try:
        static = _Pool()(x)
        net = _Pool()
        net.set_inputs(Tensor(shape=[2, None, 3, 3], dtype=ms.float32))
        dynamic = net(x)
    finally:
        ms.set_context(mode=mode)
    for got, want in zip(dynamic, static):
        np.testing.assert_array_equal(got.asnumpy(), want.asnumpy())
    # argmax counts flat positions within each example: channel c starts at c * 9
    assert dynamic[1].asnumpy()[:, 2].min() >= 18


def test_max_pool_with_argmax_dynamic_height_is_refused():
    mode = ms.get_context("mode")
    ms.set_context(mode=ms.GRAPH_MODE)
    try:
        net = _Pool()
        net.set_inputs(Tensor(shape=[1, 1, None, 3], dtype=ms.float32))
        with pytest.raises(ValueError, match="height and width"):
            net(Tensor(np.ones((1, 1, 3, 3), np.float32)))
    finally:
        ms.set_context(mode=mode)
