"""The backward pass of a tensor ``while`` written as ``While`` loops, for differentiating it.

``WhileGrad`` (the first derivative) walks the iterations its forward loop kept, a Python
list that autodiff cannot see through. To differentiate it again (grad of grad), the same
values are computed from loops that autodiff does differentiate: one loop counts the
iterations ``N``; a second runs ``j = N-1 ... 0`` and, in each step, recomputes the state
of iteration ``j`` from the initial state (a nested loop of ``j`` body steps) and applies
the body's backward graph to it. This costs ``O(N^2)`` body steps and needs a body without
effects (it reruns the body); the result is the ``WhileGrad``'s, as a graph of ``While``,
``Switch`` and primitive nodes, so a third derivative unrolls the same way.
"""
from __future__ import annotations

import graphkiln.ops.functional as F

from ..common import dtype as mstype
from ..common.tensor import Tensor
from ..frontend.builder import GraphBuilder
from ..ir.abstract import AbstractScalar, AbstractTensor, AbstractTuple
from ..ir.anf import CNode, FuncGraph, Node, ValueNode
from ..ir.build import prim_node
from ..ir.structural_prims import MakeTuple, TupleGetItem, While
from .replay import replay_graph

_COUNT = AbstractTensor(mstype.int64, ())
_NONE = AbstractScalar(None)


def _is_tensor(node: Node) -> bool:
    return isinstance(node.abstract, AbstractTensor)


def _item(b: GraphBuilder, node: Node, i: int) -> Node:
    return b.new_cnode([prim_node(TupleGetItem, {}), node, ValueNode(i)],
                       node.abstract.elements[i])


def _tuple(b: GraphBuilder, nodes: list[Node]) -> Node:
    return b.new_cnode([prim_node(MakeTuple, {}), *nodes],
                       AbstractTuple([n.abstract for n in nodes]))


def _none() -> ValueNode:
    return ValueNode(None, _NONE)


def _graph(parent: GraphBuilder, name: str, params: list[tuple[str, object]], build):
    """A closed graph whose output ``build(builder, params)`` records."""
    gb = GraphBuilder(FuncGraph(name, parent.graph.loc), parent)
    with gb:
        ps = [gb.graph.add_param(n, a) for n, a in params]
        gb.graph.output = build(gb, ps)
    return gb.graph


def _loop(b: GraphBuilder, cond: FuncGraph, body: FuncGraph, state: list[Node],
          invariants: list[Node], loc) -> list[Node]:
    node = b.new_cnode([prim_node(While, {"n_state": len(state)}), ValueNode(cond),
                        ValueNode(body), *state, *invariants],
                       AbstractTuple([s.abstract for s in state]), loc)
    return [_item(b, node, i) for i in range(len(state))]


def _sym(b: GraphBuilder, node: Node) -> Tensor:
    return Tensor._symbolic(b.local(node), AbstractTensor(node.abstract.dtype,
                                                          node.abstract.shape))


