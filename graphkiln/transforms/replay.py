"""The tape replayer that every trace-time transformation is built on.

A transformation traces the user's function into the current graph while the builder
keeps a *tape* (the nodes in creation order, a topological order), then *interprets* the
tape: autodiff walks it backwards with cotangents, vmap forwards with batch axes. What is
shared lives here, as in torch.fx's ``Interpreter`` or JAX's traces:

* :func:`record_tape` runs the function with the tape on;
* :func:`node_value` / :func:`value_node` convert between IR nodes and the Python-level
  values rules receive and return (symbolic Tensors, constants, tuples);
* :class:`TapeInterpreter` sorts each node into a *call of a* ``Switch``, a *call of a
  graph* (reusable, lazy-inline), a *structural* primitive (tuples, ``Depend``, monads,
  ``While``...) or an ordinary *primitive*, and calls the transformation's method for it.

A transformation supplies only its rules: ``primitive`` (the bprop or batching table),
``switch_call``, ``graph_call`` and a ``STRUCTURAL`` table of method names by primitive.
"""
from __future__ import annotations

from collections.abc import Callable

import numpy as np

from ..common.tensor import Tensor
from ..errors import GraphkilnInternalError
from ..frontend.builder import GraphBuilder
from ..frontend.control import call
from ..ir.abstract import (
    AbstractRef,
    AbstractScalar,
    AbstractSequence,
    AbstractTensor,
    AbstractTuple,
)
from ..ir.anf import CNode, FuncGraph, Node, ValueNode
from ..ir.build import const_node
from ..ir.clone import inline_body
from ..ir.primitive import Primitive


def record_tape(b: GraphBuilder, fn: Callable, args: tuple, kwargs: dict,
                convert: bool = True):
    """``fn(*args, **kwargs)`` traced into ``b``'s graph; returns ``(output, tape)``.

    An enclosing transformation's tape (nested ``grad``/``vmap``) receives the nodes too.
    ``convert=False`` calls ``fn`` as it is (graphkiln's own graph-building code)."""
    prev = b.tape
    b.tape = []
    try:
        out = call(fn, *args, **kwargs) if convert else fn(*args, **kwargs)
    finally:
        tape, b.tape = b.tape, prev
    if prev is not None:
        prev.extend(tape)
    return out, tape


# effects that only show something (output placeholders): a backward pass that recomputes
# a forward does not show them again
_DISPLAY_EFFECTS = frozenset({"Print", "Raise", "ScalarSummary", "TensorSummary",
                              "ImageSummary", "HistogramSummary"})


def replay_graph(b: GraphBuilder, g: FuncGraph, args: list[Node],
                 recompute: bool = False) -> Node:
    """Copy ``g``'s body into ``b``'s graph, on its tape, with params bound to ``args``.

    ``recompute``: the copy recomputes values a backward pass needs, after the forward
    ran; prints, raises and summaries are left out (their placeholder result stays)."""
    if not recompute:
        return inline_body(g, b.graph, args, b.new_cnode)

    def copy(inputs: list, abstract, loc) -> Node:
        fn = inputs[0]
        if isinstance(fn, ValueNode) and isinstance(fn.value, Primitive) \
                and fn.value.name in _DISPLAY_EFFECTS:
            zero = np.zeros((), np.int32)
            return ValueNode(zero, AbstractTensor(abstract.dtype, (), zero))
        return b.new_cnode(inputs, abstract, loc)
    return inline_body(g, b.graph, args, copy)


# ------------------------------------------------------------------ values and nodes

def const_value(value, a):
    """A constant as rules see it: tensors as Tensors, tuples recursively."""
    if isinstance(a, AbstractTensor):
        return Tensor._from_array(np.asarray(value), a.dtype)
    if isinstance(a, AbstractTuple) and isinstance(value, (tuple, list)):
        return type(value)(const_value(v, e) for v, e in zip(value, a.elements))
    return value


def node_value(b: GraphBuilder, node: Node):
    """The Python-level value of ``node``: what the primitive that produced it returned
    (a symbolic Tensor, a constant, a tuple of those), as rules receive their inputs."""
    if isinstance(node, ValueNode):
        return const_value(node.value, node.abstract)
    if isinstance(node, CNode) and node.prim_name() == "MakeTuple":
        return tuple(node_value(b, i) for i in node.inputs[1:])
    a = node.abstract
    if isinstance(a, AbstractTensor) and not isinstance(a, AbstractRef):
        return Tensor._symbolic(node, AbstractTensor(a.dtype, a.shape))
    if isinstance(a, AbstractTuple):  # a multi-output op: its items
        return tuple(b.wrap(node))
    if isinstance(a, AbstractScalar):
        return a.value if a.is_known else b.wrap(node)  # a constant, or a run-time scalar
    if isinstance(a, AbstractSequence):  # a dynamic length sequence
        return b.wrap(node)
    return node


def value_node(b: GraphBuilder, v) -> Node:
    """The IR node for a Python-level value (the inverse of :func:`node_value`)."""
    if isinstance(v, Node):
        return b.local(v)
    if isinstance(v, (tuple, list)):
        nodes = [value_node(b, e) for e in v]
        if all(isinstance(n, ValueNode) for n in nodes):
            return const_node(type(v)(const_value(n.value, n.abstract) for n in nodes))
        return b.tuple_node(nodes, isinstance(v, list))
    return b.to_node(v)


# ------------------------------------------------------------------ the interpreter

class TapeInterpreter:
    """Dispatches recorded nodes to a transformation's methods by kind.

    ``STRUCTURAL`` maps a primitive name to the name of the method that handles it; every
    method takes the node and one transformation-specific argument (autodiff: the node's
    cotangent; vmap: its inputs' batch axes).
    """

    STRUCTURAL: dict[str, str] = {}

    def __init__(self, b: GraphBuilder):
        self.b = b

    def dispatch(self, n: CNode, extra) -> None:
        fn = n.inputs[0]
        if isinstance(fn, CNode):
            if fn.prim_name() == "Switch":
                return self.switch_call(n, extra)
            raise GraphkilnInternalError(f"graphkiln bug: {type(self).__name__} cannot "
                                         f"handle a call of {fn!r}")
        value = fn.value
        if isinstance(value, FuncGraph):
            return self.graph_call(n, extra)
        if not isinstance(value, Primitive):
            raise GraphkilnInternalError(f"graphkiln bug: {type(self).__name__} cannot "
                                         f"handle a call of {value!r}")
        method = self.STRUCTURAL.get(value.name)
        if method is not None:
            return getattr(self, method)(n, extra)
        return self.primitive(n, value, extra)

    # the transformation's rules
    def primitive(self, n: CNode, prim: Primitive, extra) -> None:
        raise NotImplementedError

    def switch_call(self, n: CNode, extra) -> None:
        raise NotImplementedError

    def graph_call(self, n: CNode, extra) -> None:
        raise NotImplementedError
