"""Reverse-mode automatic differentiation as a graph transformation.

The forward function is traced into the current graph while the builder keeps a *tape*
(the nodes in creation order, which is a topological order). The backward pass walks the
tape in reverse and applies each primitive's backward rule (``OpDef.bprop``), whose ops are
recorded into the same graph, so the passes optimise forward and backward together.
A ``Switch`` differentiates into a ``Switch`` of the branches' backward graphs (each
recomputes its branch's forward values); contributions to one value are summed pairwise
with ``AddN``. Weights receive the cotangents of their ``Load``s.
"""
from __future__ import annotations

from collections.abc import Callable

import graphkiln.ops.functional as F

from ..common import dtype as mstype
from ..common.mutable import is_mutable
from ..common.parameter import stand_in
from ..common.signatures import parameters
from ..common.sparse_tensor import SPARSE_TYPES
from ..common.symbolic_scalar import SymbolicScalar
from ..common.symbolic_sequence import SymbolicSequence
from ..common.tensor import Tensor
from ..frontend.builder import GraphBuilder
from ..frontend.control import call
from ..frontend.custom_bprop import custom_bprop_key
from ..frontend.pytree import flatten, unflatten
from ..ir import tracing_state as state
from ..ir.abstract import (
    PY_OBJECT_ABS,
    U_ABS,
    AbstractMonad,
    AbstractRef,
    AbstractScalar,
    AbstractSequence,
    AbstractTensor,
    AbstractTuple,
)
from ..ir.anf import CNode, FuncGraph, Node, ValueNode, iter_nodes, toposort
from ..ir.build import prim_node
from ..ir.primitive import OpDef, Primitive
from ..ir.structural_prims import (
    U_MONAD,
    Depend,
    Load,
    MakeTuple,
    Switch,
    TupleGetItem,
    While,
    WhileGrad,
    tensor_shapes,
)
from ..ir.tape import input_hooks, live_hooks
from ..ops.defs import sequence as SEQ
from ..ops.defs.side_effects import TensorMove
from .replay import TapeInterpreter, node_value, record_tape, replay_graph
from .while_recompute import recomputed_while_grad

_NO_GRAD_OPS = {"UpdateState", "Print", "Switch",
                "ZerosLike", "OnesLike", "Fill"}


class GradError(TypeError):
    """The requested gradient cannot be taken (non-differentiable output, bad sens...)."""


def zeros_of(a: AbstractTensor, like: Callable[[], Tensor] | None = None) -> Tensor:
    """Zeros of ``a``'s dtype and shape; where that shape is dynamic, zeros like the
    symbolic tensor ``like()`` gives (its size is known only when the graph runs)."""
    if like is not None and any(d < 0 for d in a.shape):
        return F.zeros_like(like())
    return F.fill(a.dtype, a.shape, 0)


def add_ct(a, b):
    """Sum two cotangents (pairwise ``AddN``, as MindSpore accumulates)."""
    if a is None:
        return b
    if b is None:
        return a
    if type(a) is SymbolicSequence:  # a dynamic length sequence's: item by item
        return SEQ.SequenceItemAdd(a, b)
    if isinstance(a, dict) or isinstance(b, dict):
        out = dict(a)
        for k, v in b.items():
            out[k] = add_ct(out.get(k), v)
        return out
    if a.dtype is not b.dtype:
        b = F.cast(b, a.dtype)
    return F.addn((a, b))


def backward_rule(prim: Primitive):
    """The ``bprop`` rule of a differentiable primitive (None when it has no gradient);
    a GradError when it should have one and does not."""
    return opdef_rule(prim.opdef)


def opdef_rule(opdef: OpDef):
    """:func:`backward_rule` of an OpDef."""
    if not opdef.differentiable:
        return None
    if opdef.bprop is None:
        raise GradError(f"The primitive '{opdef.name}' has no backward rule, so "
                        f"graphkiln cannot differentiate through it.")
    return opdef.bprop


_DEFAULTS: dict = {}  # OpDef name -> the defaults of the inputs its bprop rule takes


