"""Save and load a graph family losslessly (the compile cache stores optimised graphs).

The encoding is flat (one list of node records per graph, inputs as indices), so a long
chain of nodes never meets Python's recursion limit. Weights are stored by name and bound
to live ``Parameter`` objects again on load.
"""
from __future__ import annotations

import pickle

from ..errors import SourceLoc
from .abstract import AbstractMonad
from .anf import CNode, FuncGraph, Parameter, ValueNode, all_graphs, toposort
from .build import prim_node
from .primitive import REGISTRY
from .structural_prims import IO_MONAD, U_MONAD

FORMAT = 1


def _encode_value(v, gid: dict):
    if isinstance(v, FuncGraph):
        return ("graph", gid[id(v)])
    if type(v) is tuple and v and isinstance(v[0], FuncGraph):
        return ("graphs", [gid[id(g)] for g in v])
    opdef = getattr(v, "opdef", None)
    if opdef is not None:
        return ("prim", opdef.name, dict(v.attrs))
    kind = getattr(v, "kind", None)
    if kind in ("U", "IO") and type(v).__name__ == "Monad":
        return ("monad", kind)
    return ("const", v)


class _Encoder:
    """Numbers one graph's parameters and nodes and collects its constants."""

    def __init__(self, gid: dict):
        self.gid = gid
        self.index: dict[int, int] = {}
        self.values: list = []
        self.vindex: dict[int, int] = {}

    def ref(self, x):
        if isinstance(x, ValueNode):
            k = self.vindex.get(id(x))
            if k is None:
                k = self.vindex[id(x)] = len(self.values)
                self.values.append((_encode_value(x.value, self.gid), x.abstract))
            return ("v", k)
        return ("n", self.index[id(x)])

    def graph(self, g: FuncGraph):
        params = []
        for p in g.all_params:
            self.index[id(p)] = len(self.index)
            params.append((p.name, p.abstract, p in g.weights))
        nodes = []
        for n in toposort(g):
            loc = (n.loc.filename, n.loc.lineno) if n.loc is not None else None
            nodes.append(([self.ref(i) for i in n.inputs], n.abstract, loc))
            self.index[id(n)] = len(self.index)
        return (g.name, dict(g.flags), params, self.values, nodes, self.ref(g.output))


def encode(root: FuncGraph) -> tuple:
    """The graph family as plain records (constants are the graph's own objects, so a
    pickle holding these records and the generated code stores each constant once)."""
    graphs = all_graphs(root)
    gid = {id(g): i for i, g in enumerate(graphs)}
    return FORMAT, [_Encoder(gid).graph(g) for g in graphs]


def dumps(root: FuncGraph) -> bytes:
    return pickle.dumps(encode(root), protocol=pickle.HIGHEST_PROTOCOL)


def loads(data: bytes, weights: dict | None = None) -> FuncGraph:
    """The graph family in ``data``; ``weights`` maps names to live ``Parameter``s."""
    return decode(pickle.loads(data), weights)


def decode(encoded: tuple, weights: dict | None = None) -> FuncGraph:
    """The graph family of :func:`encode`'s records."""
    fmt, records = encoded
    if fmt != FORMAT:
        raise ValueError(f"unknown graph format {fmt}")
    graphs = [FuncGraph(r[0]) for r in records]
    for g, (_, flags, params, values, nodes, output) in zip(graphs, records):
        g.flags = flags
        table: list = []
        for pname, abstract, is_weight in params:
            p = Parameter(g, pname, abstract)
            if is_weight:
                p.weight = (weights or {}).get(pname)
                g.weights.append(p)
            else:
                g.params.append(p)
            table.append(p)
        vnodes = [_decode_value(v, abstract, graphs, REGISTRY, (U_MONAD, IO_MONAD), prim_node)
                  for v, abstract in values]
        for refs, abstract, loc in nodes:
            node = CNode(g, [_get(r, vnodes, table) for r in refs], abstract,
                         SourceLoc(*loc) if loc is not None else None)
            table.append(node)
        g.output = _get(output, vnodes, table)
    return graphs[0]


def _get(r, vnodes: list, table: list):
    return vnodes[r[1]] if r[0] == "v" else table[r[1]]


def _decode_value(encoded, abstract, graphs, registry, monads, prim_node) -> ValueNode:
    kind, *rest = encoded
    if kind == "graph":
        return ValueNode(graphs[rest[0]], abstract)
    if kind == "graphs":
        return ValueNode(tuple(graphs[k] for k in rest[0]), abstract)
    if kind == "prim":
        return prim_node(registry[rest[0]], rest[1])
    if kind == "monad":
        return ValueNode(monads[0] if rest[0] == "U" else monads[1], abstract)
    return ValueNode(rest[0], abstract)


__all__ = ["dumps", "loads", "AbstractMonad"]