def recomputed_while_grad(b: GraphBuilder, loop: CNode, bprop: FuncGraph,
                          douts: list[Node]) -> Node:
    """The outputs of ``WhileGrad(@bprop, history of loop, invariants..., douts...)``,
    recorded in ``b`` as loops over ``loop``'s (effect-free) condition and body."""
    n_state = loop.inputs[0].value.attrs["n_state"]
    cond, body = loop.inputs[1].value, loop.inputs[2].value
    init, inv = list(loop.inputs[3:3 + n_state]), list(loop.inputs[3 + n_state:])
    s_par = [(p.name, p.abstract) for p in body.params[:n_state]]
    inv_par = [(p.name, p.abstract) for p in body.params[n_state:]]
    loc = loop.loc

    def step(gb: GraphBuilder, count: Node, state: list[Node], invs: list[Node]) -> list:
        """``count + 1`` and the body applied once."""
        new = replay_graph(gb, body, [*state, *invs], recompute=True)
        nxt = gb.to_node(F.add(_sym(gb, count), 1))
        return [nxt, *[_item(gb, new, i) for i in range(n_state)]]

    # N: how many iterations the loop runs
    count_cond = _graph(b, f"count_{cond.name}", [("k", _COUNT), *s_par, *inv_par],
                        lambda gb, ps: replay_graph(gb, cond, ps[1:], recompute=True))
    count_body = _graph(b, f"count_{body.name}", [("k", _COUNT), *s_par, *inv_par],
                        lambda gb, ps: _tuple(gb, step(gb, ps[0], ps[1:1 + n_state],
                                                       ps[1 + n_state:])))
    start = b.to_node(F.fill(mstype.int64, (), 0))
    n_iter = _loop(b, count_cond, count_body, [start, *init], inv, loc)[0]

    # the state of iteration j: j body steps from the initial state
    to_j_cond = _graph(b, f"to_j_{cond.name}", [("i", _COUNT), *s_par, ("j", _COUNT),
                                                 *inv_par],
                       lambda gb, ps: gb.to_node(F.less(_sym(gb, ps[0]),
                                                        _sym(gb, ps[1 + n_state]))))
    to_j_body = _graph(b, f"to_j_{body.name}", [("i", _COUNT), *s_par, ("j", _COUNT),
                                                 *inv_par],
                       lambda gb, ps: _tuple(gb, step(gb, ps[0], ps[1:1 + n_state],
                                                      ps[2 + n_state:])))
    ts = [i for i in range(n_state) if _is_tensor(init[i])]
    ti = [i for i in range(len(inv)) if _is_tensor(inv[i])]
    plain = [AbstractTensor(inv[i].abstract.dtype, inv[i].abstract.shape) for i in ti]

    def _accumulate(acc, grad):
        """``acc + grad`` as autodiff sums cotangents (``AddN``, in ``acc``'s dtype; the
        cotangents of bool values too)."""
        return F.addn((acc, grad if grad.dtype is acc.dtype else F.cast(grad, acc.dtype)))

    def backward_step(gb: GraphBuilder, ps: list[Node]) -> Node:
        j, d, dp = ps[0], ps[1:1 + len(ts)], ps[1 + len(ts):1 + len(ts) + len(ti)]
        s0 = ps[1 + len(ts) + len(ti):1 + len(ts) + len(ti) + n_state]
        invs = ps[1 + len(ts) + len(ti) + n_state:]
        first = gb.to_node(F.fill(mstype.int64, (), 0))
        s_j = _loop(gb, to_j_cond, to_j_body, [first, *s0], [j, *invs], loc)[1:]
        dfull = [_none() for _ in range(n_state)]
        for k, i in enumerate(ts):
            dfull[i] = d[k]
        grads = replay_graph(gb, bprop, [*s_j, *invs, *dfull], recompute=True)
        new_d = [_item(gb, grads, i) for i in ts]
        new_dp = [gb.to_node(_accumulate(_sym(gb, acc), _sym(gb, _item(gb, grads, n_state + i))))
                  for acc, i in zip(dp, ti)]
        prev = gb.to_node(F.sub(_sym(gb, j), 1))
        return _tuple(gb, [prev, *new_d, *new_dp])

    back_params = [("j", _COUNT), *[(f"d{i}", init[i].abstract) for i in ts],
                   *[(f"dp{i}", a) for i, a in zip(ti, plain)], *s_par, *inv_par]
    back_cond = _graph(b, f"back_{cond.name}", back_params,
                       lambda gb, ps: gb.to_node(F.greater_equal(_sym(gb, ps[0]), 0)))
    back_body = _graph(b, f"back_{body.name}", back_params, backward_step)
    last = b.to_node(F.sub(_sym(b, n_iter), 1))
    zeros = [b.to_node(F.fill(a.dtype, a.shape, 0)) for a in plain]
    out = _loop(b, back_cond, back_body, [last, *[douts[i] for i in ts], *zeros],
                [*init, *inv], loc)
    items = [_none() for _ in range(n_state + len(inv))]
    for k, i in enumerate(ts):
        items[i] = out[1 + k]
    for k, i in enumerate(ti):
        items[n_state + i] = out[1 + len(ts) + k]
    return _tuple(b, items)
