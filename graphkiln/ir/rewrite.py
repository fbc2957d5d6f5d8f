"""Graph editing helpers shared by the passes."""
from __future__ import annotations

from .anf import FuncGraph, Node, toposort


def resolve(node: Node, mapping: dict[int, Node]) -> Node:
    """Follow replacement chains (a -> b -> c)."""
    seen = 0
    while id(node) in mapping:
        node = mapping[id(node)]
        seen += 1
        if seen > 10000:
            raise RuntimeError("graphkiln bug: cyclic node replacement")
    return node


def replace_nodes(graph: FuncGraph, mapping: dict[int, Node]) -> bool:
    """Redirect every use of a replaced node in ``graph`` to its replacement."""
    if not mapping:
        return False
    changed = False
    for n in toposort(graph):
        for i, inp in enumerate(n.inputs):
            if id(inp) in mapping:
                n.set_input(i, resolve(inp, mapping))
                changed = True
    if graph.output is not None and id(graph.output) in mapping:
        graph.output = resolve(graph.output, mapping)
        changed = True
    return changed