def omitted_inputs(opdef: OpDef, rule, n_given: int) -> list:
    """The default values of the inputs a call left out (``ops.ReduceMax()(x)`` records
    one input; its rule also takes ``axis``), read from the op's inference signature."""
    defaults = _DEFAULTS.get(opdef.name)
    if defaults is None:
        names = [name for name, _, _ in parameters(rule)]
        n_inputs = names.index("out") if "out" in names else 0  # else: (*inputs, ...) rules
        infer = parameters(opdef.infer)[:n_inputs]
        defaults = _DEFAULTS[opdef.name] = [default for _, _, default in infer]
    return defaults[n_given:]


class Backprop(TapeInterpreter):
    """Reverse-mode interpretation of one tape inside one builder: walks it backwards,
    accumulating cotangents and applying each primitive's ``bprop`` rule."""

    STRUCTURAL = {
        "MakeTuple": "make_tuple", "TupleGetItem": "tuple_getitem",
        "Depend": "first_input", "TensorMove": "first_input", "Load": "first_input",
        "While": "while_loop", "WhileGrad": "while_grad",
        **{name: "no_gradient" for name in _NO_GRAD_OPS},
    }

    def __init__(self, builder: GraphBuilder, tape: list[CNode], seeds: list[Node]):
        super().__init__(builder)
        self.tape = tape
        self.ct: dict[int, object] = {}
        self.needs: set[int] = {id(s) for s in seeds}
        for n in tape:
            if any(id(i) in self.needs for i in n.inputs[1:]) or (
                    isinstance(n.inputs[0], CNode) and id(n.inputs[0]) in self.needs):
                self.needs.add(id(n))

    def add(self, node: Node, value) -> None:
        if value is None or id(node) not in self.needs:
            return
        a = node.abstract
        if isinstance(a, AbstractTensor) and a.dtype is mstype.bool_:
            return  # booleans carry no gradient
        self.ct[id(node)] = add_ct(self.ct.get(id(node)), value)

    def run(self) -> None:
        for n in reversed(self.tape):
            g = self.ct.get(id(n))
            if g is not None:
                self.dispatch(n, g)

    def result(self, node: Node):
        return self.ct.get(id(node))

    def sym(self, node: Node):
        return node_value(self.b, node)

    # ------------------------------------------------------------------ rules
    def primitive(self, n: CNode, prim: Primitive, g) -> None:
        rule = backward_rule(prim)
        if rule is None:
            return
        args = n.inputs[1:]
        ins = [self.sym(a) for a in args]
        ins += omitted_inputs(prim.opdef, rule, len(ins))
        # the rule's nodes are located at the forward node's line (as MindSpore's
        # backward nodes), without a walk of the stack for each
        outer, self.b.location = self.b.location, n.loc or self.b.location
        try:
            cts = rule(*ins, self.sym(n), _dense(g, n, self.b), **prim.attrs)
        finally:
            self.b.location = outer
        for a, c in zip(args, cts):
            if c is None:  # (a constant is in ``needs`` only as a differentiated input)
                continue
            if isinstance(c, tuple):
                c = {i: v for i, v in enumerate(c) if v is not None}
            self.add(a, c)

    def while_grad(self, n: CNode, g) -> None:
        """The backward pass of a tensor ``while`` on a differentiated path (a second
        derivative): differentiated through the same values computed by loops that
        rerun the body (:mod:`while_recompute`), which needs a body without effects."""
        n_state = n.inputs[0].value.attrs["n_state"]
        bprop: FuncGraph = n.inputs[1].value
        history, args = n.inputs[2], n.inputs[3:]
        invariants, douts = args[:-n_state], args[-n_state:]
        if not any(id(d) in self.needs for d in douts) and not (
                any(id(a) in self.needs for a in (history, *invariants))
                and _uses_params(bprop, bprop.params[:-n_state])):
            return  # a Jacobian that only the trip count changes: no contribution
        loop = history.inputs[1]
        init = loop.inputs[3:3 + n_state]
        if any(isinstance(a.abstract, AbstractMonad) for a in init):
            raise GradError("graphkiln cannot differentiate the gradient of a tensor "
                            "'while' loop whose body has side effects (a second "
                            "derivative would rerun them). Move the effects out of the "
                            "loop or use a loop with Python bounds (unrolled).")
        out, tape = record_tape(self.b, recomputed_while_grad,
                                (self.b, loop, bprop, list(douts)), {}, convert=False)
        seeds = [a for a in (*init, *invariants, *douts) if id(a) in self.needs]
        inner = Backprop(self.b, tape, seeds)
        inner.add(out, g)
        inner.run()
        for a in seeds:
            self.add(a, inner.result(a))

    def no_gradient(self, n: CNode, g) -> None:
        """Monads, effects and constant makers pass no cotangent on."""

    def make_tuple(self, n: CNode, g) -> None:
        if isinstance(g, dict):
            args = n.inputs[1:]
            for i, v in g.items():
                self.add(args[i], v)

    def tuple_getitem(self, n: CNode, g) -> None:
        self.add(n.inputs[1], {int(n.inputs[2].value): g})

    def first_input(self, n: CNode, g) -> None:
        """``Depend``, ``TensorMove``, ``Load``: the cotangent flows to the first input."""
        self.add(n.inputs[1], g)

    def switch_call(self, n: CNode, g) -> None:
        sw = n.inputs[0]
        args = n.inputs[1:]
        douts = _flat_douts(self.b, g, n)
        t, f = sw.inputs[2].value, sw.inputs[3].value
        tb, fb = branch_bprop(t, douts, self.b), branch_bprop(f, douts, self.b)
        b = self.b
        dout_nodes = [b.to_node(d) for d in douts]
        swb = b.new_cnode([prim_node(Switch, {}), sw.inputs[1], ValueNode(tb),
                           ValueNode(fb)], sw.abstract, sw.loc)
        call = b.new_cnode([swb, *_weights_before(b, n, (t, f)), *dout_nodes], tb.output.abstract,
                           n.loc)
        self.add_items(call, args)

    def add_items(self, call: CNode, args) -> None:
        """Item ``i`` of a backward call's tuple is the cotangent of ``args[i]``."""
        elems = call.abstract.elements
        for i, a in enumerate(args):
            if not carries_cotangent(a.abstract) or id(a) not in self.needs:
                continue
            item = self.b.new_cnode([prim_node(TupleGetItem, {}), call, ValueNode(i)],
                                    elems[i])
            self.add(a, self.sym(item))

    def graph_call(self, n: CNode, g) -> None:
        """A call of a reusable graph: call its backward graph (reused the same way); a
        cell with a custom ``bprop``: the user's rule, traced here."""
        graph = n.inputs[0].value
        args = n.inputs[1:]
        douts = _flat_douts(self.b, g, n)
        user_rule = self.b.root.reusable.get(custom_bprop_key(graph))
        if user_rule is not None:
            outs = list(self.sym(n)) if isinstance(n.abstract, AbstractTuple) else \
                [self.sym(n)]
            cts = user_rule([self.sym(a) for a in args], outs, douts)
            for a, c in zip(args, cts):
                if c is not None and not isinstance(a, ValueNode):
                    self.add(a, c)
            return
        key = ("bprop", id(graph), tuple(_dout_abstract(d) for d in douts))
        bprop = self.b.root.reusable.get(key)
        if bprop is None:
            # registered before it is built: a recursive graph's backward graph calls itself
            bprop = FuncGraph(f"bprop_{graph.name}", graph.loc)
            bprop.flags["reusable"] = True
            bprop.flags.update((k, v) for k, v in graph.flags.items()
                               if k in ("recursive", "no_inline"))
            self.b.root.reusable[key] = bprop
            branch_bprop(graph, douts, self.b, bprop)
        b = self.b
        call = b.new_cnode([ValueNode(bprop), *args, *[b.to_node(d) for d in douts]],
                           _cotangents_abstract(graph), n.loc)
        self.add_items(call, args)

    def while_loop(self, n: CNode, g) -> None:
        """``WhileGrad``: the body's backward graph applied to every iteration the forward
        loop kept (the loop is made to keep them), so the body's effects never rerun."""
        n_state = n.inputs[0].value.attrs["n_state"]
        body = n.inputs[2].value
        init, invariants = n.inputs[3:3 + n_state], n.inputs[3 + n_state:]
        refs = tuple(j for j, a in enumerate(invariants) if isinstance(a.abstract, AbstractRef))
        history = _keep_history(self.b, n, refs)
        douts = _flat_douts(self.b, g, n)[:n_state]
        bprop = branch_bprop(body, douts, self.b)
        b = self.b
        dnodes = [b.to_node(d) for d in douts]
        abstracts = [_cotangent_abstract(a.abstract) for a in list(init) + list(invariants)]
        attrs = {"n_state": n_state, "refs": refs, "shapes": tensor_shapes(abstracts[n_state:])}
        node = b.new_cnode([prim_node(WhileGrad, attrs), ValueNode(bprop), history,
                            *invariants, *dnodes], AbstractTuple(abstracts), n.loc)
        for i, a in enumerate(list(init) + list(invariants)):
            if not carries_cotangent(a.abstract) or id(a) not in self.needs:
                continue
            item = b.new_cnode([prim_node(TupleGetItem, {}), node, ValueNode(i)],
                               abstracts[i])
            self.add(a, self.sym(item))


