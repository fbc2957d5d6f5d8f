"""Recursive user functions traced as recursive graph calls.

Every call of a user function while tracing goes through :func:`call_traced`, which keeps a
stack of the active calls keyed by (code, argument structure, abstract signature). A call
that re-enters an active one with the same key from *another* graph builder (that is,
under a tensor ``if``/``while``, whose end is known only at run time) cannot be unrolled:
the outer call then traces the function into a graph of its own, and every re-entry
becomes a call of that graph. Re-entry from the same builder (a Python condition) keeps
unrolling at trace time, up to the ``max_call_depth`` limit.

The graph's output abstract is found by a fixpoint, as for tensor loops: a first round
traces with the re-entries treated as branches that never return (the ``if`` takes the
other branch's values), which gives the type of the non-recursive paths; the next rounds
trace with the recursive calls returning that type until what the function returns
matches what the calls assumed. A round that finds no path without recursion is MindSpore's
endless-recursion error.
"""
from __future__ import annotations

import functools
import sys

from ..common.symbolic_scalar import SymbolicScalar
from ..common.tensor import Tensor
from ..context import call_depth_limit
from ..errors import SourceLoc, user_location
from ..ir import tracing_state as state
from ..ir.abstract import IO_ABS, U_ABS, AbstractScalar, AbstractTensor, AbstractTuple
from ..ir.anf import FuncGraph, Node, ValueNode
from .builder import GraphBuilder
from .pytree import flatten, unflatten
from .runtime_raise import BranchRaised
from .undefined import Undefined

_MAX_ROUNDS = 6
# Python frames the tracer uses per nested user call (the converted function, control
# flow helpers, branch tracing): ``max_call_depth`` nested calls fit in this many times
_FRAMES_PER_CALL = 25
_DYNAMIC = object()  # an output leaf the graph computes (not a constant)
_MONAD_ABS = {"u": U_ABS, "io": IO_ABS}


class _Reentered(Exception):  # noqa: N818  (control flow of the tracer, not an error)
    """A call re-entered ``frame`` under a tensor condition: the outer call of ``frame``
    retraces the function as a recursive graph."""

    def __init__(self, frame: _Frame):
        super().__init__()
        self.frame = frame


class PendingRecursion(BranchRaised):
    """A recursive call in the first round, whose type is not known yet: its branch gives
    the other branch's values, like a branch that raised, and a tensor loop around it
    gives the values it starts with."""


def _is_dynamic(x) -> bool:
    """A value passed to the recursive graph at run time (the others are part of its key)."""
    return (isinstance(x, Tensor) and not x._is_param) or type(x) is SymbolicScalar


def _leaf_key(x):
    if isinstance(x, Tensor) and not x._is_param:
        return ("T", x.dtype.name, tuple(x.shape))  # a constant tensor too: it broadens
    if type(x) is SymbolicScalar:
        return ("s", x.kind.__name__)
    try:
        hash(x)
    except TypeError:
        return ("O", id(x))
    return ("S", type(x).__name__, x)


def _abstract(x) -> AbstractTensor | AbstractScalar:
    if type(x) is SymbolicScalar:
        return AbstractScalar.unknown(x.kind)
    return AbstractTensor(x.dtype, tuple(x.shape))


class _Output:
    """What a recursive function returns: its structure, the constant leaves, and the
    abstract of each leaf the graph outputs (tensors and run-time scalars)."""

    def __init__(self, out):
        leaves, self.tree = flatten(out)
        self.static = []
        self.abstracts = []
        self.leaves = leaves
        for x in leaves:
            if isinstance(x, Undefined):
                raise x.error()
            if _is_dynamic(x):
                self.static.append(_DYNAMIC)
                self.abstracts.append(_abstract(x))
            else:
                self.static.append(x)

    def same(self, other: _Output | None) -> bool:
        return other is not None and self.tree == other.tree \
            and self.abstracts == other.abstracts \
            and all(a is b or (type(a) is type(b) and _equal(a, b))
                    for a, b in zip(self.static, other.static))

    def node(self, gb: GraphBuilder, monads: list) -> Node:
        """The graph's output node: one leaf, or a tuple of the dynamic leaves and then
        the states of the ``monads`` the graph carries."""
        nodes = [gb.to_node(x) for x in self.leaves if _is_dynamic(x)]
        nodes += [gb.settle(getattr(gb, kind)) for kind in monads]
        if self.single() and not monads:
            return nodes[0]
        return gb.tuple_node(nodes)

    def values(self, computed) -> object:
        """The Python values a call returns, given the ``computed`` leaves."""
        items = iter(computed)
        return unflatten(self.tree, [next(items) if s is _DYNAMIC else s for s in self.static])

    def single(self) -> bool:
        """Whether the graph outputs its one leaf as it is (no tuple)."""
        return len(self.abstracts) == 1 and self.tree.kind == "leaf"

    def abstract(self, monads: list) -> AbstractTensor | AbstractScalar | AbstractTuple:
        if self.single() and not monads:
            return self.abstracts[0]
        return AbstractTuple(list(self.abstracts) + [_MONAD_ABS[kind] for kind in monads])


