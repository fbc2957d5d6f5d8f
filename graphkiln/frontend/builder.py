"""Graph builders: record primitive applications into a ``FuncGraph`` while user code runs.

One ``GraphBuilder`` per graph under construction. A builder for a branch or loop body has
a parent; any outer value it uses becomes one of its parameters (lambda lifting at trace
time), so every graph stays closed. Weights enter the root graph as ``Ref`` parameters and
are read through ``Load``; memory effects thread the ``U`` monad, ``Print`` the ``IO`` monad.
"""
from __future__ import annotations

from ..common.symbolic_scalar import SymbolicScalar
from ..common.symbolic_sequence import SymbolicSequence
from ..common.tensor import Tensor
from ..errors import (
    GraphkilnInternalError,
    blame_argument,
    check_allocation,
    user_location,
    with_location,
)
from ..ir import tracing_state as state
from ..ir.abstract import (
    IO_ABS,
    U_ABS,
    AbstractPyObject,
    AbstractRef,
    AbstractScalar,
    AbstractSequence,
    AbstractTensor,
    AbstractTuple,
)
from ..ir.anf import CNode, FuncGraph, Node, Parameter, ValueNode
from ..ir.build import const_node, prim_node
from ..ir.primitive import IO_EFFECT, MEM_EFFECT, needs_trace
from ..ir.structural_prims import (
    IO_MONAD,
    U_MONAD,
    Depend,
    Load,
    MakeTuple,
    TupleGetItem,
    UpdateState,
)
from ..ops.defs.side_effects import Assign, TensorMove
from .fallback import PyObject
from .undefined import Undefined


class MonadChain:
    """The current state of one monad (``U`` or ``IO``) in one graph."""

    __slots__ = ("kind", "node", "pending", "effects")

    def __init__(self, kind: str):
        self.kind = kind
        self.node: Node | None = None  # current state node, created lazily
        self.pending: list[Node] = []  # reads since the last UpdateState
        self.effects = False  # an effect was recorded on this chain


_MISSING = object()  # an attribute that did not exist before graph code set it


def _check_unique_name(names: dict, param) -> None:
    """Two Parameters the user named alike in one graph: MindSpore's ValueError."""
    if not getattr(param, "_user_named", False):
        return
    other = names.setdefault(param.name, param)
    if other is not param:
        raise ValueError(f"The parameter {param!r} , its name '{param.name}' already exists. "
                         f"Please set a unique name for the parameter.")