def _keep_history(b: GraphBuilder, loop: CNode, refs: tuple) -> CNode:
    """The forward ``loop``'s record of its iterations (its last output): the loop is
    switched, in place, to keep it (it runs once, for the forward values and the
    backward pass alike)."""
    attrs = loop.inputs[0].value.attrs
    n_state = attrs["n_state"]
    if attrs.get("history") is None:
        loop.inputs[0] = prim_node(While, {"n_state": n_state, "history": refs})
        loop.abstract = AbstractTuple([*loop.abstract.elements, PY_OBJECT_ABS])
    return b.new_cnode([prim_node(TupleGetItem, {}), loop, ValueNode(n_state)],
                       PY_OBJECT_ABS)


def _weights_before(b: GraphBuilder, call: CNode, branches: tuple) -> list[Node]:
    """The arguments of a branch call for its backward graph. When a branch writes
    weights, the backward graph gets copies of them taken just before the forward call
    (which is made to wait for the copies): its recomputation reads the values the
    forward read, and its writes touch only the copies."""
    args = list(call.inputs[1:])
    refs = [k for k, a in enumerate(args) if isinstance(a.abstract, AbstractRef)]
    if not refs or not any(_writes_weights(g) for g in branches):
        return args
    u = next((a for a in args if a.abstract == U_ABS), ValueNode(U_MONAD, U_ABS))
    for k in refs:
        plain = AbstractTensor(args[k].abstract.dtype, args[k].abstract.shape)
        read = b.new_cnode([prim_node(Load, {}), args[k], u], plain, call.loc)
        copy = b.new_cnode([prim_node(TensorMove, {}), read], plain, call.loc)
        call.inputs[1 + k] = b.new_cnode([prim_node(Depend, {}), args[k], copy],
                                         args[k].abstract, call.loc)
        args[k] = copy
    return args


