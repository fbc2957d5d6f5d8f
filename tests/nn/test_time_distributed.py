"""nn.TimeDistributed: each time step through the layer equals the layer on that step alone
(Dense, Conv2d, a primitive), in graph and pynative mode; MindSpore's error types."""
import numpy as np
import pytest

import graphkiln as ms
from graphkiln import Tensor, nn, ops

R = np.random.default_rng(0)


@pytest.mark.parametrize("mode", [ms.PYNATIVE_MODE, ms.GRAPH_MODE], ids=["pynative", "graph"])
@pytest.mark.parametrize("time_axis, reshape_with_axis", [(1, 0), (0, 1), (1, None), (-2, None)])
def test_each_step_goes_through_the_layer(mode, time_axis, reshape_with_axis):
    dense = nn.Dense(4, 3)
    x = R.standard_normal((5, 6, 4)).astype(np.float32)
    ms.set_context(mode=mode)
    try:
        got = nn.TimeDistributed(dense, time_axis, reshape_with_axis)(Tensor(x)).asnumpy()
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)
    axis = time_axis % 3
    for t in range(x.shape[axis]):
        step = np.take(x, t, axis=axis)
        np.testing.assert_allclose(np.take(got, t, axis=axis), dense(Tensor(step)).asnumpy(),
                                   rtol=1e-6)


def test_conv_and_a_primitive_layer():
    conv = nn.Conv2d(2, 3, 3, has_bias=True)
    x = R.standard_normal((4, 5, 2, 6, 6)).astype(np.float32)
    got = nn.TimeDistributed(conv, 1, 0)(Tensor(x)).asnumpy()
    assert got.shape == (4, 5, 3, 6, 6)
    np.testing.assert_allclose(got[:, 2], conv(Tensor(x[:, 2])).asnumpy(), rtol=1e-5)
    idx = nn.TimeDistributed(ops.Argmax(), 1)(Tensor(x[:, :, 0, 0])).asnumpy()
    np.testing.assert_array_equal(idx, np.argmax(x[:, :, 0, 0], axis=-1))


def test_errors():
    with pytest.raises(TypeError, match="nn.Cell or mindspore.ops.Primitive"):
        nn.TimeDistributed(lambda t: t, 1)
    with pytest.raises(ValueError, match="greater than or equal to 3"):
        nn.TimeDistributed(nn.Dense(2, 2), 1)(Tensor(np.ones((2, 2), np.float32)))
