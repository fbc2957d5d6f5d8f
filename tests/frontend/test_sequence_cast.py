"""``ops._utils.arg_dtype_cast.TupleToList``/``ListToTuple`` (MindSpore's ``list()`` /
``tuple()`` primitives): static sequences of anything, dynamic length sequences inside
graphs (their length stays a run-time value), gradients through them."""
import numpy as np
import pytest

import graphkiln as ms
from graphkiln import Tensor, mutable, nn
from graphkiln.ops._utils.arg_dtype_cast import ListToTuple, TupleToList


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


def test_static_sequences_change_kind(mode):
    t = Tensor([1.5], ms.float32)
    out = _Apply(lambda a, b, c: ListToTuple()([a, b, c]))(2.5, [1, 2], t)
    assert isinstance(out, tuple) and out[:2] == (2.5, [1, 2]) and out[2] == t
    out = _Apply(lambda a, b: TupleToList()((a, b)))(1, (3, 4))
    assert out == [1, (3, 4)]


def test_dynamic_length_sequences_change_kind(mode):
    items = [Tensor([1.0]), Tensor([2.0]), Tensor([3.0])]
    out = _Apply(lambda x: ListToTuple()(x))(mutable(items, True))
    assert isinstance(out, tuple) and [o.asnumpy().tolist() for o in out] == [[1], [2], [3]]
    out = _Apply(lambda x: TupleToList()(x))(mutable(tuple(items), True))
    assert isinstance(out, list) and len(out) == 3


def test_gradient_flows_through_the_items():
    ms.set_context(mode=ms.GRAPH_MODE)
    try:
        def fn(x):
            seq = ListToTuple()(x)
            return seq[0] * 2.0 + seq[2] * 3.0
        grads = ms.grad(fn)(mutable([Tensor([1.0]), Tensor([2.0]), Tensor([3.0])], True))
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)
    assert [g.asnumpy().tolist() for g in grads] == [[2.0], [0.0], [3.0]]


def test_gradient_with_respect_to_a_constant_is_empty(mode):
    assert ms.grad(lambda x: ListToTuple()(x))((1.5, [1, 2], Tensor([1.0]))) == ()


def test_not_a_sequence():
    with pytest.raises(TypeError, match="tuple or list"):
        ListToTuple()(Tensor(np.ones(2)))


def test_sequence_stack_and_its_gradient(mode):
    from graphkiln.ops.operations._sequence_ops import SequenceStack

    items = [Tensor(np.full((2, 3), float(k), np.float32)) for k in range(3)]
    out = _Apply(lambda x: SequenceStack(axis=1)(x))(mutable(items, True))
    np.testing.assert_array_equal(out.asnumpy(), np.stack([i.asnumpy() for i in items], 1))
    if mode != ms.GRAPH_MODE:
        return
    w = Tensor(np.arange(18, dtype=np.float32).reshape(2, 3, 3))
    grads = ms.grad(lambda x: (SequenceStack(axis=1)(x) * w).sum())(mutable(items, True))
    for k, g in enumerate(grads):
        np.testing.assert_array_equal(g.asnumpy(), w.asnumpy()[:, k])


@pytest.mark.parametrize("cast", [ListToTuple, TupleToList])
def test_gradient_of_a_cast_sequence_output_is_ones(cast):
    # (recorded for ListToTuple: fixtures/opswide.json seq_cast_grad_*; MindSpore 2.10
    # aborts on TupleToList's)
    ms.set_context(mode=ms.GRAPH_MODE)
    try:
        seq = [1, 2, 3] if cast is ListToTuple else (1, 2, 3)
        grads = ms.grad(_Apply(lambda x: cast()(x)), 0)(mutable(seq, True))
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)
    assert list(grads) == [1, 1, 1]
