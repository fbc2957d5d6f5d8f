"""Forward-mode automatic differentiation (``jvp``): a third interpreter over the tape.

The function is traced with the builder's tape on (:func:`replay.record_tape`), then the
tape is walked *forwards* carrying a tangent per node. A primitive's tangent is its
backward rule transposed: ``v -> bprop(x, out, v)`` is linear in ``v``, so ``J t`` is the
gradient with respect to ``v`` of ``sum_i <bprop_i(v), t_i>``, which the reverse-mode
interpreter (:class:`autodiff.Backprop`) takes over the few nodes the rule records. So
every primitive with a backward rule has a forward rule, and this module holds no table
of its own: only what to do at structural nodes, ``Switch`` calls (a ``Switch`` of the
branches' tangent graphs), graph calls (replayed) and ``While`` (a second loop that
carries the tangents). The passes fold the transposition away (constant folding, CSE).
"""
from __future__ import annotations

import functools

import graphkiln.ops.functional as F

from ..common import dtype as mstype
from ..common.tensor import Tensor
from ..frontend.builder import GraphBuilder
from ..ir import tracing_state as state
from ..ir.abstract import AbstractScalar, AbstractTensor, AbstractTuple
from ..ir.anf import CNode, FuncGraph, Node, ValueNode
from ..ir.build import prim_node
from ..ir.primitive import Primitive
from ..ir.structural_prims import MakeTuple, Switch, TupleGetItem, While
from .autodiff import Backprop, GradError, backward_rule
from .replay import TapeInterpreter, node_value, record_tape, replay_graph

# primitives whose outputs carry no tangent: monads, effects, constant makers
_NO_TANGENT = ("UpdateState", "Print", "Switch",
               "ZerosLike", "OnesLike", "Fill")
# complex-typed outputs that are real numbers (the modulus): their tangents are real too
# (their backward rules take a complex cotangent whole, as MindSpore's, which transposed
# would give the tangent an imaginary part)
_REAL_VALUED = ("Abs",)


def _has_tangent(node: Node) -> bool:
    """Float and complex loop states carry a tangent through a ``While``."""
    a = node.abstract
    return isinstance(a, AbstractTensor) and (a.dtype.is_float or a.dtype.is_complex)


def _takes_tangent(node: Node) -> bool:
    """Inputs of a jvp: float, complex and integer tensors (MindSpore differentiates an
    int32 ``x * y`` to an int32 tangent); bools carry none."""
    a = node.abstract
    return isinstance(a, AbstractTensor) and (a.dtype.is_float or a.dtype.is_complex
                                              or a.dtype.is_int)


def _pair(c: Tensor, t: Tensor) -> Tensor:
    """``<c, t>``, the real inner product under which a backward rule is the adjoint of
    the tangent map: ``sum(c * t)``, for complex values ``sum(real(conj(c) * t))`` (so the
    gradient with respect to a complex ``c``, ``ds/da + i ds/db``, is ``J t``)."""
    if c.dtype.is_complex:
        return F.reduce_sum(F.real(F.mul(F.conj(c), F.cast(t, c.dtype))))
    return F.reduce_sum(F.mul(c, F.cast(t, c.dtype)))


