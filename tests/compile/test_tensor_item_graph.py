"""``Tensor.item()`` inside a graph: the number a 0-d or shape-(1,) tensor holds, as a
run-time Python number that later arithmetic uses (MindSpore 2.10 GRAPH_MODE gives a float
for float tensors and an int for int tensors, as PyNative does); more elements: ValueError."""
import numpy as np
import pytest

import graphkiln as ms
from graphkiln import Tensor, nn


class _Item(nn.Cell):
    def construct(self, x):
        return x.item()


@pytest.mark.parametrize("value,dtype", [(1.25, ms.float32), ([2.5], ms.float32),
                                         ([7], ms.int32), (True, ms.bool_)])
def test_item_in_graph_equals_pynative(value, dtype):
    x = Tensor(value, dtype)
    want = np.asarray(x.asnumpy()).item()
    ms.set_context(mode=ms.GRAPH_MODE)
    try:
        got = _Item()(x)
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)
    assert type(got) is type(want) and got == want
    assert _Item()(x) == want


def test_item_feeds_graph_arithmetic():
    got = ms.jit(lambda t: t.item() * 2 + 1)(Tensor([3.0], ms.float32))
    assert got == 7.0


def test_item_of_many_elements_raises_in_graph():
    with pytest.raises(ValueError, match="TensorToScalar"):
        ms.jit(lambda t: t.item())(Tensor(np.ones((2, 2), np.int32)))


def test_formatting_a_graph_value_still_needs_its_value():
    """``format(x, spec)`` needs the number itself, which a trace does not have: the error
    says so (it does not reach the run-time number's formatting)."""
    with pytest.raises(RuntimeError, match="concrete value"):
        ms.jit(lambda t: t + len(format(t, ".2f")))(Tensor(1.5, ms.float32))
