"""``ops.operations.MaxPoolWithArgmax(pad_mode='same')`` against a NumPy loop: the padding
split evenly (the extra row or column after the end), as MindSpore documents it (its 2.10
CPU kernel pads only after the end, so there is no recorded case); GRAPH == PYNATIVE."""
import numpy as np
import pytest

import graphkiln as ms
from graphkiln.ops import operations as P


def _reference(x, kernel, stride):
    n, c, h, w = x.shape
    out_hw, pads = [], []
    for size, k, s in zip((h, w), kernel, stride):
        out = -(-size // s)
        total = max((out - 1) * s + k - size, 0)
        out_hw.append(out)
        pads.append(total // 2)
    values = np.empty((n, c, *out_hw), x.dtype)
    index = np.empty((n, c, *out_hw), np.int32)
    for b, ch, i, j in np.ndindex(values.shape):
        best, where = -np.inf, -1
        for r in range(i * stride[0] - pads[0], i * stride[0] - pads[0] + kernel[0]):
            for q in range(j * stride[1] - pads[1], j * stride[1] - pads[1] + kernel[1]):
                if 0 <= r < h and 0 <= q < w and x[b, ch, r, q] > best:
                    best, where = x[b, ch, r, q], ch * h * w + r * w + q
        values[b, ch, i, j], index[b, ch, i, j] = best, where
    return values, index


@pytest.mark.parametrize("kernel, stride", [((3, 3), (2, 2)), ((2, 3), (1, 2)),
                                            ((4, 2), (3, 3))])
@pytest.mark.parametrize("jit", [False, True])
def test_same_padding(kernel, stride, jit):
    x = np.random.default_rng(11).standard_normal((2, 3, 5, 6)).astype(np.float32)
    pool = P.MaxPoolWithArgmax(kernel_size=kernel, strides=stride, pad_mode="same")
    run = ms.jit(lambda t: pool(t)) if jit else pool
    out, argmax = run(ms.Tensor(x))
    want_out, want_index = _reference(x, kernel, stride)
    np.testing.assert_array_equal(out.asnumpy(), want_out)
    np.testing.assert_array_equal(argmax.asnumpy(), want_index)
    assert str(argmax.dtype) == "Int32"


def test_bad_pad_mode():
    with pytest.raises(ValueError, match="pad_mode"):
        P.MaxPoolWithArgmax(2, 2, "full")(ms.Tensor(np.ones((1, 1, 4, 4), np.float32)))
