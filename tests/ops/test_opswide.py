"""Ops of the "opswide" conformance round (see fixtures/opswide_cases.py for the families)
against values, gradients and errors recorded from MindSpore 2.10 CPU (fixtures/opswide.json,
by fixtures/record_opswide.py); where MindSpore 2.10 CPU fails (the 2-D fractional pooling
and SparseReorder gradients) NumPy oracles; properties of random ops (randperm's run-time
length, Dropout's fresh masks)."""
import json
import os
import sys

import numpy as np
import pytest

import graphkiln as ms
from graphkiln import Tensor, ops

FIXTURES = os.path.join(os.path.dirname(__file__), "fixtures")
sys.path.insert(0, FIXTURES)
from call_outcome import assert_outcome  # noqa: E402
from opswide_cases import CALLS, outcome  # noqa: E402

with open(os.path.join(FIXTURES, "opswide.json")) as f:
    RECORDED = json.load(f)


@pytest.mark.parametrize("name", sorted(CALLS))
def test_matches_mindspore(name):
    got, want = outcome(lambda: CALLS[name](ms, ops, Tensor)), RECORDED[name]
    assert_outcome(got, want, rtol=2e-5, atol=1e-6, grad_atol=2e-6)


class _Apply(ms.nn.Cell):
    def __init__(self, fn):
        super().__init__()
        self.fn = fn

    def construct(self, *args):
        return self.fn(*args)


def test_randperm_length_known_at_run_time():
    net = _Apply(lambda n: ops.randperm(n, seed=5, dtype=ms.float16))
    net.set_inputs(Tensor(shape=[None], dtype=ms.int64))
    ms.set_context(mode=ms.GRAPH_MODE)
    try:
        for n in (6, 8):
            out = net(Tensor([n], ms.int64))
            assert out.shape == (n,) and out.dtype == ms.float16
            np.testing.assert_array_equal(out.asnumpy(), ops.randperm(n, seed=5).asnumpy())
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)


def test_fractional_max_pool2d_gradient_goes_to_each_argmax():
    # (MindSpore 2.10 CPU has no float kernel for this gradient; NumPy scatter oracle)
    from opswide_cases import FP_S2, FP_X2

    w = np.arange(1, 25, dtype=np.float32).reshape(2, 1, 3, 4) * np.ones((1, 2, 1, 1))
    _, argmax = ops.fractional_max_pool2d(Tensor(FP_X2), 3, (3, 4), return_indices=True,
                                          _random_samples=Tensor(FP_S2))
    grad = ms.grad(lambda a: (ops.fractional_max_pool2d(
        a, 3, (3, 4), _random_samples=Tensor(FP_S2)) * Tensor(w)).sum())(Tensor(FP_X2))
    want = np.zeros((2, 2, 63), np.float32)
    for n in range(2):
        for c in range(2):
            np.add.at(want[n, c], argmax.asnumpy()[n, c].reshape(-1), w[n, c].reshape(-1))
    np.testing.assert_array_equal(grad.asnumpy(), want.reshape(FP_X2.shape))


def test_reverse_v2_checks_axis_when_built():
    with pytest.raises(TypeError, match="should be one of '\\[list of int, tuple of int\\]'"):
        ops.ReverseV2(0.1)


@pytest.mark.parametrize("mode", [ms.GRAPH_MODE, ms.PYNATIVE_MODE])
def test_dropout_without_seeds_draws_a_new_mask_per_call(mode):
    class Net(ms.nn.Cell):
        def __init__(self):
            super().__init__()
            self.dropout = ops.Dropout(keep_prob=0.5)

        def construct(self, x):
            y, mask = self.dropout(x)
            return (y * 3.0).sum(), mask

    x = Tensor(np.arange(1.0, 65.0, dtype=np.float32).reshape(8, 8))
    ms.set_context(mode=mode)
    try:
        net = Net()
        masks = [net(x)[1].asnumpy() for _ in range(2)]
        (value, mask), grad = ms.value_and_grad(net, has_aux=True)(x)
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)
    assert not np.array_equal(masks[0], masks[1])  # (equal with probability 2**-64)
    np.testing.assert_allclose(grad.asnumpy(), mask.asnumpy() * 6.0)  # the forward's mask
    np.testing.assert_allclose(value.asnumpy(), (x.asnumpy() * mask.asnumpy() * 6.0).sum())


def test_sparse_reorder_gradient_puts_values_back():
    # (MindSpore 2.10's rule fails on CPU: "depend list index should be less than inputs
    # size"; the oracle is the permutation itself)
    from opswide_cases import SP_IDX, SP_VAL

    from graphkiln.ops.operations.sparse_ops import SparseReorder
    shape = Tensor(np.array([3, 4], np.int64))
    w = np.arange(1.0, 6.0, dtype=np.float32)
    grad = ms.grad(lambda v: (SparseReorder()(Tensor(SP_IDX), v, shape)[1] * Tensor(w)).sum())(
        Tensor(SP_VAL))
    order = np.lexsort(SP_IDX.T[::-1])
    want = np.empty(5, np.float32)
    want[order] = w
    np.testing.assert_array_equal(grad.asnumpy(), want)


@pytest.mark.parametrize("k", [2, 3])
def test_grid_sampler_mixed_dtypes_message(k):
    """MindSpore 2.10: "For primitive[GridSampler3D], the input type must be same." (a
    TypeError) for a float32 image and a grid of another dtype."""
    x = ms.Tensor(np.ones((2, 3) + (3,) * k, np.float32))
    grid = ms.Tensor(np.ones((2,) + (3,) * k + (k,), np.float64))
    with pytest.raises(TypeError, match=rf"primitive\[GridSampler{k}D\], the input type must "
                                        r"be same"):
        getattr(ms.ops, f"GridSampler{k}D")()(x, grid)