def _writes_weights(g: FuncGraph) -> bool:
    """Whether ``g`` or a graph it uses writes memory (``Assign``, optimizer updates)."""
    for _, order in iter_nodes(g):
        for n in order:
            fn = n.inputs[0]
            opdef = getattr(fn.value, "opdef", None) if isinstance(fn, ValueNode) else None
            if opdef is not None and opdef.side_effect_mem:
                return True
    return False


def _uses_params(graph: FuncGraph, params: list) -> bool:
    """Whether ``graph``'s output depends on any of ``params``."""
    wanted = {id(p) for p in params}
    return any(id(inp) in wanted for n in toposort(graph) for inp in n.inputs) \
        or id(graph.output) in wanted


def _item_zeros(b: GraphBuilder, node: Node, i: int, e):
    """Zeros for item ``i`` (abstract ``e``) of ``node``'s tuple output, which got no
    cotangent (None for items that carry none: monads...)."""
    if not isinstance(e, AbstractTensor):
        return None
    return zeros_of(e, lambda: node_value(b, node)[i])


def _dense(g, node: Node, b: GraphBuilder):
    """A cotangent of ``node`` as rules want it: tensors stay, sparse tuple cotangents
    get zeros."""
    if isinstance(g, dict):
        return tuple(g.get(i) if g.get(i) is not None else _item_zeros(b, node, i, e)
                     for i, e in enumerate(node.abstract.elements))
    return g


