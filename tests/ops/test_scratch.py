"""The kernels' scratch arena (``ops/workspace.py``): arrays taken in a frame never overlap
while they live, a nested kernel takes its own above its caller's, everything is free again
when the frame ends, and a step's convolutions and pooling leave nothing taken."""
import numpy as np

import graphkiln as ms
from graphkiln import nn
from graphkiln.ops import workspace as ws


def _span(a: np.ndarray) -> tuple:
    start = a.__array_interface__["data"][0]
    return start, start + a.nbytes


def _disjoint(arrays) -> bool:
    spans = sorted(_span(a) for a in arrays)
    return all(end <= start for (_, end), (start, _) in zip(spans, spans[1:]))


def test_arrays_of_live_frames_do_not_overlap_and_are_freed():
    kept = []

    @ws.with_scratch
    def inner():
        kept.append(ws.scratch((5, 7), np.float64))
        kept[-1].fill(2)
        return ws.SCRATCH.top

    @ws.with_scratch
    def outer():
        kept.append(ws.scratch((3,), np.int8))
        kept[-1].fill(1)
        top = inner()
        kept.append(ws.scratch((4, 4), np.float32))  # takes the inner frame's bytes again
        kept[-1].fill(3)
        return top

    before = ws.SCRATCH.top
    inner_top = outer()
    assert ws.SCRATCH.top == before
    assert inner_top > before
    assert _disjoint(kept[:2]) and _disjoint([kept[0], kept[2]])
    assert (kept[0] == 1).all()  # the later arrays did not write over the first
    base = _span(ws.SCRATCH.arena)[0]
    assert all((_span(a)[0] - base) % ws.SCRATCH_ALIGN == 0 for a in kept)


def test_a_full_arena_is_replaced_and_the_arrays_already_taken_keep_their_values():
    @ws.with_scratch
    def take_more():
        first = ws.scratch((8,), np.float32)
        first[...] = np.arange(8)
        big = ws.scratch((ws.SCRATCH.arena.size + 1000,), np.uint8)  # forces a new arena
        big.fill(255)
        return first.copy(), first, big

    copy, first, big = take_more()
    np.testing.assert_array_equal(first, copy)
    assert _disjoint([first, big])


def test_a_training_step_with_convolutions_and_pooling_leaves_the_arena_free():
    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.conv = nn.Conv2d(3, 32, 3, pad_mode="same")
            self.conv2 = nn.Conv2d(32, 8, 5, pad_mode="valid")
            self.pool = nn.MaxPool2d(2, 2)
            self.avg = nn.AvgPool2d(2, 2)

        def construct(self, x):
            return self.avg(self.conv2(self.pool(self.conv(x)))).sum()

    ms.set_context(mode=ms.GRAPH_MODE)
    try:
        net = Net()
        x = ms.Tensor(np.random.default_rng(0).standard_normal((4, 3, 20, 20)), ms.float32)
        grads = ms.grad(net, grad_position=None, weights=net.trainable_params())
        before = ws.SCRATCH.top
        first = [g.asnumpy() for g in grads(x)]
        assert ws.SCRATCH.top == before
        again = [g.asnumpy() for g in grads(x)]  # the arena reused: the same results
        for a, b in zip(first, again):
            np.testing.assert_array_equal(a, b)
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)


def test_a_forked_child_writes_its_own_copy_of_the_arena():
    """A dataset worker forked while the parent holds scratch arrays must not write into
    the parent's memory (the arena is a private mapping)."""
    import os

    @ws.with_scratch
    def parent():
        mine = ws.scratch((1024,), np.float32)
        mine.fill(1)
        pid = os.fork()
        if pid == 0:  # the child scribbles over the same arena offsets, then leaves
            try:
                ws.SCRATCH.top = 0
                ws.scratch((1024,), np.float32).fill(7)
            finally:
                os._exit(0)
        os.waitpid(pid, 0)
        return mine.copy()

    np.testing.assert_array_equal(parent(), np.ones(1024, np.float32))