class ForwardMode(TapeInterpreter):
    """Tangent propagation over one tape: ``tangents`` maps id(node) -> a Tensor (or a
    tuple, for a tuple-valued node) whose value is the directional derivative."""

    STRUCTURAL = {
        "MakeTuple": "make_tuple", "TupleGetItem": "tuple_getitem",
        "Depend": "first_input", "TensorMove": "first_input", "Load": "first_input",
        "While": "while_loop", "WhileGrad": "while_loop",
        "HookBackward": "pass_through",  # its hook sees gradients, never tangents
        **{name: "no_tangent" for name in _NO_TANGENT},
    }

    def __init__(self, b: GraphBuilder, tangents: dict[int, object]):
        super().__init__(b)
        self.tangents = tangents

    def run(self, tape: list[CNode]) -> None:
        for n in tape:
            ts = [self.tangents.get(id(i)) for i in n.inputs[1:]]
            if any(t is not None for t in ts):
                self.dispatch(n, ts)

    def tangent(self, node: Node):
        return self.tangents.get(id(node))

    def set(self, node: Node, t) -> None:
        if t is not None:
            self.tangents[id(node)] = t

    # ------------------------------------------------------------------ rules
    def primitive(self, n: CNode, prim: Primitive, ts: list) -> None:
        rule = backward_rule(prim)
        if rule is None:
            return
        b, args = self.b, n.inputs[1:]
        ins = [node_value(b, a) for a in args]
        out = node_value(b, n)
        cotangent = (tuple(F.zeros_like(o) if isinstance(o, Tensor) else None for o in out)
                     if isinstance(out, tuple) else F.zeros_like(out))
        seeds = [b.to_node(c) for c in _leaves(cotangent)]

        def pairing():
            cts = rule(*ins, out, cotangent, **prim.attrs)
            terms = [_pair(c, t) for c, t in zip(_leaves(cts), _leaves_like(cts, ts))
                     if isinstance(c, Tensor) and isinstance(t, Tensor)]
            if len(terms) > 1:  # an int and a float input of one primitive: one dtype
                common = functools.reduce(mstype.promote, (t.dtype for t in terms))
                return F.addn(tuple(F.cast(t, common) for t in terms))
            return terms[0] if terms else None

        s, tape = record_tape(b, pairing, (), {})
        if s is None:
            return
        bp = Backprop(b, tape, seeds)
        bp.add(b.to_node(s), F.ones_like(s))
        bp.run()
        found = [bp.result(v) for v in seeds]
        if isinstance(cotangent, tuple):
            it = iter(found)
            self.set(n, tuple(next(it) if isinstance(c, Tensor) else None for c in cotangent))
        elif prim.name in _REAL_VALUED and out.dtype.is_complex and found[0] is not None:
            self.set(n, F.cast(F.real(found[0]), out.dtype))
        else:
            self.set(n, found[0])

    def no_tangent(self, n: CNode, ts: list) -> None:
        """Monads, effects and constant makers have no tangent."""

    def make_tuple(self, n: CNode, ts: list) -> None:
        self.set(n, tuple(ts))

    def tuple_getitem(self, n: CNode, ts: list) -> None:
        t = ts[0]
        if isinstance(t, tuple):
            self.set(n, t[n.inputs[2].value])

    def pass_through(self, n: CNode, ts: list) -> None:
        """An identity of one input or of several (a tuple)."""
        self.set(n, ts[0] if len(ts) == 1 else tuple(ts))

    def first_input(self, n: CNode, ts: list) -> None:
        """``Depend``, ``TensorMove``, ``Load``: the tangent of the first input."""
        self.set(n, ts[0])

    def while_loop(self, n: CNode, ts: list) -> None:
        """``While(@c, @b, s..., inv...)`` -> ``While(@c', @b', s..., ts..., inv..., tinv...)``
        whose body also advances the tangents of the float state (a second loop over the
        same iterations; the primal loop stays for the program's own uses)."""
        b = self.b
        if n.prim_name() == "WhileGrad":
            raise GradError("graphkiln cannot take a forward-mode derivative (jvp) of the "
                            "gradient of a tensor 'while' loop yet.")
        n_state = n.inputs[0].value.attrs["n_state"]
        cond, body = n.inputs[1].value, n.inputs[2].value
        init, inv = n.inputs[3:3 + n_state], n.inputs[3 + n_state:]
        t_init, t_inv = ts[2:2 + n_state], ts[2 + n_state:]
        st = [i for i, a in enumerate(init) if _has_tangent(a)]
        it = [j for j, t in enumerate(t_inv) if t is not None]
        cond2, body2 = (loop_jvp(g, n_state, st, it, b, with_body) for g, with_body in
                        ((cond, False), (body, True)))
        t0 = [_dense(b, t_init[i], init[i].abstract) for i in st]
        args = [*init, *t0, *inv, *[b.to_node(t_inv[j]) for j in it]]
        out_abs = AbstractTuple([a.abstract for a in args[:n_state + len(st)]])
        loop = b.new_cnode([prim_node(While, {"n_state": n_state + len(st)}),
                            ValueNode(cond2), ValueNode(body2), *args], out_abs, n.loc)
        tangents = [None] * n_state
        for k, i in enumerate(st):
            item = b.new_cnode([prim_node(TupleGetItem, {}), loop, ValueNode(n_state + k)],
                               out_abs.elements[n_state + k])
            tangents[i] = node_value(b, item)
        self.set(n, tuple(tangents))

    def graph_call(self, n: CNode, ts: list) -> None:
        """A call of a reusable graph: its body replayed here carries the tangents."""
        graph = n.inputs[0].value
        out, tape = record_tape(self.b, replay_graph, (self.b, graph, list(n.inputs[1:])),
                                {})
        self.run(tape)
        self.set(n, self.tangent(out))

    def switch_call(self, n: CNode, ts: list) -> None:
        """``Switch(c, @t, @f)(args)`` -> ``Switch(c, @jvp_t, @jvp_f)(args, tangents)``."""
        sw, args, b = n.inputs[0], n.inputs[1:], self.b
        with_t = [i for i, t in enumerate(ts) if t is not None]
        jt, jf = (branch_jvp(sw.inputs[k].value, with_t, b) for k in (2, 3))
        tnodes = [b.to_node(ts[i]) for i in with_t]
        swj = b.new_cnode([prim_node(Switch, {}), sw.inputs[1], ValueNode(jt),
                           ValueNode(jf)], sw.abstract, sw.loc)
        call = b.new_cnode([swj, *args, *tnodes], jt.output.abstract, n.loc)
        if isinstance(n.abstract, AbstractTuple):
            items = [b.new_cnode([prim_node(TupleGetItem, {}), call, ValueNode(i)], e)
                     for i, e in enumerate(call.abstract.elements)]
            self.set(n, tuple(node_value(b, it) if isinstance(it.abstract, AbstractTensor)
                              else None for it in items))
        else:
            self.set(n, node_value(b, call))