def carries_cotangent(a) -> bool:
    """Whether a value of abstract ``a`` has a cotangent: a Tensor, or a dynamic length
    sequence of Tensors (a sequence of them, one per item)."""
    return isinstance(a, AbstractTensor) or (
        isinstance(a, AbstractSequence) and isinstance(a.element, AbstractTensor))


def _zero_cotangent(b: GraphBuilder, node: Node):
    """The cotangent of ``node``'s value where nothing used it: zeros (a sequence of zeros,
    one per run-time item, for a dynamic length sequence), None where there is none."""
    a = node.abstract
    if isinstance(a, AbstractTensor):
        return zeros_of(a, lambda: node_value(b, node))
    if carries_cotangent(a):
        return SEQ.SequenceZerosLike(b.wrap(node))
    return None


def _flat_douts(b: GraphBuilder, g, node: CNode) -> list:
    """One cotangent per output item of ``node``; None for items that carry none
    (monads...)."""
    a = node.abstract
    if isinstance(a, AbstractTuple):
        d = g if isinstance(g, dict) else dict(enumerate(g))
        out = []
        for i, e in enumerate(a.elements):
            if d.get(i) is None and carries_cotangent(e):
                item = b.new_cnode([prim_node(TupleGetItem, {}), node, ValueNode(i)], e)
                out.append(_zero_cotangent(b, item))
            else:
                out.append(d.get(i))
        return out
    return [g]


def _dout_abstract(d) -> AbstractTensor | AbstractScalar | AbstractSequence:
    """The abstract of a backward graph's ``dout`` parameter for cotangent ``d``."""
    if d is None:
        return AbstractScalar(None)
    if type(d) is SymbolicSequence:
        return d._abs
    return AbstractTensor(d.dtype, d.shape)


def _cotangent_abstract(a) -> AbstractTensor | AbstractScalar | AbstractSequence:
    """The abstract of the cotangent of a value of abstract ``a`` (a plain tensor, also for
    a Parameter)."""
    if isinstance(a, AbstractTensor):
        return AbstractTensor(a.dtype, a.shape)
    if carries_cotangent(a):
        return AbstractSequence(_cotangent_abstract(a.element), a.is_list)
    return AbstractScalar(None)


def _cotangents_abstract(g: FuncGraph) -> AbstractTuple:
    """The output abstract of the backward graph of ``g`` (one cotangent per parameter)."""
    return AbstractTuple([_cotangent_abstract(p.abstract) for p in g.params])


