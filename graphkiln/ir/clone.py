"""Copy a graph's body into another graph (inlining) or into a fresh graph."""
from __future__ import annotations

from collections.abc import Callable

from .anf import CNode, FuncGraph, Node, toposort


def inline_body(callee: FuncGraph, into: FuncGraph, args: list[Node],
                new_node: Callable | None = None) -> Node:
    """Copy ``callee``'s nodes into ``into`` with its parameters bound to ``args``;
    returns the node standing for the callee's output. ``new_node(inputs, abstract, loc)``
    makes each copy (a builder's ``new_cnode`` puts them on its tape)."""
    mapping: dict[int, Node] = {id(p): a for p, a in zip(callee.all_params, args)}
    for n in toposort(callee):
        inputs = [mapping.get(id(i), i) for i in n.inputs]
        new = CNode(into, inputs, n.abstract, n.loc) if new_node is None else \
            new_node(inputs, n.abstract, n.loc)
        new.scope = n.scope
        mapping[id(n)] = new
    out = callee.output
    return mapping.get(id(out), out)


def clone_graph(g: FuncGraph, name: str | None = None) -> FuncGraph:
    """A copy of ``g`` with fresh parameters and nodes (subgraphs are shared)."""
    new = FuncGraph(name or g.name, g.loc)
    new.flags = dict(g.flags)
    args = [new.add_param(p.name, p.abstract) for p in g.params]
    for w in g.weights:
        p = new.add_weight(w.weight, w.abstract)
        args.append(p)
    new.output = inline_body(g, new, args)
    return new
