"""Dead code elimination beyond reachability: drop parameters that a ``Switch``'s branches
never use, from both branch graphs and from the call that passes them.

Needs: both branches of a ``Switch`` share one parameter list (the tracer guarantees it).
Guarantees: nodes that are not reachable from a graph's output are never printed, run or
cached (they are not part of the graph); monad edges are reachable and so never dropped.
"""
from __future__ import annotations

from ..ir.anf import CNode, FuncGraph, ValueNode, all_graphs, toposort


def _used_params(g: FuncGraph) -> set[int]:
    used = set()
    for n in toposort(g):
        for i in n.inputs:
            used.add(id(i))
    used.add(id(g.output))
    return used


def run(root: FuncGraph, ctx) -> bool:
    changed = False
    for g in all_graphs(root):
        for n in toposort(g):
            sw = n.inputs[0]
            if not (isinstance(sw, CNode) and sw.prim_name() == "Switch"):
                continue
            branches = [v.value for v in sw.inputs[2:4] if isinstance(v, ValueNode)]
            if len(branches) != 2 or branches[0] is branches[1]:
                continue
            t, f = branches
            if len(t.params) != len(f.params) or len(t.params) != len(n.inputs) - 1:
                continue
            ut, uf = _used_params(t), _used_params(f)
            keep = [k for k in range(len(t.params))
                    if id(t.params[k]) in ut or id(f.params[k]) in uf]
            if len(keep) == len(t.params):
                continue
            t.params = [t.params[k] for k in keep]
            f.params = [f.params[k] for k in keep]
            n.set_inputs([n.inputs[0]] + [n.inputs[1 + k] for k in keep])
            changed = True
    return changed
