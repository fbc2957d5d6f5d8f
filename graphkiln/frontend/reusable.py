"""Reusable graphs for ``@lazy_inline`` cells: trace once per key, call per use."""
from __future__ import annotations

from ..common.lazy_inline import reuse_key
from ..common.tensor import Tensor
from ..ir import tracing_state as state
from ..ir.abstract import AbstractRef, AbstractTensor
from ..ir.anf import FuncGraph, ValueNode
from ..ir.build import prim_node
from ..ir.structural_prims import TupleGetItem
from .builder import GraphBuilder
from .control import convert
from .pytree import flatten, unflatten


def _signature(leaves) -> tuple:
    out = []
    for x in leaves:
        if isinstance(x, Tensor):
            if x._is_param:
                out.append(("P", id(x)))
            else:
                out.append(("T", x.dtype.name, x.shape))
        else:
            try:
                hash(x)
                out.append(("S", type(x).__name__, x))
            except TypeError:
                out.append(("O", id(x)))
    return tuple(out)


def call_lazy_cell(cell, construct, args: tuple, kwargs: dict):
    """Trace-time call of a ``@lazy_inline`` cell: a call of its shared reusable graph.

    Returns ``NotImplemented`` when the cell cannot be shared (it has side effects, or
    reads weights that are not its own): the caller then inlines it as usual.
    """
    key = reuse_key(cell)
    if key is None:
        return NotImplemented
    b: GraphBuilder = state.current()
    leaves, tree = flatten((args, kwargs))
    full_key = (key, tree, _signature(leaves))
    cache = b.root.reusable
    entry = cache.get(full_key)
    weights = [p for _, p in cell.parameters_and_names()]
    if entry is None:
        entry = cache[full_key] = _trace_reusable(cell, construct, leaves, tree, weights, b)
    if entry is False:
        return NotImplemented
    graph, out_tree, out_leaves, n_out = entry
    arg_nodes = [b.to_node(x) for x in leaves if isinstance(x, Tensor) and not x._is_param]
    call = b.new_cnode([ValueNode(graph), *arg_nodes, *[b.weight(w) for w in weights]],
                       graph.output.abstract)
    b.u.pending.append(call)  # the block reads weights: later writes wait for it
    values = list(out_leaves)
    dyn = [i for i, v in enumerate(out_leaves) if v is None]
    if n_out == 1 and out_tree.kind == "leaf":
        values[dyn[0]] = b.wrap(call)
    else:
        for i, v in zip(dyn, _items(b, call, len(dyn))):
            values[i] = v
    return unflatten(out_tree, values)


def _items(b: GraphBuilder, call, n: int):
    for i in range(n):
        node = b.new_cnode([prim_node(TupleGetItem, {}), call, ValueNode(i)],
                           call.abstract.elements[i])
        yield b.wrap(node)


def _trace_reusable(cell, construct, leaves, tree, weights, parent: GraphBuilder):
    name = f"{type(cell).__name__}_construct_reusable"
    gb = GraphBuilder(FuncGraph(name))
    gb.reusable = parent.root.reusable  # nested blocks are shared across the whole compile
    gb.graph.flags["reusable"] = True
    syms = []
    for i, x in enumerate(leaves):
        if isinstance(x, Tensor) and not x._is_param:
            a = AbstractTensor(x.dtype, x.shape)
            syms.append(Tensor._symbolic(gb.graph.add_param(f"arg{i}", a), a))
        else:
            syms.append(x)
    for w in weights:
        gb.weight_nodes[id(w)] = gb.graph.add_param(
            w.name, AbstractRef(w.dtype, w.shape, w.name))
    s_args, s_kwargs = unflatten(tree, syms)
    with gb:
        out = convert(construct)(cell, *s_args, **s_kwargs)
        if gb.u.effects or gb.io.effects or gb.graph.weights:
            return False  # effects or foreign weights: not shareable, inline instead
        out_leaves, out_tree = flatten(out)
        nodes = []
        for i, leaf in enumerate(out_leaves):
            if isinstance(leaf, Tensor):
                nodes.append(gb.to_node(leaf))
                out_leaves[i] = None
        if not nodes:
            return False
        gb.graph.output = nodes[0] if len(nodes) == 1 and out_tree.kind == "leaf" else \
            gb.tuple_node(nodes)
    return gb.graph, out_tree, out_leaves, len(nodes)
