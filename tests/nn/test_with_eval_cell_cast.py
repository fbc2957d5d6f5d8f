"""``nn.WithEvalCell(add_cast_fp32=True)`` (Model.eval's network under amp O2/O3): the
outputs and floating labels become float32, integer labels stay as they are (MindSpore's
``mixed_precision_cast``); before, the outputs were cast to the label's dtype."""
import numpy as np

import graphkiln as ms
from graphkiln import nn

W = np.array([[0.5, -1.0, 2.0], [1.5, 0.25, -0.5]], np.float32)
X = np.array([[1.0, 2.0, -1.0], [0.5, -0.5, 3.0]], np.float32)


def _half_dense() -> nn.Dense:
    return nn.Dense(3, 2, weight_init=ms.Tensor(W), has_bias=False).to_float(ms.float16)


def test_integer_labels_stay_outputs_float32():
    cell = nn.WithEvalCell(_half_dense(), nn.SoftmaxCrossEntropyWithLogits(
        sparse=True, reduction="mean"), add_cast_fp32=True)
    label = ms.Tensor(np.array([1, 0], np.int32))
    loss, out, lab = cell(ms.Tensor(X), label)
    assert out.dtype == ms.float32 and lab.dtype == ms.int32
    logits = (X.astype(np.float16) @ W.T.astype(np.float16)).astype(np.float32)
    want = np.mean(np.log(np.exp(logits).sum(1)) - logits[[0, 1], [1, 0]])
    np.testing.assert_allclose(loss.asnumpy(), want, rtol=1e-4, atol=1e-7)


def test_float_labels_become_float32():
    cell = nn.WithEvalCell(_half_dense(), nn.MSELoss(), add_cast_fp32=True)
    loss, out, lab = cell(ms.Tensor(X), ms.Tensor(np.ones((2, 2), np.float16)))
    assert out.dtype == ms.float32 and lab.dtype == ms.float32
    assert loss.dtype == ms.float32
