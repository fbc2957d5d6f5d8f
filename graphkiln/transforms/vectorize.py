"""``vmap`` as a graph transformation: per-example code batched by per-primitive rules.

The function is traced once into the current graph on *unbatched* symbolic inputs (each
batched argument without its mapped axis; the placeholder is a ``Getitem`` of the real
argument that ends up dead) while the builder records a tape, exactly as autodiff does.
The tape is then replayed in order with an environment ``node -> (batched value, batch
axis)``: a node none of whose inputs is batched is kept as it is; a primitive with a batched
input is replaced by its batching rule (``OpDef.vmap``, in ``ops/rules/batching.py``), whose ops
record into the same graph. Tuples, ``Depend`` and monads are handled here; branch, loop,
``HyperMap`` and reusable (lazy-inline) graphs are batched into new graphs (the same
replay on their bodies). So the batch costs one kernel call per primitive at run time, with
no Python loop over the examples, and nested ``vmap``, ``grad`` of ``vmap`` and ``vmap`` of
``grad`` compose.

A tensor ``if`` whose condition depends on the batch computes both branches and selects
per example (MindSpore refuses it). Limits, each a clear error: a ``While`` condition that
depends on the batch (``ValueError``), side effects inside the function other than writes
of batched values (``Print``, a write into an unbatched Parameter: ``ValueError``), the
gradient of a tensor ``while`` loop under ``vmap``.

``Assign``/``AssignAdd``/``AssignSub`` and the ``ScatterNd*`` updates of a batched argument
are batched like the collectives: the per-example writes leave the memory chain and the
replay records one write of the whole argument (the caller's Tensor or Parameter), as
MindSpore does (a scatter's indices gain the example's index in front).

The collectives with a batching rule (AllReduce, AllGather...) are the one effect vmap
batches, as MindSpore does: the per-example calls recorded while tracing are taken off the
IO chain, and the replay records one batched call per collective in their order, which
gives what a loop of per-example calls gives (every rank batches the same way).
"""
from __future__ import annotations

import numpy as np

import graphkiln.ops.functional as F

from ..common.tensor import Tensor
from ..errors import GraphkilnInternalError
from ..frontend.builder import GraphBuilder
from ..frontend.pytree import flatten
from ..ir import tracing_state as state
from ..ir.abstract import PY_OBJECT_ABS, AbstractFunc, AbstractTensor, AbstractTuple
from ..ir.anf import CNode, FuncGraph, Node, ValueNode, all_graphs, toposort
from ..ir.build import const_node, prim_node
from ..ir.primitive import IO_EFFECT, MEM_EFFECT, Primitive
from ..ir.structural_prims import MakeTuple, TupleGetItem, WhileGrad, tensor_shapes
from ..ops.defs.array import Getitem
from ..ops.rules.batching import broadcast_batch, front, move_axis, to_front
from .replay import TapeInterpreter, node_value, record_tape, value_node


class VmapError(ValueError, RuntimeError):
    """A bad ``in_axes``/``out_axes`` or inconsistent batch sizes. MindSpore raises
    ``RuntimeError`` for these and JAX ``ValueError``: this error is both."""


def _batched(d) -> bool:
    if isinstance(d, tuple):
        return any(_batched(e) for e in d)
    return d is not None


def _where(node: Node) -> str:
    loc = getattr(node, "loc", None)
    return f"\n{loc.describe()}" if loc is not None else ""


# ------------------------------------------------------------------ values and nodes

def _with_batch(a, d, size: int):
    """The abstract of a batched value: ``a`` with ``size`` inserted at axis ``d``."""
    return AbstractTensor(a.dtype, a.shape[:d] + (size,) + a.shape[d:])


# ------------------------------------------------------------------ effects

_EFFECT_MEMO: dict[int, tuple] = {}


def _batched_write(opdef) -> bool:
    """A primitive updating weights in place that has a batching rule."""
    return opdef is not None and opdef.effect == MEM_EFFECT and opdef.vmap is not None


def _refused_effect(opdef) -> bool:
    """A side effect vmap cannot batch: any but a weight update with a batching rule."""
    return opdef is not None and opdef.effect != "none" and not _batched_write(opdef)


def _effect_in(node: CNode) -> str | None:
    """The name of a side-effecting primitive applied by ``node`` or inside a graph it
    applies (branches, loop bodies, element graphs, reusable graphs), else None."""
    fn = node.inputs[0]
    if isinstance(fn, ValueNode):
        opdef = getattr(fn.value, "opdef", None)
        if _refused_effect(opdef):
            return opdef.name
    for inp in node.inputs:
        graphs = []
        if isinstance(inp, ValueNode):
            v = inp.value
            if isinstance(v, FuncGraph):
                graphs = [v]
            elif isinstance(v, tuple) and v and all(isinstance(g, FuncGraph) for g in v):
                graphs = list(v)
        for g in graphs:
            found = _graph_effect(g)
            if found:
                return found
    return None


