"""Dead code elimination beyond reachability: drop parameters that a ``Switch``'s branches
never use, from both branch graphs and from the call that passes them.

Needs: both branches of a ``Switch`` share one parameter list (the tracer guarantees it).
Guarantees: a branch graph is only changed when the one call through its ``Switch`` is its
only use in the whole graph family (autodiff replays calls into backward graphs, so a
branch can have several callers). Nodes not reachable from a graph's output are never
printed, run or cached; monad edges are reachable and so never dropped.
"""
from __future__ import annotations

from ..ir.anf import CNode, FuncGraph, ValueNode, all_graphs, graphs_in, toposort


def _used(g: FuncGraph) -> set[int]:
    used = {id(g.output)}
    for n in toposort(g):
        for i in n.inputs:
            used.add(id(i))
    return used


def _graph_uses(root: FuncGraph) -> dict[int, int]:
    """How many nodes refer to each graph, over the whole family."""
    uses: dict[int, int] = {}
    for g in all_graphs(root):
        for n in toposort(g):
            for inp in n.inputs:
                if isinstance(inp, ValueNode):
                    for sub in graphs_in(inp.value):
                        uses[id(sub)] = uses.get(id(sub), 0) + 1
    return uses


def run(root: FuncGraph, ctx) -> bool:
    changed = False
    uses = _graph_uses(root)
    for g in all_graphs(root):
        calls: dict[int, int] = {}  # how many calls go through each Switch node
        for n in toposort(g):
            if isinstance(n.inputs[0], CNode):
                calls[id(n.inputs[0])] = calls.get(id(n.inputs[0]), 0) + 1
        for n in toposort(g):
            sw = n.inputs[0]
            if not (isinstance(sw, CNode) and sw.prim_name() == "Switch"):
                continue
            branches = [v.value for v in sw.inputs[2:4] if isinstance(v, ValueNode)]
            if len(branches) != 2 or branches[0] is branches[1]:
                continue
            t, f = branches
            if uses.get(id(t)) != 1 or uses.get(id(f)) != 1 or calls[id(sw)] != 1:
                continue
            if len(t.params) != len(f.params) or len(t.params) != len(n.inputs) - 1:
                continue
            ut, uf = _used(t), _used(f)
            keep = [k for k in range(len(t.params))
                    if id(t.params[k]) in ut or id(f.params[k]) in uf]
            if len(keep) == len(t.params):
                continue
            t.params = [t.params[k] for k in keep]
            f.params = [f.params[k] for k in keep]
            n.set_inputs([n.inputs[0]] + [n.inputs[1 + k] for k in keep])
            changed = True
    return changed