def _leaves(x) -> list:
    return [e for item in x for e in _leaves(item)] if isinstance(x, (tuple, list)) else [x]


def _leaves_like(cts, ts) -> list:
    """The tangents aligned with the leaves of the cotangents ``cts`` (one per input)."""
    out = []
    for c, t in zip(cts, ts):
        if isinstance(c, (tuple, list)):
            out += _leaves_like(c, t if isinstance(t, (tuple, list)) else [None] * len(c))
        else:
            out.append(t)
    return out


def branch_jvp(g: FuncGraph, with_t: list[int], parent: GraphBuilder) -> FuncGraph:
    """A graph ``(params..., tangents of params[with_t]...) -> tangent of the output``
    (zeros where a tensor output gets none) for the branch graph ``g``."""
    bb = GraphBuilder(FuncGraph(f"jvp_{g.name}", g.loc), parent)
    with bb:
        params = [bb.graph.add_param(p.name, p.abstract) for p in g.params]
        tparams = [bb.graph.add_param(f"t_{params[i].name}", params[i].abstract)
                   for i in with_t]
        out, tape = record_tape(bb, replay_graph, (bb, g, params), {})
        fm = ForwardMode(bb, {id(params[i]): node_value(bb, tp)
                              for i, tp in zip(with_t, tparams)})
        fm.run(tape)
        t = fm.tangent(out)
        if isinstance(out.abstract, AbstractTuple):
            t = t if isinstance(t, tuple) else (None,) * len(out.abstract.elements)
            outs = [_dense(bb, ti, e) for ti, e in zip(t, out.abstract.elements)]
            bb.graph.output = bb.new_cnode([prim_node(MakeTuple, {}), *outs],
                                           AbstractTuple([o.abstract for o in outs]))
        else:
            bb.graph.output = _dense(bb, t, out.abstract)
    return bb.graph