def _equal(a, b) -> bool:
    try:
        return bool(a == b)
    except Exception:
        return False


class _Frame:
    """One active call of a user function while tracing."""

    def __init__(self, code, builder: GraphBuilder, target, args: tuple, kwargs: dict):
        self.code = code
        self.builder = builder  # where the call was made
        self.target = target  # the converted function
        self.args = (args, kwargs)
        self.graph: FuncGraph | None = None  # set once it is traced as a recursive graph
        self.out: _Output | None = None  # what the recursive calls return (this round)
        self.captures: list = []  # (value in the caller's builder, name, abstract)
        self.capture_keys: list = []  # (GraphBuilder.captured key, index in captures)
        self.capture_params: list = []  # this round's parameters for ``captures``
        self.reads_weights = False
        self.monads: list[str] = []  # the monad chains ("u", "io") its effects use

    @functools.cached_property
    def flat(self) -> tuple[list, object]:
        """The argument leaves and their structure."""
        return flatten(self.args)

    @functools.cached_property
    def key(self) -> tuple:
        """What a re-entry must match: the argument structure and abstract signature
        (computed only when another call of the same code looks for it)."""
        leaves, tree = self.flat
        return (tree, tuple(_leaf_key(x) for x in leaves))

    def where(self) -> SourceLoc:
        return SourceLoc(self.code.co_filename, self.code.co_firstlineno)

    # ------------------------------------------------------------ re-entry
    def recurse(self, b: GraphBuilder, leaves: list):
        """A re-entry under a tensor condition: a call of the recursive graph."""
        if self.graph is None:
            raise _Reentered(self)
        if self.out is None:
            raise PendingRecursion()
        args = [b.to_node(x) for x in leaves if _is_dynamic(x)]
        args += [b.local(p) for p in self.capture_params]
        return self._call(b, args)

    def _call(self, b: GraphBuilder, args: list):
        """A call of the graph from ``b``: it takes and gives back the monad states when
        the function has effects (Assign, Print), in order with ``b``'s."""
        chains = [getattr(b, kind) for kind in self.monads]
        args = args + [b.settle(chain) for chain in chains]
        call = b.new_cnode([ValueNode(self.graph), *args], self.out.abstract(self.monads),
                           user_location(2))
        if self.reads_weights and "u" not in self.monads:
            b.u.pending.append(call)  # later writes of weights wait for the call
        if self.out.single() and not chains:
            return self.out.values([b.wrap(call)])
        items = b.wrap(call)
        n = len(self.out.abstracts)
        for chain, node in zip(chains, items[n:]):
            chain.node = node
            chain.effects = True
        return self.out.values(items[:n])

    # ------------------------------------------------------------ the graph
    def trace_graph(self):
        """Trace the function into its own graph (the fixpoint over the output type) and
        return the values of a call of it from the caller's builder."""
        name = self.code.co_name
        leaves, tree = self.flat
        for _round in range(_MAX_ROUNDS):
            gb = GraphBuilder(FuncGraph(name, self.where()), self.builder)
            gb.graph.flags["no_inline"] = True  # a recursive graph is never inlined
            gb.graph.flags["recursive"] = True
            syms = []
            for i, x in enumerate(leaves):
                if _is_dynamic(x):
                    a = _abstract(x)
                    p = gb.graph.add_param(f"arg{i}", a)
                    syms.append(SymbolicScalar(p, a) if isinstance(a, AbstractScalar)
                                else Tensor._symbolic(p, a))
                else:
                    syms.append(x)
            self._bind_captures(gb)
            for kind in self.monads:  # the effects' states enter as parameters
                getattr(gb, kind).node = gb.graph.add_param(kind.upper(), _MONAD_ABS[kind])
            self.graph = gb.graph
            s_args, s_kwargs = unflatten(tree, syms)
            with gb:
                try:
                    result = self.target(*s_args, **s_kwargs)
                except BranchRaised:
                    if self.out is None:
                        raise _endless(self) from None
                    raise
                out = _Output(result)
                grew = len(gb.capture_list) > len(self.captures)
                monads = [k for k in ("u", "io") if k in self.monads or getattr(gb, k).effects]
                if out.same(self.out) and not grew and monads == self.monads:
                    gb.graph.output = out.node(gb, monads)
                    if monads:
                        gb.graph.flags["effects"] = True
                    self.reads_weights = gb.u.node is not None
                    break
            self.out = out
            self.monads = monads
            self._keep_captures(gb)
        else:
            raise TypeError(f"The return type of the recursive function '{name}' does not "
                            f"settle: each recursive call returns a different type or "
                            f"shape.\n{self.where().describe()}")
        b = self.builder
        args = [b.to_node(x) for x in leaves if _is_dynamic(x)]
        args += [b.local(outer) for outer, _, _ in self.captures]
        return self._call(b, args)

    def _bind_captures(self, gb: GraphBuilder) -> None:
        """Give ``gb`` the parameters for the values the last round captured, so the
        recursive calls of this round can pass them on."""
        self.capture_params = []
        for outer, name, abstract in self.captures:
            p = gb.graph.add_param(name, abstract)
            gb.capture_list.append((outer, p))
            self.capture_params.append(p)
        for key, k in self.capture_keys:
            gb.captured[key] = self.capture_params[k]

    def _keep_captures(self, gb: GraphBuilder) -> None:
        index = {id(p): k for k, (_, p) in enumerate(gb.capture_list)}
        self.captures = [(outer, p.name, p.abstract) for outer, p in gb.capture_list]
        self.capture_keys = [(key, index[id(p)]) for key, p in gb.captured.items()]


