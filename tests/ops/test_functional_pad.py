"""``ops.pad``: MindSpore 2.10's padding order (last dimension first), modes and errors
(checked by hand on MindSpore), against ``np.pad``, in both modes, with finite-difference
gradients. A negative size crops (MindSpore 2.10 CPU fills a cropped-and-padded row from the
wrong elements: [1, 2, 0, 4] for [0, 1, 2, 3] padded by (-1, 1); graphkiln gives
[1, 2, 3, 0])."""
import sys
from pathlib import Path

import numpy as np
import pytest

import graphkiln as ms
from graphkiln import Tensor, ops

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from numeric_grad import numeric_grad  # noqa: E402

X = np.arange(24, dtype=np.float32).reshape(2, 3, 4) - 7

CASES = [
    ((1, 2), "constant", None, ((0, 0), (0, 0), (1, 2)), {}),
    ((1, 2, 0, 1), "constant", 5.0, ((0, 0), (0, 1), (1, 2)), {"constant_values": 5.0}),
    ((1, 1, 2, 0), "reflect", None, ((0, 0), (2, 0), (1, 1)), {}),
    ((2, 1), "replicate", None, ((0, 0), (0, 0), (2, 1)), {}),
    ((1, 3, 1, 1), "circular", None, ((0, 0), (1, 1), (1, 3)), {}),
]
NP_MODE = {"constant": "constant", "reflect": "reflect", "replicate": "edge",
           "circular": "wrap"}


@pytest.mark.parametrize("mode_", [ms.GRAPH_MODE, ms.PYNATIVE_MODE], ids=["graph", "pynative"])
@pytest.mark.parametrize("padding,mode,value,np_pad,np_kw", CASES)
def test_matches_numpy(padding, mode, value, np_pad, np_kw, mode_):
    ms.set_context(mode=mode_)
    try:
        got = ms.jit(lambda t: ops.pad(t, padding, mode, value))(Tensor(X)).asnumpy()
    finally:
        ms.set_context(mode=ms.GRAPH_MODE)
    np.testing.assert_array_equal(got, np.pad(X, np_pad, mode=NP_MODE[mode], **np_kw))


def test_negative_sizes_crop_and_ints_keep_their_type():
    got = ops.pad(Tensor(X), (-1, 1, 0, -2)).asnumpy()
    np.testing.assert_array_equal(got, np.pad(X[:, :1, 1:], ((0, 0), (0, 0), (0, 1))))
    ints = ops.pad(Tensor(np.arange(4, dtype=np.int32)), (1, 1), value=7)
    assert ints.dtype == ms.int32
    np.testing.assert_array_equal(ints.asnumpy(), [7, 0, 1, 2, 3, 7])


def test_errors():
    with pytest.raises(ValueError, match="divisible by 2"):
        ops.pad(Tensor(X), (1,))
    with pytest.raises(ValueError, match="less than the input dimension"):
        ops.pad(Tensor(X), (4, 4), mode="reflect")
    with pytest.raises(ValueError, match="'mode' must be one of"):
        ops.pad(Tensor(X), (1, 1), mode="bad")


@pytest.mark.parametrize("padding,mode", [((1, 2, 1, 0), "reflect"), ((2, 1), "replicate"),
                                          ((1, 1, -1, 1), "constant")])
def test_gradient_matches_finite_differences(padding, mode):
    x = X.astype(np.float64) / 10
    out_shape = ops.pad(Tensor(x), padding, mode).shape
    w = np.random.default_rng(0).standard_normal(out_shape)

    def loss(t):
        return (ops.pad(t, padding, mode) * Tensor(w)).sum()

    grad = ms.grad(loss)(Tensor(x)).asnumpy()
    np.testing.assert_allclose(grad, numeric_grad(loss, x), rtol=1e-6, atol=1e-8)