def loop_jvp(g: FuncGraph, n_state: int, st: list[int], it: list[int],
             parent: GraphBuilder, with_body: bool) -> FuncGraph:
    """The condition (``with_body`` False) or body of the tangent-carrying loop: params
    ``(state..., tangents of state[st]..., invariants..., tangents of invariants[it]...)``;
    the body returns ``(new state..., their tangents...)``."""
    bb = GraphBuilder(FuncGraph(f"jvp_{g.name}", g.loc), parent)
    with bb:
        ps = [bb.graph.add_param(p.name, p.abstract) for p in g.params[:n_state]]
        pts = [bb.graph.add_param(f"t_{ps[i].name}", ps[i].abstract) for i in st]
        pinv = [bb.graph.add_param(p.name, p.abstract) for p in g.params[n_state:]]
        ptinv = [bb.graph.add_param(f"t_{pinv[j].name}", pinv[j].abstract) for j in it]
        out, tape = record_tape(bb, replay_graph, (bb, g, ps + pinv), {})
        if not with_body:
            bb.graph.output = out
            return bb.graph
        seeds = {id(ps[i]): node_value(bb, p) for i, p in zip(st, pts)}
        seeds.update({id(pinv[j]): node_value(bb, p) for j, p in zip(it, ptinv)})
        fm = ForwardMode(bb, seeds)
        fm.run(tape)
        t = fm.tangent(out)
        t = t if isinstance(t, tuple) else (None,) * n_state
        elems = out.abstract.elements
        items = [bb.new_cnode([prim_node(TupleGetItem, {}), out, ValueNode(i)], elems[i])
                 for i in range(n_state)]
        outs = items + [_dense(bb, t[i], elems[i]) for i in st]
        bb.graph.output = bb.new_cnode([prim_node(MakeTuple, {}), *outs],
                                       AbstractTuple([o.abstract for o in outs]))
    return bb.graph


def _dense(b: GraphBuilder, t, a) -> Node:
    if isinstance(a, AbstractTensor):
        return b.to_node(t if t is not None else F.fill(a.dtype, a.shape, 0))
    return ValueNode(None, AbstractScalar(None))


def jvp_in_graph(fn, primals: tuple, tangents: tuple, has_aux: bool = False):
    """Trace ``fn(*primals)`` into the current graph with the tangents ``tangents`` (one
    Tensor per primal) and return ``(output, output tangent[, aux])``."""
    b: GraphBuilder = state.current()
    if len(primals) != len(tangents):
        raise ValueError(f"For 'jvp', v has invalid length: should be {len(primals)} (one "
                         f"Tensor per input), but got {len(tangents)}.")
    syms, seeds = [], {}
    for x, t in zip(primals, tangents):
        if not isinstance(x, Tensor) or not isinstance(t, Tensor):
            raise TypeError(f"For 'jvp', 'inputs' and 'v' must be Tensors or tuples of "
                            f"Tensors, but got {type(x).__name__} and {type(t).__name__}.")
        if tuple(x.shape) != tuple(t.shape):
            raise ValueError(f"For 'jvp', each Tensor in 'v' must have the shape of its "
                             f"input, but got {list(t.shape)} for an input of shape "
                             f"{list(x.shape)}.")
        node = b.to_node(x)  # a concrete input becomes a ValueNode: its identity is the seed
        syms.append(Tensor._symbolic(node, AbstractTensor(x.dtype, x.shape)))
        if _takes_tangent(node):
            seeds[id(node)] = F.cast(t, x.dtype)
    out, tape = record_tape(b, fn, tuple(syms), {})
    aux = None
    if has_aux:
        if not isinstance(out, tuple) or len(out) < 2:
            raise GradError("With has_aux=True the function must return a tuple "
                            "(output, aux...).")
        # MindSpore's aux: the second output alone, or the rest as a tuple
        out, aux = out[0], out[1] if len(out) == 2 else out[1:]
    fm = ForwardMode(b, seeds)
    fm.run(tape)
    outs = out if isinstance(out, tuple) else (out,)
    jvps = []
    for o in outs:
        if not isinstance(o, Tensor):
            raise GradError(f"The output of the function given to jvp must be a Tensor or a "
                            f"tuple of Tensors, but got {type(o).__name__}.")
        t = fm.tangent(o._node) if o._node is not None else None
        jvps.append(t if t is not None else F.zeros_like(o))
    jvp = tuple(jvps) if isinstance(out, tuple) else jvps[0]
    return (out, jvp, aux) if has_aux else (out, jvp)


__all__ = ["jvp_in_graph", "ForwardMode"]