def branch_bprop(g: FuncGraph, douts: list, parent: GraphBuilder,
                 into: FuncGraph | None = None) -> FuncGraph:
    """A graph ``(params..., douts...) -> (cotangent per param)`` for branch graph ``g``
    (built in ``into`` when given)."""
    bb = GraphBuilder(into or FuncGraph(f"bprop_{g.name}", g.loc), parent)
    with bb:
        params = [bb.graph.add_param(p.name, p.abstract) for p in g.params]
        bb.tape = []
        out = replay_graph(bb, g, params, recompute=True)
        dparams = [bb.graph.add_param("dout", _dout_abstract(d)) for d in douts]
        bb.tape, tape = None, bb.tape
        seeds = [p for p in params if carries_cotangent(p.abstract)]
        bp = Backprop(bb, tape, seeds)
        if isinstance(out.abstract, AbstractTuple):
            if out.prim_name() == "MakeTuple" if isinstance(out, CNode) else False:
                for o, d in zip(out.inputs[1:], dparams):
                    bp.add(o, bp.sym(d))
            else:
                bp.add(out, {i: bp.sym(d) for i, d in enumerate(dparams)})
        else:
            bp.add(out, bp.sym(dparams[0]))
        bp.run()
        outs = []
        for p in params:
            c = bp.result(p)
            if carries_cotangent(p.abstract) and not isinstance(p.abstract, AbstractTensor):
                outs.append(bb.to_node(c if c is not None else _zero_cotangent(bb, p)))
            elif isinstance(p.abstract, AbstractTensor):
                like = _cotangent_abstract(p.abstract)
                c = _dense(c, p, bb) if c is not None else \
                    zeros_of(like, lambda p=p: node_value(bb, p))
                if c.dtype is not like.dtype:
                    c = F.cast(c, like.dtype)
                outs.append(bb.to_node(c))
            else:  # monads and other non-tensors have no cotangent
                outs.append(ValueNode(None, AbstractScalar(None)))
        bb.graph.output = bb.new_cnode([prim_node(MakeTuple, {}), *outs],
                                       AbstractTuple([o.abstract for o in outs]))
    return bb.graph


# ------------------------------------------------------------------ front end

def _as_node(b: GraphBuilder, x, weight_apart: bool = True) -> tuple[object, Node | None]:
    """Make ``x`` an identifiable node of ``b``'s graph (so its cotangent can be read);
    ``weight_apart``: a Parameter ``x`` gets a node of its own (see ``grad_in_graph``)."""
    if isinstance(x, Tensor):
        if x._node is not None:
            node = b.local(x._node)
            return Tensor._symbolic(node, x._abs), node
        if x._is_param and weight_apart:  # a weight passed as an input: a stand-in of it
            twin = stand_in(x)  # (still assignable) whose uses get their own cotangent
            return twin, b.stand_in_weight(twin, x)
        if x._is_param:  # the weight itself: its uses as the input and as a weight
            return x, b.weight(x)
        arr = x._data
        node = ValueNode(arr, AbstractTensor(x.dtype, arr.shape, arr))
        return Tensor._symbolic(node, AbstractTensor(x.dtype, arr.shape)), node
    if type(x) is SymbolicSequence:
        node = b.local(x._node)
        return SymbolicSequence(node, x._abs), node
    return x, None


class _MutableArg:
    """A ``mutable`` tuple/list/dict argument: each tensor in it is differentiated, and its
    gradient has its structure (MindSpore's per-element cotangents)."""

    def __init__(self, b: GraphBuilder, value):
        leaves, self.tree = flatten(value)
        pairs = [_as_node(b, x) for x in leaves]
        self.leaves = [p[0] for p in pairs]
        self.nodes = [p[1] for p in pairs]
        self.value = unflatten(self.tree, self.leaves)

    def gradient(self, bp: Backprop):
        cts = [_input_cotangent(bp, x, node) for x, node in zip(self.leaves, self.nodes)]
        return unflatten(self.tree, cts, plain=True)


def _input_cotangent(bp: Backprop, x, node):
    """The gradient of one differentiated input: zeros where nothing depends on it, a
    zero of its type for a run-time scalar (as MindSpore gives a mutable number)."""
    if type(x) is SymbolicSequence:  # one cotangent each; none reached it: a zero each
        c = bp.result(node)
        return c if c is not None else SEQ.SequenceZerosLike(x)
    if type(x) is SymbolicScalar:
        return 0 if x.kind is bool else x.kind(0)  # MindSpore's zero of a mutable bool: 0
    if node is None:
        return None
    c = bp.result(node)
    if c is None:
        return F.zeros_like(x)
    if c.dtype.is_complex and not x.dtype.is_complex:
        return F.real(c)  # a graph gives a real input a real gradient (PyNative: complex)
    return c