def _graph_effect(g: FuncGraph) -> str | None:
    key = id(g)
    if key in _EFFECT_MEMO and _EFFECT_MEMO[key][0] is g:
        return _EFFECT_MEMO[key][1]
    found = None
    for sub in all_graphs(g):
        for n in toposort(sub):
            fn = n.inputs[0]
            opdef = getattr(fn.value, "opdef", None) if isinstance(fn, ValueNode) else None
            if _refused_effect(opdef):
                found = opdef.name
                break
        if found:
            break
    if len(_EFFECT_MEMO) > 4096:
        _EFFECT_MEMO.clear()
    _EFFECT_MEMO[key] = (g, found)
    return found


def _batched_effect(node: Node) -> bool:
    """A primitive call with an IO effect and a batching rule (a collective)."""
    if not isinstance(node, CNode) or not isinstance(node.inputs[0], ValueNode):
        return False
    opdef = getattr(node.inputs[0].value, "opdef", None)
    return opdef is not None and opdef.effect == IO_EFFECT and opdef.vmap is not None


def _batched_update(node: Node) -> bool:
    """A call of a weight update that has a batching rule."""
    return isinstance(node.inputs[0], ValueNode) and _batched_write(
        getattr(node.inputs[0].value, "opdef", None))


_SCATTERS = tuple(f"ScatterNd{k}" for k in ("Add", "Sub", "Mul", "Div", "Max", "Min",
                                               "Update"))  # by _Batcher.batched_scatter
_WRITES = ("Assign", "AssignAdd", "AssignSub") + _SCATTERS  # (the rest: batched_write)


def _written_source(ref: Node) -> Node:
    """The node a written value started from: through the copy taken for the write
    (``TensorMove``) and earlier writes of the same Tensor."""
    while isinstance(ref, CNode) and ref.prim_name() in ("TensorMove", "Depend", *_WRITES):
        ref = ref.inputs[1]
    return ref


def _effect_error(name: str, node: Node) -> ValueError:
    return ValueError(f"vmap does not support side effects inside the vmapped function, but "
                      f"it calls '{name}'. Move the {name} out of the function given to "
                      f"vmap (a vmapped function must be pure).{_where(node)}")


# ------------------------------------------------------------------ the batcher