def _endless(frame: _Frame) -> RuntimeError:
    return RuntimeError(
        f"There isn't any branch that can be evaluated: every path of the recursive "
        f"function '{frame.code.co_name}' calls it again, so the recursion or loop never "
        f"ends. Check the code for an infinite recursion or loop.\n"
        f"{frame.where().describe()}")


def _too_deep(code, limit: int | None) -> RuntimeError:
    """MindSpore's error for calls nested deeper than ``max_call_depth`` while compiling
    (``limit``), or deeper than Python's stack allows (None)."""
    what = f" {limit}" if limit is not None else ""
    stack = "" if limit is not None else " (Python's stack ran out first)"
    return RuntimeError(
        f"Exceed function call depth limit{what}{stack}: calls nest too deep while "
        f"compiling '{code.co_name}'. A recursion that does not end on a Python value, or "
        f"an infinite recursion or loop, does this; check the code, or raise the limit "
        f"with mindspore.set_recursion_limit(...).\n"
        f"{SourceLoc(code.co_filename, code.co_firstlineno).describe()}")


def call_traced(code, target, args: tuple, kwargs: dict):
    """``target(*args, **kwargs)`` (``target`` is the converted twin of the function whose
    code is ``code``), recursion-aware while tracing."""
    b: GraphBuilder | None = state.current()
    if b is None:
        return target(*args, **kwargs)
    calls = b.root.calls
    frame = _Frame(code, b, target, args, kwargs)
    for outer in reversed(calls):
        if outer.code is code and outer.key == frame.key:
            if outer.builder is not b and (outer.graph is None or _inside(b, outer)):
                return outer.recurse(b, frame.flat[0])
            break
    limit = call_depth_limit()
    if len(calls) >= limit:
        raise _too_deep(code, limit)
    calls.append(frame)
    before = sys.getrecursionlimit()
    if len(calls) == 1:  # the outermost call: room for ``limit`` nested calls
        sys.setrecursionlimit(max(before, _FRAMES_PER_CALL * limit))
    try:
        try:
            return target(*args, **kwargs)
        except _Reentered as r:
            if r.frame is not frame:
                raise
        return frame.trace_graph()
    except RecursionError:
        raise _too_deep(code, None) from None
    finally:
        calls.pop()
        sys.setrecursionlimit(before)


def _inside(b: GraphBuilder, frame: _Frame) -> bool:
    """Whether builder ``b`` records into ``frame``'s recursive graph or a graph nested in
    it (a branch or loop body)."""
    while b is not None:
        if b.graph is frame.graph:
            return True
        b = b.parent
    return False