def _is_mutable_container(x) -> bool:
    """A ``mutable`` container, or a sparse tensor: each tensor in it is differentiated (a
    COO/CSR tensor's gradient in a graph is one of zero indices, MindSpore's)."""
    return isinstance(x, (tuple, list, dict)) and is_mutable(x) or isinstance(x, SPARSE_TYPES)


def has_gradient(x) -> bool:
    """True for inputs MindSpore's ``get_all`` returns a gradient for: tensors, mutable
    containers (of static or dynamic length) and run-time (mutable) numbers; constants
    (plain numbers, tuples...) get none."""
    return isinstance(x, Tensor) or _is_mutable_container(x) or \
        type(x) is SymbolicScalar or type(x) is SymbolicSequence


def grad_in_graph(fn, args: tuple, kwargs: dict, *, positions, weights, sens=None,
                  has_aux: bool = False, with_value: bool = False, get_all_style=None,
                  weight_inputs_apart: bool = True, outside_hooks: bool = False):
    """Trace ``fn(*args)`` into the current graph and return the requested gradients.

    ``positions``: indices of the inputs to differentiate (the positional arguments, then
    the keyword arguments' values); ``weights``: Parameters or None;
    ``weight_inputs_apart``: a Parameter given as an input gets the cotangent of its uses as
    the input only, and as a weight that of its other uses (else both get their sum);
    ``outside_hooks``: run the hooks registered outside the graph on the weights and graph
    inputs differentiated (``Tensor.register_hook``; a PyNative tape runs them itself).
    Returns ``(value, grads_inputs, grads_weights)`` as lists/tuples of Tensors.
    """
    forward = TracedForward(fn, args, kwargs, positions=positions, weights=weights,
                            has_aux=has_aux, weight_inputs_apart=weight_inputs_apart,
                            outside_hooks=outside_hooks)
    grads, wgrads = forward.backward(sens)
    return forward.value, grads, wgrads


class TracedForward:
    """``fn(*args)`` traced once into the current graph; :meth:`backward` gives the
    gradients for one output cotangent, as often as asked (``ops.vjp``'s ``vjp_fn``: the
    forward, and its effects, run once). Arguments as :func:`grad_in_graph`'s."""

    def __init__(self, fn, args: tuple, kwargs: dict, *, positions, weights, has_aux: bool,
                 weight_inputs_apart: bool, outside_hooks: bool):
        b: GraphBuilder = state.current()
        self.b, self.positions, self.weights = b, positions, weights
        self.outside_hooks = outside_hooks
        self.inputs = (*args, *kwargs.values())
        self.pairs = [(_MutableArg(b, a), None) if _is_mutable_container(a) else
                      _as_node(b, a, weight_inputs_apart) for a in self.inputs]
        traced = [p[0].value if isinstance(p[0], _MutableArg) else p[0] for p in self.pairs]
        args, kwargs = tuple(traced[:len(args)]), dict(zip(kwargs, traced[len(args):]))
        out, self.tape = record_tape(b, fn, args, kwargs)
        self.value = out
        out, aux, self.outs = split_output(out, has_aux)
        if has_aux:
            self.value = (out, aux)
        self.seeds = []
        for i in positions:
            a, node = self.pairs[i]
            if isinstance(a, _MutableArg):
                self.seeds += [n for n in a.nodes if n is not None]
            elif node is not None:
                self.seeds.append(node)
        self.weight_nodes = [b.weight(w) for w in weights] if weights else []

    def backward(self, sens=None) -> tuple[list, list]:
        """``(grads_inputs, grads_weights)`` for the output cotangent ``sens`` (None:
        ones)."""
        b = self.b
        bp = Backprop(b, self.tape, self.seeds + self.weight_nodes)
        for o, s in zip(self.outs, sens_values(sens, self.outs)):
            if o._node is not None:
                bp.add(b.local(o._node), s)
            elif type(o) is not SymbolicSequence and o._is_param:
                # a weight returned as it is: its cotangent is the sens
                bp.add(b.weight(o), s)
        bp.run()
        grads = []
        for i in self.positions:
            a, node = self.pairs[i]
            if isinstance(a, _MutableArg):
                grads.append(a.gradient(bp))
            elif node is None and isinstance(a, (tuple, list, dict)):
                grads.append(())  # a plain container argument is a constant: MindSpore: ()
            else:
                x = self.inputs[i]
                hooks = input_hooks(x._node) \
                    if self.outside_hooks and isinstance(x, Tensor) else ()
                grads.append(_run_hooks(hooks, _input_cotangent(bp, a, node)))
        wgrads = []
        for w, node in zip(self.weights or (), self.weight_nodes):
            c = bp.result(node)
            wgrads.append(_run_hooks(live_hooks(w) if self.outside_hooks else (),
                                     c if c is not None else F.fill(w.dtype, w.shape, 0)))
        return grads, wgrads