class _Batcher(TapeInterpreter):
    """Replays recorded nodes with batching. ``env``: id(old node) -> (value, dims);
    ``alias``: id(old node) -> the node that now stands for it (copied or rebuilt).
    ``copy``: copy unbatched nodes too (when building a new graph from an old one)."""

    STRUCTURAL = {
        "MakeTuple": "make_tuple", "TupleGetItem": "tuple_getitem", "Depend": "depend",
        "UpdateState": "rebuild", "Switch": "batched_switch", "While": "while_loop",
        "HyperMap": "hypermap", "WhileGrad": "while_grad",
        **{name: "batched_write" for name in ("Assign", "AssignAdd", "AssignSub")},
        **{name: "batched_scatter" for name in _SCATTERS},
        "Print": "refuse_effect",
    }

    def __init__(self, b: GraphBuilder, size: int, copy: bool = False, graphs=None):
        super().__init__(b)
        self.size = size
        self.copy = copy
        self.env: dict[int, tuple] = {}
        self.alias: dict[int, Node] = {}
        self.rebuilt: dict[int, Node] = {}  # old call -> new call (monad bookkeeping)
        self.graphs = graphs if graphs is not None else {}  # batched graph cache
        self.targets: dict[int, Tensor] = {}  # id(placeholder) -> the argument it slices

    # ------------------------------------------------------------ lookups
    def dim(self, node: Node):
        e = self.env.get(id(node))
        return None if e is None else e[1]

    def node(self, node: Node) -> Node:
        return self.alias.get(id(node), node)

    def value(self, node: Node):
        e = self.env.get(id(node))
        if e is not None:
            return e[0]
        return node_value(self.b, self.node(node))

    def node_for(self, node: Node) -> Node:
        e = self.env.get(id(node))
        if e is not None and _batched(e[1]):
            return value_node(self.b, e[0])
        return self.node(node)

    def set(self, n: Node, value, dims, node: Node | None = None) -> None:
        self.env[id(n)] = (value, dims)
        if node is not None:
            self.alias[id(n)] = node
        elif not _batched(dims):
            self.alias[id(n)] = value_node(self.b, value)

    # ------------------------------------------------------------ replay
    def run(self, nodes) -> None:
        for n in nodes:
            self.step(n)

    def step(self, n: CNode) -> None:
        dims = [self.dim(a) for a in n.inputs[1:]]
        if not any(_batched(d) for d in dims) and not _batched(self.dim(n.inputs[0])) \
                and not _batched_effect(n):
            if self.copy or any(id(i) in self.alias for i in n.inputs):
                self.alias[id(n)] = self.b.new_cnode([self.node(i) for i in n.inputs],
                                                     n.abstract, n.loc)
            return
        self.dispatch(n, dims)

    def primitive(self, n: CNode, prim: Primitive, dims) -> None:
        opdef = prim.opdef
        args = n.inputs[1:]
        if _batched_effect(n):  # the batched call threads the IO chain itself
            args, dims = args[:-1], dims[:-1]
        elif _batched_update(n):
            return self.batched_update(n, prim, dims)
        elif opdef.effect != "none":
            raise _effect_error(opdef.name, n)
        if opdef.vmap is None:
            raise NotImplementedError(f"The primitive '{opdef.name}' has no batching rule, "
                                      f"so vmap cannot batch it.{_where(n)}")
        values = [self.value(a) for a in args]
        out, out_dims = opdef.vmap(*values, dims=tuple(dims), **prim.attrs)
        _check(n, out, out_dims, self.size)
        self.set(n, out, out_dims)

    # ------------------------------------------------------------ structural nodes
    def make_tuple(self, n: CNode, dims) -> None:
        self.set(n, tuple(self.value(a) for a in n.inputs[1:]), tuple(dims))

    def tuple_getitem(self, n: CNode, dims) -> None:
        value, d = self.env[id(n.inputs[1])]
        i = n.inputs[2].value
        self.set(n, value[i], d[i] if isinstance(d, tuple) else d)

    def depend(self, n: CNode, dims) -> None:
        value = self.value(n.inputs[1])
        node = value_node(self.b, value)
        deps = [self.node_for(a) for a in n.inputs[2:]]
        new = self.b.new_cnode([n.inputs[0], node, *deps], node.abstract, n.loc)
        self.set(n, self.b.wrap(new) if not isinstance(value, Node) else new, dims[0], new)

    def rebuild(self, n: CNode, dims) -> None:
        """A monad node (``UpdateState``): same node over the new inputs, never batched."""
        new = self.b.new_cnode([n.inputs[0]] + [self.node_for(a) for a in n.inputs[1:]],
                               n.abstract, n.loc)
        self.alias[id(n)] = new
        self.rebuilt[id(n)] = new

    def batched_write(self, n: CNode, dims) -> None:
        """``Assign``/``AssignAdd``/``AssignSub`` of a batched value: one write of the whole
        batch, the value moved to the target's batch axis (broadcast when unbatched). A
        write into a batched argument writes the caller's Tensor (or Parameter) itself, as
        MindSpore does; a write of batched values into an unbatched target would race
        between examples: an error."""
        ref, value = n.inputs[1], n.inputs[2]
        d_ref, d_value = dims[0], dims[1]
        if not _batched(d_ref):
            raise _effect_error(n.prim_name(), n)
        target = self.targets.get(id(_written_source(ref)))
        current = self.value(ref)
        if _batched(d_value):
            new_value = move_axis(self.value(value), d_value, d_ref)
        else:
            new_value = F.broadcast_to(
                move_axis(broadcast_batch(self.value(value), self.size), 0, d_ref),
                tuple(current.shape))
        opdef = n.inputs[0].value.opdef
        if target is None:  # a Tensor the function computed: written in its batched copy
            target = current
        written = opdef(target, new_value)
        # the function's view of the written value is this write's result, which a later
        # write of the whole target must not change (each example had its own slice)
        self.set(n, F.tensor_move(written) if target is not current else written, d_ref)

    def batched_update(self, n: CNode, prim: Primitive, dims) -> None:
        """A weight update (``ApplyAdadelta``...) of weights batched on one axis: one update
        of the caller's whole weights (as :meth:`batched_write`), each example's
        hyper-parameters broadcast along the batch axis by the op's rule. Unbatched weights
        written from batched values would race between examples: an error."""
        opdef = prim.opdef
        args, dims = n.inputs[1:-1], list(dims[:-1])  # (the U monad last)
        if not all(_batched(dims[i]) for i in opdef.ref_inputs):
            raise _effect_error(opdef.name, n)
        values = [self.value(a) for a in args]
        for i in opdef.ref_inputs:
            values[i] = self.targets.get(id(_written_source(args[i])), values[i])
        out, out_dims = opdef.vmap(*values, dims=tuple(dims), **prim.attrs)
        _check(n, out, out_dims, self.size)
        self.set(n, out, out_dims)

    def batched_scatter(self, n: CNode, dims) -> None:
        """``ScatterNd<Op>(ref, indices, updates)`` into a batched ref: one scatter into the
        whole batch. With the ref's batch axis among the dims the index rows address, each
        example's rows get its number at that axis's column; behind them, unbatched index
        rows stay as they are and the updates carry the batch at its place in the slice
        each row writes, while batched rows are lengthened to address the batch axis too
        (every position of the dims between, then the example's number), the slices
        behind it keeping the updates' layout."""
        ref, indices, updates = n.inputs[1:4]
        d_ref, d_idx, d_upd = dims[:3]
        if not _batched(d_ref):
            raise _effect_error(n.prim_name(), n)
        current = self.value(ref)
        target = self.targets.get(id(_written_source(ref)), current)
        idx, upd = self.value(indices), self.value(updates)
        idx = move_axis(idx, d_idx, 0) if _batched(d_idx) else idx
        depth = idx.shape[-1]
        if d_ref <= depth:
            idx = idx if _batched(d_idx) else broadcast_batch(idx, self.size)
            idx = _with_columns(idx, d_ref, [_example_numbers(idx, self.size)])
            upd = move_axis(upd, d_upd, 0) if _batched(d_upd) else \
                broadcast_batch(upd, self.size)
        elif _batched(d_idx):
            between = tuple(current.shape[depth:d_ref])  # dims the rows skip before the batch
            lead = tuple(idx.shape[:-1])
            idx = F.broadcast_to(F.reshape(idx, lead + (1,) * len(between) + (depth,)),
                                 lead + between + (depth,))
            grid = np.moveaxis(np.indices(between), 0, -1).astype(idx.dtype.np_dtype)
            grid = F.broadcast_to(Tensor(grid), lead + between + (len(between),))
            idx = _with_columns(idx, depth, [grid, _example_numbers(idx, self.size)])
            upd = move_axis(upd, d_upd, 0) if _batched(d_upd) else \
                broadcast_batch(upd, self.size)
        else:
            at = idx.ndim - 1 + d_ref - depth  # the batch's place in the updates
            upd = move_axis(upd, d_upd, at) if _batched(d_upd) else \
                broadcast_batch(upd, self.size, at)
        written = n.inputs[0].value(target, idx, upd)
        view = F.tensor_move(written) if target is not current else written
        # the function reads the written copy of its argument (``ref``) after the write too
        self.env[id(ref)] = (view, d_ref)
        self.set(n, view, d_ref)

    def refuse_effect(self, n: CNode, dims) -> None:
        raise _effect_error(n.prim_name(), n)

    def batched_switch(self, n: CNode, dims) -> None:
        """A ``Switch`` whose condition is batched: each example may take another branch,
        so its call computes both branches and selects per example (see select_call)."""
        self.env[id(n)] = (self.value(n.inputs[1]), dims[0])

    # ------------------------------------------------------------ graphs
    def _front(self, node: Node):
        """(value, dim) of an argument with its batch axis moved first."""
        d = self.dim(node)
        if isinstance(d, tuple):
            raise NotImplementedError("vmap cannot pass a batched tuple into a branch, "
                                      "loop or reusable graph yet." + _where(node))
        value = self.value(node)
        return (to_front(value, d), 0) if d is not None else (value, None)

    def sub(self, g: FuncGraph, in_dims: list):
        """Batch ``g``'s body into a new graph whose params are batched on axis 0 where
        ``in_dims`` says 0. Returns the sub-batcher and the (value, dims) of the output,
        before the output is fixed (see :meth:`finish`)."""
        name = _graph_effect(g)
        if name:
            raise _effect_error(name, g.output)
        nb = GraphBuilder(FuncGraph(f"vmap_{g.name}", g.loc), self.b)
        nb.graph.flags.update(g.flags)
        sub = _Batcher(nb, self.size, copy=True, graphs=self.graphs)
        with nb:
            for p, d in zip(g.all_params, in_dims):
                if d is None:
                    sub.alias[id(p)] = nb.graph.add_param(p.name, p.abstract)
                else:
                    a = _with_batch(p.abstract, 0, self.size)
                    q = nb.graph.add_param(p.name, a)
                    sub.env[id(p)] = (Tensor._symbolic(q, a), 0)
            sub.run(toposort(g))
            out = g.output
            value, d = sub.value(out), sub.dim(out)
        if isinstance(out.abstract, AbstractTuple) and not isinstance(d, tuple):
            d = (d,) * len(out.abstract.elements)
            value = tuple(value) if isinstance(value, (tuple, list)) else tuple(
                nb.wrap(sub.node(out)))
        return sub, value, d

    def finish(self, sub: _Batcher, value, d, want) -> FuncGraph:
        """Set the new graph's output, batched on axis 0 exactly where ``want`` says."""
        nb = sub.b
        with nb:
            if isinstance(want, tuple):
                nodes = []
                for v, dv, w in zip(value, d, want):
                    nodes.append(value_node(nb, front(v, dv, self.size) if w is not None else v))
                nb.graph.output = nb.new_cnode(
                    [prim_node(MakeTuple, {}), *nodes],
                    AbstractTuple([x.abstract for x in nodes]))
            else:
                v = front(value, d, self.size) if want is not None else value
                nb.graph.output = value_node(nb, v)
        return nb.graph

    def batched_graph(self, g: FuncGraph, in_dims: list):
        """``g`` batched for ``in_dims`` (cached), and the batch axes of its output."""
        key = (id(g), tuple(in_dims))
        hit = self.graphs.get(key)
        if hit is not None and hit[0] is g:
            return hit[1], hit[2]
        sub, value, d = self.sub(g, in_dims)
        want = tuple(0 if _batched(e) else None for e in d) if isinstance(d, tuple) else (
            0 if _batched(d) else None)
        new = self.finish(sub, value, d, want)
        self.graphs[key] = (g, new, want)
        return new, want

    def bind_call(self, n: CNode, call: CNode, want) -> None:
        value = self.b.wrap(call)
        if isinstance(value, list):
            value = tuple(value)
        self.set(n, value, want, call)
        self.rebuilt[id(n)] = call

    def graph_call(self, n: CNode, dims) -> None:
        g = n.inputs[0].value
        pairs = [self._front(a) for a in n.inputs[1:]]
        new, want = self.batched_graph(g, [d for _, d in pairs])
        call = self.b.new_cnode([ValueNode(new), *[value_node(self.b, v) for v, _ in pairs]],
                                new.output.abstract, n.loc)
        self.bind_call(n, call, want)

    def switch_call(self, n: CNode, dims) -> None:
        sw = n.inputs[0]
        if _batched(self.dim(sw)):
            return self.select_call(n, sw)
        t, f = sw.inputs[2].value, sw.inputs[3].value
        pairs = [self._front(a) for a in n.inputs[1:]]
        in_dims = [d for _, d in pairs]
        st, vt, dt = self.sub(t, in_dims)
        sf, vf, df = self.sub(f, in_dims)
        if isinstance(dt, tuple):
            want = tuple(0 if _batched(a) or _batched(c) else None for a, c in zip(dt, df))
        else:
            want = 0 if _batched(dt) or _batched(df) else None
        tg, fg = self.finish(st, vt, dt, want), self.finish(sf, vf, df, want)
        new_sw = self.b.new_cnode([sw.inputs[0], self.node(sw.inputs[1]), ValueNode(tg),
                                   ValueNode(fg)], AbstractFunc(None), sw.loc)
        call = self.b.new_cnode([new_sw, *[value_node(self.b, v) for v, _ in pairs]],
                                tg.output.abstract, n.loc)
        self.bind_call(n, call, want)

    def select_call(self, n: CNode, sw: CNode) -> None:
        """Both branches batched and called, then ``Select`` per example (as JAX does for
        ``lax.cond`` under ``vmap``; MindSpore refuses). Branches with effects are refused
        by :meth:`sub`."""
        cond, cd = self.env[id(sw)]
        cond = to_front(cond, cd)
        pairs = [self._front(a) for a in n.inputs[1:]]
        args = [value_node(self.b, v) for v, _ in pairs]
        branches = []
        for g in (sw.inputs[2].value, sw.inputs[3].value):
            new, want = self.batched_graph(g, [d for _, d in pairs])
            value = self.b.wrap(self.b.new_cnode([ValueNode(new), *args],
                                                 new.output.abstract, n.loc))
            branches.append((value, want))
        (vt, wt), (vf, wf) = branches
        if isinstance(n.abstract, AbstractTuple):
            out = tuple(self._select(cond, a, da, c, dc)
                        for a, da, c, dc in zip(vt, wt, vf, wf))
            self.set(n, out, (0,) * len(out))
        else:
            self.set(n, self._select(cond, vt, wt, vf, wf), 0)

    def _select(self, cond: Tensor, a, da, c, dc) -> Tensor:
        a, c = front(a, da, self.size), front(c, dc, self.size)
        mask = F.broadcast_to(F.reshape(cond, (self.size,) + (1,) * (a.ndim - 1)), a.shape)
        return F.select(mask, a, c)

    def while_loop(self, n: CNode, dims) -> None:
        prim = n.inputs[0]
        n_state = prim.value.attrs["n_state"]
        cond, body = n.inputs[1].value, n.inputs[2].value
        init = [self._front(a) for a in n.inputs[3:3 + n_state]]
        inv = [self._front(a) for a in n.inputs[3 + n_state:]]
        inv_dims = [d for _, d in inv]
        state = [d for _, d in init]
        while True:  # a state becomes batched when the body batches it (at most n_state times)
            sb, vb, db = self.sub(body, state + inv_dims)
            grown = [0 if s is not None or _batched(e) else None for s, e in zip(state, db)]
            if grown == state:
                break
            state = grown
        body_g = self.finish(sb, vb, db, tuple(state))
        sc, vc, dc = self.sub(cond, state + inv_dims)
        if _batched(dc):
            raise ValueError("vmap cannot batch a tensor 'while' loop whose condition depends "
                             "on the batched inputs: each example could run a different "
                             "number of iterations. Use a loop with Python bounds, or a "
                             "fixed number of iterations with ops.select." + _where(n))
        cond_g = self.finish(sc, vc, dc, None)
        init_nodes = [value_node(self.b, front(v, d, self.size) if s is not None else v)
                      for (v, d), s in zip(init, state)]
        out_abs = [x.abstract for x in init_nodes]
        keeps = prim.value.attrs.get("history") is not None  # a loop autodiff differentiates
        node = self.b.new_cnode([prim, ValueNode(cond_g), ValueNode(body_g), *init_nodes,
                                 *[value_node(self.b, v) for v, _ in inv]],
                                AbstractTuple(out_abs + [PY_OBJECT_ABS] * keeps), n.loc)
        if not keeps:
            return self.bind_call(n, node, tuple(state))
        items = [self.b.wrap(_item(self.b, node, i)) for i in range(n_state)]
        kept = 0 if any(d is not None for d in state) else None  # batched iterations
        self.set(n, (*items, _item(self.b, node, n_state)), (*state, kept), node)
        self.rebuilt[id(n)] = node

    def while_grad(self, n: CNode, dims) -> None:
        """``WhileGrad`` over the batched loop's iterations: the body's backward graph
        batched like the loop's states (a cotangent becomes batched when the backward
        graph batches it, as a loop state does)."""
        prim = n.inputs[0]
        n_state = prim.value.attrs["n_state"]
        bprop, history = n.inputs[1].value, n.inputs[2]
        state = list(self.dim(history.inputs[1])[:n_state])
        inv = [self._front(a) for a in n.inputs[3:-n_state]]
        douts = [self._front(a) for a in n.inputs[-n_state:]]
        inv_dims = [d for _, d in inv]
        d_dims = [d for _, d in douts]
        while True:
            g, want = self.batched_graph(bprop, state + inv_dims + d_dims)
            grown = [0 if d is not None or _batched(w) else None
                     for d, w in zip(d_dims, want[:n_state])]
            if grown == d_dims:
                break
            d_dims = grown
        dnodes = [value_node(self.b, front(v, d, self.size) if g_ is not None else v)
                  for (v, d), g_ in zip(douts, d_dims)]
        shapes = tensor_shapes(g.output.abstract.elements[n_state:])
        node = self.b.new_cnode([prim_node(WhileGrad, {**prim.value.attrs, "shapes": shapes}),
                                 ValueNode(g), value_node(self.b, self.value(history)),
                                 *[value_node(self.b, v) for v, _ in inv], *dnodes],
                                g.output.abstract, n.loc)
        self.bind_call(n, node, want)

    def hypermap(self, n: CNode, dims) -> None:
        prim = n.inputs[0]
        n_seq = prim.value.attrs["n_seq"]
        table = n.inputs[1].value
        seqs = [(self.value(a), self.dim(a)) for a in n.inputs[2:2 + n_seq]]
        inv = [self._front(a) for a in n.inputs[2 + n_seq:]]
        n_elem = len(seqs[0][0])
        for v, _ in seqs:
            if not all(isinstance(e, Tensor) for e in v):
                raise NotImplementedError("vmap of a HyperMap over non-Tensor elements is "
                                          "not supported yet." + _where(n))
        seq_dims = [d if isinstance(d, tuple) else (d,) * n_elem for _, d in seqs]
        if isinstance(table, FuncGraph):  # one body for all elements: batch uniformly
            uniform = [0 if _batched(d) else None for d in seq_dims]
            new_seqs = [tuple(front(e, ed, self.size) if u is not None else e
                              for e, ed in zip(v, d))
                        for (v, _), d, u in zip(seqs, seq_dims, uniform)]
            g, want = self.batched_graph(table, uniform + [d for _, d in inv])
            new_table, out_dims = g, (want,) * n_elem
            out_abs = [g.output.abstract] * n_elem
        else:
            new_seqs = [tuple(front(e, ed, self.size) if ed is not None else e
                              for e, ed in zip(v, d)) for (v, _), d in zip(seqs, seq_dims)]
            graphs, out_dims = [], []
            for i, gi in enumerate(table):
                elem = [0 if d[i] is not None else None for d in seq_dims]
                g, want = self.batched_graph(gi, elem + [d for _, d in inv])
                graphs.append(g)
                out_dims.append(want)
            new_table, out_dims = tuple(graphs), tuple(out_dims)
            out_abs = [g.output.abstract for g in graphs]
        node = self.b.new_cnode([prim, ValueNode(new_table),
                                 *[value_node(self.b, s) for s in new_seqs],
                                 *[value_node(self.b, v) for v, _ in inv]],
                                AbstractTuple(out_abs), n.loc)
        self.bind_call(n, node, out_dims)


