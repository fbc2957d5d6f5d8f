"""Transposed convolution layers beyond the recorded cases
(fixtures/api_conv_transpose_layers_cases.py): GRAPH == PYNATIVE for their output sizes and
``output_padding``, and the gradient through Conv2dTranspose's appended zeros."""
import numpy as np
import pytest

import graphkiln as ms
from graphkiln import nn

_R = np.random.default_rng(5)
X2 = ms.Tensor(_R.standard_normal((1, 2, 3, 3)).astype(np.float32))
X3 = ms.Tensor(_R.standard_normal((1, 1, 2, 3, 2)).astype(np.float32))
LAYERS = {
    "2d_valid_stride_gt_kernel": (lambda: nn.Conv2dTranspose(2, 2, 2, 3, "valid"), X2),
    "2d_output_padding": (lambda: nn.Conv2dTranspose(2, 1, 3, 2, "pad", 1, 1), X2),
    "3d_output_padding": (lambda: nn.Conv3dTranspose(1, 2, 3, 2, "pad", 1, 1, 1, 1), X3),
    "1d_valid": (lambda: nn.Conv1dTranspose(2, 2, 2, 3, "valid"), X2[:, :, 0]),
}


@pytest.mark.parametrize("name", sorted(LAYERS))
def test_graph_equals_pynative(name):
    make, x = LAYERS[name]
    ms.set_seed(3)
    want = make()(x).asnumpy()
    ms.set_context(mode=ms.GRAPH_MODE)
    try:
        ms.set_seed(3)
        got = make()(x).asnumpy()
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)
    np.testing.assert_array_equal(got, want)


def test_output_padding_zeros_have_no_gradient():
    """Conv2dTranspose's appended row and column are constants: the input gradient is the
    one of the layer without output_padding."""
    ms.set_seed(4)
    padded = nn.Conv2dTranspose(2, 1, 3, 2, "pad", 1, 1)
    plain = nn.Conv2dTranspose(2, 1, 3, 2, "pad", 1, 0, weight_init=padded.weight.value())
    y = padded(X2).asnumpy()
    assert y.shape == (1, 1, 6, 6) and not y[..., -1, :].any() and not y[..., -1].any()
    np.testing.assert_array_equal(y[..., :5, :5], plain(X2).asnumpy())
    g_padded = ms.grad(lambda x: (padded(x) ** 2).sum())(X2).asnumpy()
    g_plain = ms.grad(lambda x: (plain(x) ** 2).sum())(X2).asnumpy()
    np.testing.assert_allclose(g_padded, g_plain, rtol=1e-6)
