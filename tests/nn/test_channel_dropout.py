"""Channel dropout (nn.Dropout1d/2d/3d, ops.dropout1d/2d/3d): whole channels zeroed, the
rest scaled by 1/(1-p), about p of them dropped, PYNATIVE and GRAPH; p=1 gives zeros and
evaluation mode the input, as in MindSpore 2.10; MindSpore's argument errors."""
import numpy as np
import pytest

import graphkiln as ms
from graphkiln import Tensor, nn, ops

MODES = {"pynative": ms.PYNATIVE_MODE, "graph": ms.GRAPH_MODE}


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("cell, shape", [(nn.Dropout1d, (16, 32, 5)), (nn.Dropout1d, (64, 5)),
                                         (nn.Dropout2d, (8, 32, 2, 3)),
                                         (nn.Dropout3d, (8, 32, 2, 2, 2))])
def test_channels_are_dropped_whole(cell, shape, mode):
    ms.set_context(mode=MODES[mode])
    ms.set_seed(0)  # the drop rate check below depends on the mask drawn
    x = np.random.default_rng(0).random(shape).astype(np.float32) + 1.0
    net = cell(0.25)
    net.set_train()
    out = net(Tensor(x)).asnumpy()
    lead = 1 if len(shape) == 2 else 2  # the (N, C) or (C,) axes
    ratio = (out / x).reshape(*shape[:lead], -1)
    np.testing.assert_allclose(ratio, ratio[..., :1].repeat(ratio.shape[-1], -1), rtol=1e-6)
    kept = ratio[..., 0]
    assert np.all(np.isclose(kept, 0.0) | np.isclose(kept, 1 / 0.75, rtol=1e-5))
    assert 0.1 < (kept == 0).mean() < 0.4
    net.set_train(False)
    np.testing.assert_array_equal(net(Tensor(x)).asnumpy(), x)


def test_p_one_zeroes_everything_and_p_zero_is_identity():
    x = Tensor(np.ones((2, 3, 4), np.float32))
    np.testing.assert_array_equal(ops.dropout1d(x, 1.0).asnumpy(), 0.0)
    np.testing.assert_array_equal(ops.dropout1d(x, 0.0).asnumpy(), 1.0)
    np.testing.assert_array_equal(ops.dropout1d(x, 0.5, training=False).asnumpy(), 1.0)


@pytest.mark.parametrize("make, error", [
    (lambda: nn.Dropout1d(1), TypeError),
    (lambda: nn.Dropout2d(1.5), ValueError),
    (lambda: nn.Dropout3d(-0.1), ValueError),
    (lambda: ops.dropout1d(Tensor(np.ones((2, 3), np.float32)), 1), TypeError),
    (lambda: ops.dropout1d(Tensor(np.ones((2, 3, 4, 5), np.float32)), 0.5), ValueError),
    (lambda: ops.dropout2d(Tensor(np.ones((2, 3, 4), np.float32)), 0.5), ValueError),
])
def test_argument_errors(make, error):
    ms.set_context(mode=ms.PYNATIVE_MODE)
    with pytest.raises(error):
        make()