def _item(b: GraphBuilder, node: CNode, i: int) -> CNode:
    return b.new_cnode([prim_node(TupleGetItem, {}), node, ValueNode(i)],
                       node.abstract.elements[i])


def _check(n: CNode, out, dims, size: int) -> None:
    """A rule's result must be the primitive's output with the batch inserted."""
    a = n.abstract
    if isinstance(a, AbstractTuple):
        if not isinstance(out, (tuple, list)) or not isinstance(dims, tuple) or \
                len(out) != len(a.elements) or len(dims) != len(a.elements):
            raise GraphkilnInternalError(f"graphkiln bug: the vmap rule of '{n.prim_name()}' "
                                         f"must give {len(a.elements)} outputs and axes.")
        for o, d, e in zip(out, dims, a.elements):
            _check_one(n, o, d, e, size)
    else:
        _check_one(n, out, dims, a, size)


def _check_one(n, out, d, a, size) -> None:
    if not isinstance(a, AbstractTensor):
        return
    want = a.shape if d is None else a.shape[:d] + (size,) + a.shape[d:]
    if not isinstance(out, Tensor) or out.dtype is not a.dtype or tuple(out.shape) != want:
        got = f"Tensor[{out.dtype}] {list(out.shape)}" if isinstance(out, Tensor) else \
            type(out).__name__
        raise GraphkilnInternalError(
            f"graphkiln bug: the vmap rule of '{n.prim_name()}' gave {got} with batch axis "
            f"{d}, but Tensor[{a.dtype}] {list(want)} was expected.")


