"""Save and load a graph family losslessly (the compile cache stores optimised graphs).

The encoding is flat (one list of node records per graph, inputs as indices), so a long
chain of nodes never meets Python's recursion limit. Weights are stored by name and bound
to live ``Parameter`` objects again on load.
"""
from __future__ import annotations

import pickle

from ...errors import SourceLoc
from .abstract import AbstractMonad
from .anf import CNode, FuncGraph, Parameter, ValueNode, all_graphs, toposort

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


def dumps(root: FuncGraph) -> bytes:
    graphs = all_graphs(root)
    gid = {id(g): i for i, g in enumerate(graphs)}
    out = []
    for g in graphs:
        index: dict[int, int] = {}
        params = []
        for p in g.all_params:
            index[id(p)] = len(index)
            params.append((p.name, p.abstract, p in g.weights))
        values: list = []
        vindex: dict[int, int] = {}
        nodes = []

        def ref(x):
            if isinstance(x, ValueNode):
                k = vindex.get(id(x))
                if k is None:
                    k = vindex[id(x)] = len(values)
                    values.append((_encode_value(x.value, gid), x.abstract))
                return ("v", k)
            return ("n", index[id(x)])

        for n in toposort(g):
            loc = (n.loc.filename, n.loc.lineno) if n.loc is not None else None
            nodes.append(([ref(i) for i in n.inputs], n.abstract, loc))
            index[id(n)] = len(index)
        out.append((g.name, dict(g.flags), len(g.params), params, values, nodes,
                    ref(g.output)))
    return pickle.dumps((FORMAT, out), protocol=pickle.HIGHEST_PROTOCOL)


def loads(data: bytes, weights: dict | None = None) -> FuncGraph:
    """The graph family in ``data``; ``weights`` maps names to live ``Parameter``s."""
    from ...ops.primitive import REGISTRY
    from ..trace.builder import IO_MONAD, U_MONAD, _prim_node
    fmt, records = pickle.loads(data)
    if fmt != FORMAT:
        raise ValueError(f"unknown graph format {fmt}")
    graphs = [FuncGraph(r[0]) for r in records]
    for g, (name, flags, n_params, params, values, nodes, output) in zip(graphs, records):
        g.flags = flags
        table: list = []
        for i, (pname, abstract, is_weight) in enumerate(params):
            p = Parameter(g, pname, abstract)
            if is_weight:
                p.weight = (weights or {}).get(pname)
                g.weights.append(p)
            else:
                g.params.append(p)
            table.append(p)
        vnodes = []
        for (kind, *rest), abstract in values:
            if kind == "graph":
                vn = ValueNode(graphs[rest[0]], abstract)
            elif kind == "graphs":
                vn = ValueNode(tuple(graphs[k] for k in rest[0]), abstract)
            elif kind == "prim":
                vn = _prim_node(REGISTRY[rest[0]], rest[1])
            elif kind == "monad":
                vn = ValueNode(U_MONAD if rest[0] == "U" else IO_MONAD, abstract)
            else:
                vn = ValueNode(rest[0], abstract)
            vnodes.append(vn)

        def get(r):
            return vnodes[r[1]] if r[0] == "v" else table[r[1]]

        for refs, abstract, loc in nodes:
            node = CNode(g, [get(r) for r in refs], abstract,
                         SourceLoc(*loc) if loc is not None else None)
            table.append(node)
        g.output = get(output)
    return graphs[0]


__all__ = ["dumps", "loads", "AbstractMonad"]
