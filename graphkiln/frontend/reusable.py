"""Cell calls traced as calls of their own graph: ``@lazy_inline`` cells (the graph is
traced once per key and shared by every use) and cells with a custom ``bprop`` method (the
call is where autodiff applies the user's backward function instead of the body's)."""
from __future__ import annotations

from ..common.lazy_inline import reuse_key
from ..common.symbolic_scalar import SymbolicScalar
from ..common.tensor import Tensor
from ..ir import tracing_state as state
from ..ir.abstract import AbstractRef, AbstractScalar, AbstractTensor
from ..ir.anf import FuncGraph, ValueNode
from ..ir.build import prim_node
from ..ir.structural_prims import TupleGetItem
from .builder import GraphBuilder
from .control import convert
from .custom_bprop import UserBprop, custom_bprop_key
from .pytree import flatten, unflatten


def _signature(leaves) -> tuple:
    out = []
    for x in leaves:
        if isinstance(x, Tensor):
            if x._is_param:
                out.append(("P", id(x)))
            else:
                out.append(("T", x.dtype.name, x.shape))
        elif type(x) is SymbolicScalar:
            out.append(("R", x.kind.__name__))  # a run-time number: an input of the graph
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
    return _call_cell_graph(cell, construct, args, kwargs, key)


def call_custom_bprop_cell(cell, construct, bprop, args: tuple, kwargs: dict,
                           single_ok: bool = False):
    """Trace-time call of a cell that defines ``bprop(self, *inputs, out, dout)``: a call
    of the cell's graph whose backward pass, in autodiff, is the user's ``bprop``
    (``single_ok``: a lone input's gradient may be returned without a tuple)."""
    def make_rule(out_tree, out_leaves) -> UserBprop:
        return UserBprop(cell, bprop, args, kwargs, out_tree, out_leaves, single_ok)

    out = _call_cell_graph(cell, construct, args, kwargs, ("custom_bprop", id(cell)),
                           make_rule)
    if out is NotImplemented:
        if not _differentiating(state.current()):  # a forward pass: the body, inlined
            return convert(construct)(cell, *args, **kwargs)
        raise RuntimeError(f"For '{type(cell).__name__}' with a custom 'bprop', graphkiln "
                           f"needs a 'construct' without side effects (Assign, Print) that "
                           f"reads only the cell's own Parameters and returns Tensors; move "
                           f"the other parts out of the cell.")
    return out


def _differentiating(b: GraphBuilder | None) -> bool:
    """Whether a transformation records the graph ``b`` traces into (or an outer one)."""
    while b is not None:
        if b.tape is not None:
            return True
        b = b.parent
    return False


def _call_cell_graph(cell, construct, args: tuple, kwargs: dict, key, make_rule=None):
    """A call of the cell's graph for ``key`` (traced on first use); ``make_rule(out_tree,
    out_leaves)`` makes the graph's custom backward rule, registered for autodiff."""
    b: GraphBuilder = state.current()
    leaves, tree = flatten((args, kwargs))
    full_key = (key, tree, _signature(leaves))
    cache = b.root.reusable
    entry = cache.get(full_key)
    weights = [p for _, p in cell.parameters_and_names()]
    if entry is None:
        entry = cache[full_key] = _trace_reusable(cell, construct, leaves, tree, weights, b,
                                                  make_rule is not None)
        if entry is not False and make_rule is not None:
            graph, out_tree, out_leaves = entry[:3]
            cache[custom_bprop_key(graph)] = make_rule(out_tree, out_leaves)
    if entry is False:
        return NotImplemented
    graph, out_tree, out_leaves, n_out, foreign = entry
    arg_nodes = [b.to_node(x) for x in leaves if _is_input(x, make_rule is not None)]
    call = b.new_cnode([ValueNode(graph), *arg_nodes,
                        *[b.weight(w) for w in (*weights, *foreign)]],
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


def _is_input(x, params_too: bool) -> bool:
    """Whether argument leaf ``x`` is an input of the cell's graph: a Tensor or a run-time
    number (``mutable``), and with ``params_too`` a Parameter (its value at the call)."""
    if type(x) is SymbolicScalar:
        return True
    return isinstance(x, Tensor) and (params_too or not x._is_param)


def _trace_reusable(cell, construct, leaves, tree, weights, parent: GraphBuilder,
                    params_as_inputs: bool):
    name = f"{type(cell).__name__}_construct_reusable"
    gb = GraphBuilder(FuncGraph(name))
    gb.reusable = parent.root.reusable  # nested blocks are shared across the whole compile
    gb.graph.flags["reusable"] = True
    syms = []
    for i, x in enumerate(leaves):
        if type(x) is SymbolicScalar:
            a = AbstractScalar.unknown(x.kind)
            syms.append(SymbolicScalar(gb.graph.add_param(f"arg{i}", a), a))
        elif _is_input(x, params_as_inputs):
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
        out_leaves, out_tree = flatten(out)
        nodes = []
        for i, leaf in enumerate(out_leaves):
            if isinstance(leaf, Tensor):
                nodes.append(gb.to_node(leaf))
                out_leaves[i] = None
        if gb.u.effects or gb.io.effects or (gb.graph.weights and not params_as_inputs):
            return False  # effects or foreign weights: not shareable, inline instead
        if not nodes:
            return False
        foreign = _weights_as_inputs(gb.graph)
        gb.graph.output = nodes[0] if len(nodes) == 1 and out_tree.kind == "leaf" else \
            gb.tuple_node(nodes)
    return gb.graph, out_tree, out_leaves, len(nodes), foreign


def _weights_as_inputs(g: FuncGraph) -> list:
    """The weights ``g`` reads that are not its cell's (a cell built inside a ``custom_vjp``
    function, a global Parameter): made inputs of the call, after the cell's own, for a
    custom ``bprop`` covers only the inputs (those weights get no gradient from the call,
    as in MindSpore). Returns the weights, in the order of their new parameters."""
    foreign = [p.weight for p in g.weights]
    for p in g.weights:
        p.weight = None
        g.params.append(p)
    g.weights = []
    return foreign