# ------------------------------------------------------------------ axes

def _axis_error(axis, rank: int, which: str) -> VmapError:
    return VmapError(f"The axis: {axis} in '{which}' is out of bounds for array of "
                     f"dimension [{-rank},{rank}).")


def _check_axis_type(ax, which: str) -> None:
    if ax is not None and (not isinstance(ax, (int, np.integer)) or isinstance(ax, bool)):
        raise VmapError(f"The axis in vmap`s '{which}' can only be of type Int or None, but "
                        f"got {ax!r} ({type(ax).__name__}).")



def map_axes(x, ax, leaf, mismatch):
    """Walk the nested tuples/lists/dicts of ``x`` alongside an axes spec (one axis for a
    whole subtree, or a tuple with one entry per element) and apply ``leaf(value, axis)``
    at the leaves; ``mismatch(x, ax)`` is the error for a tuple of the wrong length."""
    if isinstance(ax, list):
        ax = tuple(ax)
    if isinstance(x, (tuple, list)):
        if isinstance(ax, tuple):
            if len(ax) != len(x):
                raise mismatch(x, ax)
            return type(x)(map_axes(e, a, leaf, mismatch) for e, a in zip(x, ax))
        return type(x)(map_axes(e, ax, leaf, mismatch) for e in x)
    if isinstance(x, dict) and not isinstance(ax, tuple):
        return {k: map_axes(v, ax, leaf, mismatch) for k, v in x.items()}
    return leaf(x, ax)

