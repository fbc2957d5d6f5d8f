"""Fold ``Switch`` on a constant condition into a plain call of the chosen branch.

Needs: nothing. Guarantees: only conditions that are compile-time constants are folded;
the branch call that remains is inlined by the next ``inline`` pass.
"""
from __future__ import annotations

import numpy as np

from ..ir.anf import CNode, FuncGraph, ValueNode, all_graphs, toposort


def run(root: FuncGraph, ctx) -> bool:
    changed = False
    for g in all_graphs(root):
        for n in toposort(g):
            sw = n.inputs[0]
            if not (isinstance(sw, CNode) and sw.prim_name() == "Switch"):
                continue
            cond = sw.inputs[1]
            if isinstance(cond, ValueNode):
                chosen = sw.inputs[2] if bool(np.asarray(cond.value)) else sw.inputs[3]
                n.set_input(0, chosen)
                changed = True
    return changed
