import numpy as np

import graphkiln as ms
from graphkiln.passes import cse


def shared(x, y):
    return (x * y + 1) + (x * y + 1)


def test_identical_pure_nodes_are_computed_once(traced):
    x, y = ms.Tensor(np.array([1.0, 2.0])), ms.Tensor(np.array([3.0, 4.0]))
    t = traced(shared, x, y)
    before = t.run()
    assert t.count("Mul") == 2
    assert t.apply(cse.run)
    assert t.count("Mul") == 1 and t.count("Add") == 2
    np.testing.assert_array_equal(t.run(), before)


def test_nothing_to_share_reports_unchanged(traced):
    t = traced(lambda x: x + 1, ms.Tensor(np.array([1.0])))
    assert not t.apply(cse.run)


def _weights():
    return [ms.Parameter(ms.Tensor(np.array([v], np.float32)), name=n)
            for n, v in (("lr", 0.5), ("w1", 1.0), ("w2", 2.0))]


def _loads_of(t, name: str) -> int:
    from graphkiln.ir.anf import iter_nodes
    return sum(1 for _, order in iter_nodes(t.graph) for n in order
               if n.prim_name() == "Load" and n.inputs[1].name.endswith(name))


def test_a_weight_read_again_after_writes_of_other_weights_is_loaded_once(traced):
    """The learning rate read after each parameter's update (as an optimizer does) sees
    the same value every time: one Load. A weight read after its own write is not merged."""
    lr, w1, w2 = _weights()

    def step(x):
        ms.ops.assign(w1, w1 - lr * x)
        ms.ops.assign(w2, w2 - lr * x)
        return w1 * lr + w2 * lr

    x = ms.Tensor(np.array([2.0], np.float32))
    t = traced(step, x)
    assert _loads_of(t, "lr") == 4 and _loads_of(t, "w1") == 2
    assert t.apply(cse.run)
    assert _loads_of(t, "lr") == 1 and _loads_of(t, "w1") == 2
    # w1 = 1 - 0.5*2 = 0, w2 = 2 - 0.5*2 = 1: the reads after the writes see them
    np.testing.assert_array_equal(t.run(), np.array([0.5], np.float32))
    np.testing.assert_array_equal(w1.asnumpy(), [0.0])
    np.testing.assert_array_equal(w2.asnumpy(), [1.0])


def test_reads_on_both_sides_of_a_weight_write_stay_apart(traced):
    """``lr`` read before and after ``Assign(lr, ...)`` (with another weight's write
    between): two Loads, and the second sees the new value."""
    lr, w1, _ = _weights()

    def step(x):
        a = lr * x
        ms.ops.assign(w1, w1 + a)
        ms.ops.assign(lr, a)
        return lr + w1

    x = ms.Tensor(np.array([2.0], np.float32))
    t = traced(step, x)
    loads = _loads_of(t, "lr")
    t.apply(cse.run)
    assert _loads_of(t, "lr") == loads >= 2
    np.testing.assert_array_equal(t.run(), np.array([3.0], np.float32))


def test_a_read_after_a_branch_that_writes_the_weight_is_not_merged(traced):
    """A tensor ``if`` whose branch writes ``lr``: the state after it is the branch call's
    output, which no walk passes, so the read after it stays a Load of its own and sees
    the write."""
    lr, _, _ = _weights()

    def step(x):
        a = lr * x
        if x > 0:
            ms.ops.assign(lr, a)
        return lr + a

    x = ms.Tensor(np.array([2.0], np.float32))
    t = traced(step, x)
    loads = _loads_of(t, "lr")
    t.apply(cse.run)
    assert _loads_of(t, "lr") == loads >= 2
    np.testing.assert_array_equal(t.run(), np.array([2.0], np.float32))  # 1.0 + 1.0
