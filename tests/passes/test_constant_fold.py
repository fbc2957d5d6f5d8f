import numpy as np

import graphkiln as ms
from graphkiln.ir.abstract import AbstractTensor
from graphkiln.ir.anf import ValueNode
from graphkiln.ir.rewrite import replace_nodes
from graphkiln.passes import constant_fold


def affine(x, y):
    return (x + 1) * 2 * y


def test_nodes_whose_inputs_became_constant_fold(traced):
    # Tracing already computes constant expressions in Python; the pass folds what other
    # passes expose. Here the input x is replaced by a constant, as inlining would do.
    x, y = ms.Tensor(np.array([1.0, 2.0])), ms.Tensor(np.array([3.0, 4.0]))
    t = traced(affine, x, y)
    const = np.array([1.0, 2.0])
    replace_nodes(t.graph, {id(t.graph.params[0]):
                            ValueNode(const, AbstractTensor(ms.float64, (2,), const))})
    assert t.apply(constant_fold.run)
    assert t.count("Add") == 0 and t.count("Mul") == 1
    np.testing.assert_array_equal(t.run(), [12.0, 24.0])


def test_large_results_are_not_folded(traced, monkeypatch):
    monkeypatch.setattr(constant_fold, "MAX_ELEMENTS", 1)
    x, y = ms.Tensor(np.array([1.0, 2.0])), ms.Tensor(np.array([3.0, 4.0]))
    t = traced(affine, x, y)
    const = np.array([1.0, 2.0])
    replace_nodes(t.graph, {id(t.graph.params[0]):
                            ValueNode(const, AbstractTensor(ms.float64, (2,), const))})
    assert not t.apply(constant_fold.run)
