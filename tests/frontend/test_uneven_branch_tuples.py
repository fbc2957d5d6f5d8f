"""Branches of a tensor ``if`` returning tuples of Tensors of one type but of different
lengths give a dynamic length sequence, as MindSpore joins them (its
tests/st/runtime/test_runtime_dynamic_type.py); PYNATIVE == GRAPH and NumPy references, with
the graph's gradients."""
import numpy as np
import pytest

import graphkiln as ms
from graphkiln import Tensor, nn, ops


class Net(nn.Cell):
    def construct(self, list_in):
        length = len(list_in)
        if length >= 2:
            first, last = list_in[0], list_in[length - 1]
            return (first, last, ops.add(first, last))
        return (list_in[0], ops.add(list_in[0], 1))


@pytest.mark.parametrize("n", [1, 3])
def test_tuples_of_different_lengths_join(n):
    items = [np.full((2, 2), k + 1, np.float32) for k in range(n)]
    expect = [items[0], items[-1], items[0] + items[-1]] if n >= 2 else \
        [items[0], items[0] + 1]
    grads = []
    for mode in (ms.PYNATIVE_MODE, ms.GRAPH_MODE):
        ms.set_context(mode=mode)
        try:
            arg = ms.mutable(tuple(Tensor(x) for x in items), dynamic_len=True)
            out = Net()(arg)
            grads.append(ops.GradOperation(get_all=True)(Net())(arg))
        finally:
            ms.set_context(mode=ms.PYNATIVE_MODE)
        assert len(out) == len(expect)
        for got, want in zip(out, expect):
            np.testing.assert_array_equal(got.asnumpy(), want)
    # each element is returned once and added once, except the middle one (unused)
    want = [np.full((2, 2), 0.0 if 0 < k < n - 1 else 2.0, np.float32) for k in range(n)]
    assert grads[0] == ()  # PyNative: a mutable argument is a constant (MindSpore's)
    assert len(grads[1][0]) == n
    for got, w in zip(grads[1][0], want):
        np.testing.assert_array_equal(got.asnumpy(), w)