class _Inputs:
    """Binds the arguments to ``in_axes``: placeholders for the traced call, and the
    batched values with their axes."""

    def __init__(self, b: GraphBuilder):
        self.b = b
        self.env: dict[int, tuple] = {}
        self.targets: dict[int, Tensor] = {}  # id(placeholder) -> the argument (writes)
        self.sizes: list[int] = []

    def bind(self, x, ax):
        return map_axes(x, ax, self._bind_leaf, lambda x, ax: VmapError(
            f"The 'in_axes' {ax} of vmap must match the structure of its argument, a "
            f"{type(x).__name__} of {len(x)} elements."))

    def _bind_leaf(self, x, ax):
        if isinstance(ax, tuple):
            raise VmapError(f"The 'in_axes' {ax} of vmap is a tuple, but the argument is "
                            f"not a tuple or list ({type(x).__name__}).")
        _check_axis_type(ax, "in_axes")
        if ax is None:
            return x
        if not isinstance(x, Tensor):
            raise VmapError(f"The 'in_axes' of vmap gives axis {ax} to an argument that is "
                            f"not a Tensor ({type(x).__name__}: {x!r}). Tip: use None in "
                            f"'in_axes' for arguments that are not batched.")
        rank = x.ndim
        if not -rank <= ax < rank:
            raise _axis_error(ax, rank, "in_axes")
        ax = int(ax) % rank
        self.sizes.append(x.shape[ax])
        return self.placeholder(x, ax)

    def placeholder(self, x: Tensor, ax: int) -> Tensor:
        b = self.b
        tape, b.tape = b.tape, None
        try:
            node = b.to_node(x)
            value = Tensor._symbolic(node, AbstractTensor(x.dtype, x.shape)) \
                if x._is_param else x
            index = 0 if ax == 0 else (slice(None),) * ax + (0,)
            a = AbstractTensor(x.dtype, x.shape[:ax] + x.shape[ax + 1:])
            ph = b.new_cnode([prim_node(Getitem, {}), node, const_node(index)], a,
                             getattr(node, "loc", None))
        finally:
            b.tape = tape
        self.env[id(ph)] = (value, ax)
        self.targets[id(ph)] = x
        return Tensor._symbolic(ph, a)