def _run_hooks(hooks: tuple, g):
    """``g`` through the ``Tensor.register_hook`` functions registered outside the graph on
    the Tensor it is the gradient of (traced into the graph, as MindSpore compiles them); a
    hook returning None leaves it."""
    for fn in hooks:
        new = call(fn, g)
        g = g if new is None else new
    return g


def split_output(out, has_aux: bool) -> tuple:
    """``(output, aux, tensors)``: the differentiated output, the aux outputs (None without
    ``has_aux``) and the output's Tensors that carry a gradient (a list whose ``n_outs``
    attribute counts every leaf). A Python object computed when a graph runs
    (PyExecute), a number, a string, None, a slice or a bool Tensor passes no gradient
    back, as in MindSpore: a function of only such outputs has zero gradients."""
    aux = None
    if has_aux:
        if not isinstance(out, tuple) or not out:
            raise GradError("With has_aux=True the function must return a tuple "
                            "(output, aux...).")
        out, aux = out[0], out[1:]
    leaves = flatten(out)[0]  # nested tuples/lists of outputs: each tensor is an output
    outs = _Outputs()
    outs.n_outs = len(leaves)
    # (a dynamic length sequence output: a cotangent per item)
    outs.kept = [i for i, o in enumerate(leaves) if isinstance(o, (Tensor, SymbolicSequence))
                 and not (isinstance(o, Tensor) and o.dtype is mstype.bool_)]
    outs.extend(leaves[i] for i in outs.kept)
    return out, aux, outs


class _Outputs(list):
    """The Tensor outputs of :func:`split_output`, with ``n_outs`` and ``kept``."""

    n_outs = 0
    kept: list = []


def sens_values(sens, outs: _Outputs) -> list:
    """The output cotangents: ``sens`` (one per output leaf, or per Tensor output), or
    ones."""
    if sens is None:
        sens = [SEQ.SequenceOnesLike(o) if type(o) is SymbolicSequence else
                F.ones_like(o) if any(d < 0 for d in o.shape) else
                F.fill(o.dtype, o.shape, 1) for o in outs]
    else:
        if isinstance(sens, (tuple, list)) and len(sens) > 0 and len(outs) == 1 and \
                type(outs[0]) is SymbolicSequence and all(isinstance(s, Tensor) for s in sens):
            # one cotangent per item of a dynamic length output: that sequence's sens
            sens = SEQ.MakeDynamicSequence(*sens, is_list=outs[0].is_list)
        sens = flatten(sens)[0]
        if len(sens) == outs.n_outs != len(outs.kept):
            sens = [sens[i] for i in outs.kept]  # the sens of run-time numbers is unused
        if len(sens) != len(outs):
            raise GradError(f"The sensitivity (sens) must match the outputs: {len(outs)} "
                            f"output(s) but {len(sens)} sens value(s).")
    for s in sens:
        if not isinstance(s, (Tensor, SymbolicSequence)):
            raise GradError(f"The sensitivity must be a Tensor, but got {type(s).__name__}.")
    return sens


__all__ = ["grad_in_graph", "TracedForward", "GradError"]