class GraphBuilder:
    """Records nodes into ``graph``; ``parent`` is the builder of the enclosing graph."""

    def __init__(self, graph: FuncGraph, parent: GraphBuilder | None = None):
        self.graph = graph
        self.parent = parent
        self.root: GraphBuilder = parent.root if parent is not None else self
        self.captured: dict[int, Node] = {}
        self.capture_list: list[tuple[Node, Node]] = []  # (value in parent, param here)
        self.u = MonadChain("U")
        self.io = MonadChain("IO")
        self.weight_nodes: dict[int, Node] = {}  # root only: id(Parameter) -> graph param
        self.weight_names: dict[str, object] = {}  # root only: user-given name -> Parameter
        self.weights_set: set[int] = set()  # root only: ids of weights set as attributes
        self.stand_ins: list = []  # root only: the stand-in Parameters of weight_nodes
        self.tape: list[CNode] | None = None  # nodes recorded while autodiff watches
        # reusable (lazy-inline) graphs of this compile, shared by every builder in it
        self.reusable: dict = parent.root.reusable if parent is not None else {}
        # the user-function calls being traced (frontend.recursion), shared by the compile
        self.calls: list = parent.root.calls if parent is not None else []
        self.recorded: list[CNode] = []  # this graph's CNodes, in the order they were made
        # root only, for in-place writes of graph inputs: id(node) -> index in ``recorded``
        # from which its reads count, for each value that is (or was) a graph input's state
        # (an input counts from 0 until written; the alias after each write is added)
        self.input_states: dict[int, int] = {}
        self.is_branch = False  # a branch of a tensor `if`: a `raise` in it runs at run time
        # Tensors of enclosing graphs that an in-place write in this graph rebound:
        # id -> (Tensor, its node before); the `if`/loop being traced carries them out
        self.rebound: dict[int, tuple[Tensor, Node]] = {}
        # root only: graph inputs a tensor `if`/loop wrote: id -> (Tensor, input state)
        self.caller_writes: dict[int, tuple[Tensor, Node]] = {}
        # lists, dicts and sets graph code wrote (id -> (object, contents before)): a graph
        # sees Python containers as values, so tracing restores them (as MindSpore's
        # graphs never change the user's objects)
        self.written: dict = parent.root.written if parent is not None else {}
        # the source line of the nodes recorded now when no user code records them (a
        # backward rule: its forward node's line); None: the innermost user frame's
        self.location = None
        self._prev = None

    # ------------------------------------------------------------ activation
    def __enter__(self) -> GraphBuilder:
        self._prev = state.set_current(self)
        return self

    def __exit__(self, *exc) -> None:
        state.set_current(self._prev)

    def child(self, name: str) -> GraphBuilder:
        return GraphBuilder(FuncGraph(name, user_location(2)), self)

    # ------------------------------------------------------------ nodes
    def new_cnode(self, inputs: list, abstract, loc=None) -> CNode:
        node = CNode(self.graph, inputs, abstract, loc)
        self.recorded.append(node)
        if self.tape is not None:
            self.tape.append(node)
        return node

    def capture(self, outer: Node) -> Node:
        """The parameter of this graph that stands for ``outer`` (a node of an outer graph)."""
        if isinstance(outer, ValueNode):
            return outer
        key = id(outer)
        p = self.captured.get(key)
        if p is not None:
            return p
        if self.parent is None:
            raise GraphkilnInternalError(f"graphkiln bug: node {outer!r} belongs to no "
                                         f"enclosing graph of {self.graph.name}")
        if outer.graph is self.parent.graph:
            in_parent, p = outer, None  # not captured yet (looked up above)
        else:  # reached from another node when a recursive call passes its captures on
            in_parent = self.parent.capture(outer)
            p = self.captured.get(id(in_parent))
        if p is None:
            name = getattr(outer, "name", None) or "phi"
            p = self.graph.add_param(name, outer.abstract)
            self.capture_list.append((in_parent, p))
            self.captured[id(in_parent)] = p
        self.captured[key] = p
        return p

    def local(self, node: Node) -> Node:
        """``node`` as seen from this graph (captured if it lives in an outer graph)."""
        if isinstance(node, ValueNode) or node.graph is self.graph:
            return node
        return self.capture(node)

    def weight(self, param) -> Node:
        """The Ref node of a weight in this graph."""
        root = self.root
        node = root.weight_nodes.get(id(param))
        if node is None:
            _check_unique_name(root.weight_names, param)
            node = root.graph.add_weight(
                param, AbstractRef(param.dtype, param.shape, param.name))
            root.weight_nodes[id(param)] = node
        return self.local(node)

    def stand_in_weight(self, twin, param) -> Node:
        """A second Ref node of weight ``param``, which graph code reads and writes through
        the stand-in Parameter ``twin`` (kept alive with the graph being traced)."""
        root = self.root
        root.stand_ins.append(twin)
        node = root.graph.add_weight(param, AbstractRef(param.dtype, param.shape, param.name))
        root.weight_nodes[id(twin)] = node
        return self.local(node)

    # ------------------------------------------------------------ Python containers
    def before_write(self, container) -> None:
        """Remember ``container``'s contents before graph code first writes it."""
        key = id(container)
        if key not in self.written:
            self.written[key] = (container, container.copy())

    def before_setattr(self, obj, name: str) -> None:
        """Remember ``obj.<name>`` before graph code first sets it to a graph value."""
        key = (id(obj), name)
        if key not in self.written:
            self.written[key] = (obj, name, obj.__dict__.get(name, _MISSING))

    def restore_written(self) -> None:
        """Put back every container and attribute graph code wrote while tracing."""
        for record in self.written.values():
            if len(record) == 1:  # a constant Tensor written in place
                record[0]._node = None
                record[0]._abs = None
                continue
            if len(record) == 3:  # an attribute
                obj, name, before = record
                if before is _MISSING:
                    obj.__dict__.pop(name, None)
                else:
                    obj.__dict__[name] = before
                continue
            container, before = record
            container.clear()
            if isinstance(container, list):
                container.extend(before)
            else:
                container.update(before)
        self.written.clear()

    # ------------------------------------------------------------ monads
    def monad(self, chain: MonadChain) -> Node:
        if chain.node is None:
            if self.parent is None:
                abs_ = U_ABS if chain.kind == "U" else IO_ABS
                chain.node = ValueNode(U_MONAD if chain.kind == "U" else IO_MONAD, abs_)
            else:
                outer_chain = self.parent.u if chain.kind == "U" else self.parent.io
                chain.node = self.capture(self.parent.settle(outer_chain))
        return chain.node

    def settle(self, chain: MonadChain) -> Node:
        """The monad state with all pending reads folded in (``UpdateState(u, reads...)``)."""
        u = self.monad(chain)
        if chain.pending:
            u = self.new_cnode([prim_node(UpdateState, {}), u, *chain.pending], u.abstract)
            chain.pending = []
            chain.node = u
        return u

    def load(self, param) -> Node:
        ref = self.weight(param)
        node = self.new_cnode([prim_node(Load, {}), ref, self.monad(self.u)],
                              AbstractTensor(param.dtype, param.shape),
                              self.location or user_location(3))
        self.u.pending.append(node)
        return node

    # ------------------------------------------------------------ values
    def to_node(self, x, as_ref: bool = False) -> Node:
        """The IR node for a Python-level argument ``x``."""
        if isinstance(x, Tensor):
            if x._node is not None:
                return self.local(x._node)
            if x._is_param:
                return self.weight(x) if as_ref else self.load(x)
            arr = x._data
            return ValueNode(arr, AbstractTensor(x._dtype, arr.shape, arr))
        if isinstance(x, (tuple, list)):
            if needs_trace(x):
                return self.tuple_node([self.to_node(e) for e in x], isinstance(x, list))
            return const_node(x)
        if type(x) is SymbolicScalar or type(x) is SymbolicSequence:
            return self.local(x._node)
        if isinstance(x, Undefined):
            raise x.error()
        if isinstance(x, PyObject):
            return self.local(x.node)
        return ValueNode(x, AbstractScalar(x))

    def tuple_node(self, nodes: list, is_list: bool = False) -> Node:
        """``MakeTuple(nodes)``, or the tuple itself when ``nodes`` are all its items."""
        whole = _whole_tuple(nodes)
        if whole is not None:
            return self.local(whole)
        return self.new_cnode([prim_node(MakeTuple, {}), *nodes],
                              AbstractTuple([n.abstract for n in nodes], is_list))

    def record(self, opdef, args: tuple, attrs: dict):
        """Record ``opdef(*args, **attrs)`` in this graph and return symbolic outputs."""
        loc = self.location or user_location(3)
        effect = opdef.effect
        abstracts: tuple = ()
        try:
            nodes = [self.to_node(a, as_ref=i in opdef.ref_inputs)
                     for i, a in enumerate(args)]
            written = self.tensor_refs(opdef, args, nodes) if opdef.ref_inputs else ()
            abstracts = tuple(AbstractRef(n.abstract.dtype, n.abstract.shape, "")
                              if i in written else n.abstract for i, n in enumerate(nodes)) \
                if written else tuple(n.abstract for n in nodes)
            out_abs = opdef.infer(*abstracts, **attrs)
            check_allocation(opdef.name, out_abs)
        except (TypeError, ValueError, IndexError, RuntimeError) as e:
            raise with_location(e, loc) from None
        except AttributeError as e:  # an infer read a Tensor attribute of None, a str...
            blamed = blame_argument(opdef.name, opdef.infer, abstracts, attrs, e, args)
            if blamed is None:
                raise
            raise with_location(blamed, loc) from None
        inputs = [prim_node(opdef, attrs), *nodes]
        if effect == MEM_EFFECT:
            chain = self.u
        elif effect == IO_EFFECT:
            chain = self.io
        else:
            chain = None
        if chain is not None:
            inputs.append(self.settle(chain))
        node = self.new_cnode(inputs, out_abs, loc)
        if chain is not None:
            chain.node = self.new_cnode([prim_node(UpdateState, {}), chain.node, node],
                                        chain.node.abstract)
            chain.effects = True
            if chain is self.io:  # later writes of weights wait for the print
                self.u.pending.append(node)
        for i in written:  # later reads of a written Tensor see the write
            self.rebind(args[i], nodes[i], node, opdef)
        return self.wrap(node)

    # ------------------------------------------------------------ Tensors written in place
    def tensor_refs(self, opdef, args: tuple, nodes: list) -> list[int]:
        """The ref inputs of ``opdef`` that are plain symbolic Tensors it may write in
        place (``nodes`` is updated): a graph input (or the state of one after a write) is
        written in the caller's array, once every earlier read of it has a copy of the old
        value; a Tensor computed in this graph is written in a copy of it. Others are left
        to the infer rule, which refuses them."""
        written = []
        for i in opdef.ref_inputs:
            x = args[i] if i < len(args) else None
            if not isinstance(x, Tensor) or x._is_param:
                continue
            node = nodes[i]
            if x._node is None:  # a constant: written in a copy, the constant stays
                self.root.before_write_constant(x)
                x._node, x._abs = node, node.abstract
            elif self.is_input_state(node):
                self.copy_for_readers(node)
                written.append(i)
                continue
            elif not (self.parent is not None or isinstance(node, CNode)
                      and node.graph is self.graph):
                continue
            nodes[i] = self.new_cnode([prim_node(TensorMove, {}), node], node.abstract)
            written.append(i)
        return written

    def copy_for_readers(self, node: Node) -> None:
        """Make the reads so far of graph-input state ``node`` read a copy taken before
        the next write (views of ``node`` would see the write otherwise)."""
        start = self.input_states.get(id(node), 0)
        readers = [r for r in self.recorded[start:] if node in r.inputs[1:]]  # nodes: by identity
        if not readers:
            return
        copy = self.new_cnode([prim_node(TensorMove, {}), node], node.abstract)
        for r in readers:
            r.set_inputs([copy if inp is node else inp for inp in r.inputs])
        self.u.pending.append(copy)
        if self.tape is not None:  # autodiff walks the tape backwards: the copy before its readers
            self.tape.pop()
            ids = {id(r) for r in readers}
            first = next((k for k, n in enumerate(self.tape) if id(n) in ids), len(self.tape))
            self.tape.insert(first, copy)

    def is_input_state(self, node: Node) -> bool:
        """True for a Tensor input of this (root) graph (not a weight) or the state of one
        after an in-place write."""
        if self.parent is not None:
            return False
        start = self.input_states.get(id(node))
        if start is not None:
            return start >= 0
        return type(node) is Parameter and node.weight is None and \
            node.graph is self.graph and type(node.abstract) is AbstractTensor

    def rebind(self, x: Tensor, ref: Node, write: CNode, opdef) -> None:
        """Tensor ``x`` now stands for ``ref`` as ``write`` wrote it: the write's output
        when that is the written value and has a backward rule (``Assign*``: gradients
        flow through the write, as in MindSpore), else ``Depend(ref, write)``."""
        after = write if opdef.bprop is not None and write.abstract == ref.abstract else \
            self.new_cnode([prim_node(Depend, {}), ref, write], ref.abstract)
        if self.is_input_state(ref):
            # reads of the old state from now on count again if it is the input itself
            self.input_states[id(ref)] = len(self.recorded) if type(ref) is Parameter else -1
            self.input_states[id(after)] = len(self.recorded)
        self.set_state(x, after)

    def set_state(self, x: Tensor, node: Node) -> None:
        """Tensor ``x`` now stands for ``node`` of this graph (written in place); a Tensor
        of an enclosing graph is remembered for the tensor ``if`` or loop to carry out."""
        before = x._node
        if self.parent is not None and id(x) not in self.rebound and before is not None \
                and before.graph is not self.graph:
            self.rebound[id(x)] = (x, before)
        x._node = node
        x._abs = node.abstract

    def take_rebound(self) -> list[tuple[Tensor, Node]]:
        """The Tensors rebound in this graph, each as ``(Tensor, node here)``; the Tensors
        get their outer nodes back (the other branch, the next trace start from them)."""
        out = []
        for x, before in self.rebound.values():
            out.append((x, x._node))
            x._node = before
            x._abs = before.abstract
        self.rebound.clear()
        return out

    def write_back(self, x: Tensor, before: Node, value: Node) -> None:
        """After a tensor ``if`` or loop gave ``x`` (whose state before it was ``before``)
        the new ``value``: a Tensor of an enclosing graph stays rebound for that graph's
        ``if``/loop; a graph input gets its final value when the graph ends."""
        if self.is_input_state(before):
            self.caller_writes.setdefault(id(x), (x, before))
        x._node = before
        self.set_state(x, value)

    def write_callers(self) -> None:
        """Write each graph input that a tensor ``if`` or loop wrote in place with its final
        value (``Assign`` into the caller's array; gradients flow through the value)."""
        for x, before in self.caller_writes.values():
            value = Tensor._symbolic(x._node, x._abs)
            x._node, x._abs = before, before.abstract
            self.record(Assign, (x, value), {})
        self.caller_writes.clear()

    def before_write_constant(self, x: Tensor) -> None:
        """Remember constant ``x``, written in place in a copy while tracing: it is a
        constant again when the trace ends (every run starts from its value)."""
        self.written.setdefault(("constant", id(x)), (x,))

    def wrap(self, node: Node):
        """Symbolic Python values for the output of ``node``."""
        a = node.abstract
        if isinstance(a, AbstractTensor):
            return Tensor._symbolic(node, a)
        if isinstance(a, AbstractTuple):
            out = []
            for i, e in enumerate(a.elements):
                item = self.new_cnode([prim_node(TupleGetItem, {}), node,
                                       ValueNode(i, AbstractScalar(i))], e, node.loc)
                out.append(self.wrap(item))
            return out if a.is_list else tuple(out)
        if isinstance(a, AbstractScalar):
            return a.value if a.is_known else SymbolicScalar(node, a)
        if isinstance(a, AbstractPyObject):
            return PyObject(node, _origin(node))
        if isinstance(a, AbstractSequence):
            return SymbolicSequence(node, a)
        return node

    def finish_root(self, output: Node) -> None:
        """Set the root graph's output, ordered after every recorded effect."""
        self.write_callers()
        self.graph.output = self.order_after_effects(output)

    def order_after_effects(self, output: Node) -> Node:
        states = []
        for chain in (self.u, self.io):
            if chain.effects or (chain.pending and self.u.effects):
                states.append(self.settle(chain))
        if not states:
            return output
        dep = states[0] if len(states) == 1 else self.new_cnode(
            [prim_node(UpdateState, {}), *states], U_ABS)
        return self.new_cnode([prim_node(Depend, {}), output, dep], output.abstract)


def _origin(node: CNode) -> str:
    """The user's line of a run-time Python call, for error messages."""
    loc = node.loc
    return f"{loc.filename}:{loc.lineno}" if loc is not None else "a run-time Python call"


def _whole_tuple(nodes: list) -> Node | None:
    """The node ``t`` when ``nodes`` is exactly ``[t[0], t[1], ..., t[n-1]]``."""
    if not nodes:
        return None
    first = nodes[0]
    if not (isinstance(first, CNode) and first.prim_name() == "TupleGetItem"):
        return None
    t = first.inputs[1]
    if not isinstance(t.abstract, AbstractTuple) or len(t.abstract.elements) != len(nodes):
        return None
    for i, n in enumerate(nodes):
        if not (isinstance(n, CNode) and n.prim_name() == "TupleGetItem"
                and n.inputs[1] is t and n.inputs[2].value == i):
            return None
    return t