def _bind_args(b: GraphBuilder, args: tuple, in_axes):
    inputs = _Inputs(b)
    if isinstance(in_axes, list):
        in_axes = tuple(in_axes)
    if isinstance(in_axes, tuple):
        if len(in_axes) != len(args):
            raise VmapError(f"When vmap`s 'in_axes' is a tuple or list, and its size must be "
                            f"equal to the number of arguments of 'fn': {len(args)}, but got "
                            f"size: {len(in_axes)}.")
        if all(a is None for a in in_axes):
            raise VmapError(f"The 'in_axes' of 'vmap' cannot be all None while 'fn' is not a "
                            f"'CellList', but got {in_axes}.")
        new = tuple(inputs.bind(x, a) for x, a in zip(args, in_axes))
    else:
        _check_axis_type(in_axes, "in_axes")
        if in_axes is None:
            raise VmapError("The 'in_axes' of 'vmap' cannot be a single None while 'fn' is "
                            "not a 'CellList'.")
        new = tuple(inputs.bind(x, in_axes) for x in args)
    if not inputs.sizes:
        raise VmapError("vmap needs at least one batched Tensor argument, but 'in_axes' maps "
                        "none of the arguments.")
    for s in inputs.sizes[1:]:
        if s != inputs.sizes[0]:
            raise VmapError(f"The 'axis_size' of each argument in the scope of 'vmap' should "
                            f"be equal, but got {inputs.sizes[0]} and {s}.")
    return new, inputs, inputs.sizes[0]


