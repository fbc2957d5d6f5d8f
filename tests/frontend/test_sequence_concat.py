"""``SequenceConcat`` (``ops.auto_generate``): a dynamic length sequence of Tensors joined
along an axis, and its gradient cut back into the items (NumPy references)."""
import numpy as np
import pytest

import graphkiln as ms
from graphkiln import Tensor, mutable, nn
from graphkiln.ops.auto_generate import SequenceConcat


class _Apply(nn.Cell):
    def __init__(self, fn):
        super().__init__()
        self.fn = fn

    def construct(self, *args):
        return self.fn(*args)


@pytest.fixture(params=[ms.GRAPH_MODE, ms.PYNATIVE_MODE])
def mode(request):
    ms.set_context(mode=request.param)
    yield request.param
    ms.set_context(mode=ms.PYNATIVE_MODE)


@pytest.mark.parametrize("axis", [0, 1, -1])
def test_concat_of_a_dynamic_length_sequence(mode, axis):
    items = [Tensor(np.arange(6, dtype=np.float32).reshape(2, 3) + 10 * k) for k in range(3)]
    out = _Apply(lambda x: SequenceConcat(axis=axis)(x))(mutable(items, True))
    want = np.concatenate([i.asnumpy() for i in items], axis)
    np.testing.assert_array_equal(out.asnumpy(), want)


def test_gradient_cuts_dout_back_into_the_items():
    ms.set_context(mode=ms.GRAPH_MODE)
    try:
        items = [Tensor(np.ones((2, 3), np.float32)) for _ in range(3)]
        w = Tensor(np.arange(18, dtype=np.float32).reshape(2, 9))
        grads = ms.grad(lambda x: (SequenceConcat(axis=1)(x) * w).sum())(mutable(items, True))
        for k, g in enumerate(grads):
            np.testing.assert_array_equal(g.asnumpy(), w.asnumpy()[:, 3 * k:3 * k + 3])
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)


def test_bad_axis_and_items():
    with pytest.raises(ValueError, match="axis"):
        SequenceConcat(axis=2)(mutable([Tensor(np.ones((2, 3)))], True))
