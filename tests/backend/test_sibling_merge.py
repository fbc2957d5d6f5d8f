"""Sibling merge (backend/sibling_merge.py): a train step's sparse cross-entropy loss and
gradient kernels on the same features become one kernel with the same bits for both."""
import re

import numpy as np
import pytest

import graphkiln as ms
from graphkiln import Tensor, context, nn, ops
from graphkiln.backend import sibling_merge
from graphkiln.ops.defs.nn_losses import (
    SparseSoftmaxCrossEntropyWithLogits as CE,
)
from graphkiln.ops.defs.nn_losses import (
    SparseSoftmaxCrossEntropyWithLogitsGradAndLoss as GradAndLoss,
)

_MERGED = "SparseSoftmaxCrossEntropyWithLogitsGradAndLoss"


def _bits(a: np.ndarray) -> np.ndarray:
    a = np.asarray(a)
    return a.view(f"u{a.itemsize}")


@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64])
@pytest.mark.parametrize("shape", [(7, 5), (2, 3, 11)])
@pytest.mark.parametrize("sens", [1.0, 2.5])
def test_merged_kernel_gives_the_two_kernels_bits(dtype, shape, sens):
    r = np.random.default_rng(0)
    x = (r.standard_normal(shape) * 4).astype(dtype)
    y = r.integers(0, shape[-1], shape[:-1]).astype(np.int32)
    grad = CE.kernel(x, y, is_grad=True, sens=sens)
    loss = CE.kernel(x, y, is_grad=False, sens=sens)
    got_grad, got_loss = GradAndLoss.kernel(x, y, sens=sens)
    assert got_grad.dtype == grad.dtype and got_loss.dtype == loss.dtype
    np.testing.assert_array_equal(_bits(got_grad), _bits(grad))
    np.testing.assert_array_equal(_bits(got_loss), _bits(loss))
    # the memory plan may hand it the features' own array as ``out=``
    inplace = x.copy()
    got_grad, got_loss = GradAndLoss.kernel(inplace, y, sens=sens, out=inplace)
    assert got_grad is inplace
    np.testing.assert_array_equal(_bits(got_grad), _bits(grad))
    np.testing.assert_array_equal(_bits(got_loss), _bits(loss))


def test_merged_kernel_refuses_labels_past_the_classes():
    x = np.zeros((2, 3), np.float32)
    with pytest.raises(RuntimeError, match=r"must be in \[0, 3\)"):
        GradAndLoss.kernel(x, np.array([0, 3], np.int32))


class _Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Dense(16, 32)
        self.relu = nn.ReLU()
        self.fc2 = nn.Dense(32, 40)

    def construct(self, x):
        return self.fc2(self.relu(self.fc1(x)))


def _train(steps=3):
    """A train step's weights and losses after ``steps`` (GRAPH_MODE), and its source."""
    context.set_context(mode=context.GRAPH_MODE)
    ms.set_seed(3)
    net = _Net()
    loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    step = nn.TrainOneStepCell(nn.WithLossCell(net, loss),
                               nn.Momentum(net.trainable_params(), 0.1, 0.9))
    r = np.random.default_rng(1)
    x = Tensor(r.standard_normal((24, 16)).astype(np.float32))
    y = Tensor(r.integers(0, 40, 24).astype(np.int32))
    losses = [step(x, y).asnumpy() for _ in range(steps)]
    weights = [p.asnumpy().copy() for p in step.trainable_params()]
    return losses, weights, ms.compile_info(step).source


def test_a_train_step_runs_one_merged_kernel_with_the_unmerged_bits(monkeypatch):
    losses, weights, source = _train()
    merged = [line for line in source.splitlines() if _MERGED in line]
    assert len(merged) == 1 and "k_SparseSoftmaxCrossEntropyWithLogits_" not in source
    # its gradient (24x40 floats) is written into a pooled buffer although the loss, its
    # other result, leaves the function
    assert re.search(r"out=b\d+", merged[0])
    monkeypatch.setattr(sibling_merge, "run", lambda graph: False)
    plain_losses, plain_weights, plain_source = _train()
    assert _MERGED not in plain_source
    for a, b in zip(losses + weights, plain_losses + plain_weights):
        np.testing.assert_array_equal(_bits(a), _bits(b))


def test_kernels_on_different_labels_stay_apart():
    """The loss on one set of labels and the gradient on another are not siblings."""
    ce = ops.SparseSoftmaxCrossEntropyWithLogits()

    def f(x, y1, y2):
        g = ops.grad(lambda v: ce(v, y1))(x)
        return ce(x, y2), g

    r = np.random.default_rng(2)
    args = (Tensor(r.standard_normal((6, 9)).astype(np.float32)),
            Tensor(r.integers(0, 9, 6).astype(np.int32)),
            Tensor(r.integers(0, 9, 6).astype(np.int32)))
    jf = ms.jit(f)
    got = jf(*args)
    assert _MERGED not in ms.compile_info(jf).source
    context.set_context(mode=context.PYNATIVE_MODE)
    want = f(*args)
    for a, b in zip(got, want):
        np.testing.assert_array_equal(_bits(a.asnumpy()), _bits(b.asnumpy()))