# ------------------------------------------------------------------ outputs

class _Outputs:
    def __init__(self, batcher: _Batcher):
        self.bt = batcher

    def leaf(self, x, ax):
        bt = self.bt
        if isinstance(ax, tuple):
            if len(ax) != 1:
                raise VmapError(f"The size of vmap's 'out_axes' should be equal to the "
                                f"number of results of 'fn': 1, but got size: {len(ax)}.")
            ax = ax[0]
        _check_axis_type(ax, "out_axes")
        if isinstance(x, (bool, int, float, np.generic)):
            x = Tensor(x)
        if not isinstance(x, Tensor):
            return x
        value, d = x, None
        if x._node is not None:
            e = bt.env.get(id(x._node))
            if e is not None:
                value, d = e
            else:
                value = Tensor._symbolic(bt.node(x._node), x._abs)
        if ax is None:
            if d is not None:
                raise VmapError("An 'out_axes' entry of vmap is None, but that output depends "
                                "on the batched inputs.")
            return value
        rank = value.ndim + (d is None)
        if not -rank <= ax < rank:
            raise _axis_error(ax, rank, "out_axes")
        ax = int(ax) % rank
        if d is None:
            return broadcast_batch(value, bt.size, ax)
        return move_axis(value, d, ax)

    def tree(self, x, ax):
        return map_axes(x, ax, self.leaf, lambda x, ax: VmapError(
            f"The size of vmap's 'out_axes' should be equal to the number of results of "
            f"'fn': {len(x)}, but got size: {len(ax)}."))


def _output_nodes(out) -> list[Node]:
    leaves, _ = flatten(out)
    return [x._node for x in leaves if isinstance(x, Tensor) and x._node is not None]


def _live(tape: list, roots: list) -> list:
    """The tape nodes the roots depend on, in tape order."""
    live = {id(r) for r in roots}
    kept = []
    for n in reversed(tape):
        if id(n) in live:
            kept.append(n)
            for i in n.inputs:
                live.add(id(i))
    kept.reverse()
    return kept


def _remap_monads(b: GraphBuilder, bt: _Batcher) -> None:
    """Pending weight reads that were rebuilt (calls of reusable or branch graphs) are
    replaced by their batched versions, so the per-example originals stay dead."""
    for chain in (b.u, b.io):
        chain.pending = [bt.rebuilt.get(id(p), p) for p in chain.pending]


def vmap_in_graph(fn, args: tuple, kwargs: dict, in_axes=0, out_axes=0):
    """Trace ``fn`` per example into the current graph and return its batched results."""
    b: GraphBuilder = state.current()
    if out_axes is None:
        raise VmapError("The 'out_axes' of 'vmap' cannot be a single None while 'fn' is not "
                        "a 'CellList'.")
    sliced, inputs, size = _bind_args(b, args, in_axes)
    io_before = (b.io.node, list(b.io.pending), b.io.effects)
    u_before = (b.u.node, list(b.u.pending), b.u.effects)
    out, tape = record_tape(b, fn, sliced, kwargs)
    collectives = [n for n in tape if _batched_effect(n)]
    writes = [n for n in tape if isinstance(n, CNode) and (
        n.prim_name() in _WRITES or _batched_update(n))]
    for n in tape:
        name = None if _batched_effect(n) or n in writes else _effect_in(n)
        if name:
            raise _effect_error(name, n)
    if collectives:  # the per-example calls leave the IO chain; the batched ones join it
        b.io.node, b.io.pending, b.io.effects = io_before
        dropped = {id(n) for n in collectives}
        b.u.pending = [p for p in b.u.pending if id(p) not in dropped]
    if writes:  # the per-example writes leave the memory chain; the batched ones join it
        b.u.node, b.u.pending, b.u.effects = u_before
    bt = _Batcher(b, size)
    bt.env.update(inputs.env)
    bt.targets.update(inputs.targets)
    bt.run(_live(tape, _output_nodes(out) + collectives + writes))
    _remap_monads(b, bt)
    return _Outputs(bt).tree(out, out_axes)


def _example_numbers(idx, size: int):
    """The example number of every index row of ``idx`` (batch first), as a column."""
    lead = tuple(idx.shape[:-1]) + (1,)
    rows = F.reshape(Tensor(np.arange(size), idx.dtype), (size,) + (1,) * (len(lead) - 1))
    return F.broadcast_to(rows, lead)


def _with_columns(idx, at: int, columns: list):
    """Index rows with ``columns`` inserted before their column ``at``."""
    return F.concat((idx[..., :at], *columns, idx[..., at:]), -1)


__all__ = ["vmap_in_graph", "VmapError"]
