"""Sibling merge: two kernels that compute parts of one computation on the same inputs
become one node that computes it once and returns both parts.

A backend pass, run on the optimised graph after autodiff and vmap, before element-wise
fusion and code generation (model export never sees its nodes). The one pair today: a
train step's ``SparseSoftmaxCrossEntropyWithLogits`` loss and the gradient kernel its
backward rule adds (``is_grad=True``), on the same features, labels and ``sens``. Each
kernel takes the exponential of the shifted features; the merged
``SparseSoftmaxCrossEntropyWithLogitsGradAndLoss`` takes it once, with the same bits for
both results (GPT block: 512x1000 logits, one exponential and three passes fewer).
"""
from __future__ import annotations

from ..ir.abstract import AbstractTuple
from ..ir.anf import CNode, FuncGraph, ValueNode, all_graphs, toposort
from ..ir.build import prim_node
from ..ir.rewrite import replace_nodes
from ..ir.structural_prims import TupleGetItem
from ..ops.defs.nn_losses import SparseSoftmaxCrossEntropyWithLogitsGradAndLoss as GradAndLoss

_CE = "SparseSoftmaxCrossEntropyWithLogits"


def run(root: FuncGraph) -> bool:
    """Merge the sibling pairs of every graph of ``root``; True when something changed."""
    changed = False
    for g in all_graphs(root):
        changed |= _merge_graph(g)
    return changed


def _ce_key(n: CNode):
    """``(is_grad, (features, labels, sens))`` of a cross-entropy kernel node, else None."""
    if n.prim_name() != _CE:
        return None
    attrs = n.inputs[0].value.attrs
    return bool(attrs.get("is_grad", False)), \
        (id(n.inputs[1]), id(n.inputs[2]), float(attrs.get("sens", 1.0)))


def _merge_graph(g: FuncGraph) -> bool:
    found: dict = {}  # (is_grad, inputs) -> the node
    for n in toposort(g):
        key = _ce_key(n)
        if key is not None:
            found.setdefault(key, n)
    mapping = {}
    for (is_grad, inputs), grad in found.items():
        loss = found.get((False, inputs)) if is_grad else None
        if loss is None:
            continue
        both = CNode(g, [prim_node(GradAndLoss, {"sens": inputs[2]}), *loss.inputs[1:]],
                     AbstractTuple([grad.abstract, loss.abstract]), loss.loc)
        mapping[id(grad)] = _item(g, both, 0, grad)
        mapping[id(loss)] = _item(g, both, 1, loss)
    return replace_nodes(g, mapping) if mapping else False


def _item(g: FuncGraph, both: CNode, i: int, like: CNode) -> CNode:
    return CNode(g, [prim_node(TupleGetItem, {}), both, ValueNode(i)], like.abstract,
                 like.loc)
