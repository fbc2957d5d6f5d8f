"""Insert ``TensorMove`` after ``Load``s that a later in-place write could corrupt.

``Load`` aliases the weight's live array, and ``Assign`` writes that array in place, so a
loaded value used after a later write of the same weight would see the new value. The level
comes from ``MS_DEV_SIDE_EFFECT_LOAD_ELIM``:

* 0: a copy after every ``Load``;
* 1 (default): a copy after every ``Load`` of a weight that the graph writes anywhere,
  unless the generated order already runs every read of the loaded value before the next
  write of that weight (so a training step reads its weights without copying them);
* 2: as 1, and also only where a write to the same weight is ordered after the ``Load``
  and some use of the loaded value is not already forced to run before that write;
* 3: no copies (least memory; results may be wrong, as the spec warns).

"Reads" follow the value through ops that may return a view of it (reshapes, ``Depend``);
a value that leaves the graph, enters a tuple or a graph call counts as read at the end.
Needs: monad chains from the tracer; runs last, so the order it sees is the order codegen
emits (``toposort``). Guarantees: levels 0-2 never change results; the copy is threaded
into the ``U`` chain in place of the ``Load`` so it runs before the next write.
"""
from __future__ import annotations

import bisect

from ..ir.abstract import AbstractMonad, AbstractRef
from ..ir.anf import CNode, FuncGraph, ValueNode, all_graphs, graphs_in, toposort
from ..ir.build import prim_node
from ..ops.defs.side_effects import TensorMove

# ops whose kernels always return a new array (never a view of an input)
FRESH_OUTPUT = {"Add", "Sub", "Mul", "Div", "RealDiv", "FloorDiv", "FloorMod", "Maximum",
                "Minimum", "Less", "LessEqual", "Greater", "GreaterEqual", "Equal",
                "NotEqual", "Neg", "Abs", "Square", "Exp", "Log", "Sqrt", "Rsqrt", "Sin",
                "Cos", "Tanh", "Sigmoid", "ReLU", "GeLU", "Softplus", "Erf", "MatMul",
                "BatchMatMul", "Select", "TensorMove", "Assign", "AssignAdd", "AssignSub",
                "FusedElementwise", "LogSoftmax", "Softmax", "ReluGrad", "LayerNorm",
                "BatchNorm", "OneHot", "BroadcastTo", "AddN", "Gather", "GetitemGrad",
                "Conv2D", "Conv2DBackpropInput", "Conv2DBackpropFilter", "Conv3D",
                "Conv3DBackpropInput", "Conv3DBackpropFilter"}
# users through which the value may be read anywhere later
_ESCAPES = {"MakeTuple", "Switch", "While", "WhileGrad", "HyperMap"}


def ref_key(node) -> str | None:
    a = node.abstract
    return a.ref_key if isinstance(a, AbstractRef) else None


def written_keys(node) -> set[str]:
    """The weights ``node`` writes in place: the ref inputs of a memory-effect primitive
    (``Assign``, ``ApplyMomentum``, ``Adam``...)."""
    opdef = getattr(node.inputs[0], "value", None)
    opdef = getattr(opdef, "opdef", None)
    if opdef is None or not opdef.ref_inputs:
        return set()
    keys = (ref_key(node.inputs[1 + i]) for i in opdef.ref_inputs
            if 1 + i < len(node.inputs))
    return {k for k in keys if k is not None}


def written_weights(root: FuncGraph) -> set[str]:
    keys = set()
    for g in all_graphs(root):
        for n in toposort(g):
            keys |= written_keys(n)
    return keys


def run(root: FuncGraph, ctx) -> bool:
    level = ctx.load_elim_level
    if level >= 3:
        return False
    written = written_weights(root) if level >= 1 else None
    changed = False
    for g in all_graphs(root):
        order = toposort(g)
        loads = [n for n in order if n.prim_name() == "Load"]
        if not loads:
            continue
        if level >= 1:
            reads = _ReadOrder(g, order)
            loads = [n for n in loads if ref_key(n.inputs[1]) in written
                     and reads.read_after_write(n)]
        if level == 2:
            loads = [n for n in loads if _needs_copy(n, order)]
        if not loads:
            continue
        mapping = {}
        for ld in loads:
            mapping[id(ld)] = CNode(g, [prim_node(TensorMove, {}), ld], ld.abstract, ld.loc)
        # the copies themselves read the loads: keep those inputs
        _replace_except_copies(g, mapping)
        changed = True
    return changed


def _replace_except_copies(g: FuncGraph, mapping: dict) -> None:
    copies = {id(c) for c in mapping.values()}
    for n in toposort(g):
        if id(n) in copies:
            continue
        for i, inp in enumerate(n.inputs):
            new = mapping.get(id(inp))
            if new is not None:
                n.set_input(i, new)
    if id(g.output) in mapping:
        g.output = mapping[id(g.output)]


class _ReadOrder:
    """Positions and users of one graph's nodes in the generated order, and where each
    weight may next be written (one scan of the order, then a bisection per question)."""

    def __init__(self, g: FuncGraph, order: list[CNode]):
        self.order = order
        self.output = g.output
        self.pos = {id(n): i for i, n in enumerate(order)}
        self.users: dict[int, list[CNode]] = {}
        self.writes_any: list[int] = []  # positions that may write every weight
        self.writes: dict[str, list[int]] = {}  # weight -> positions writing it
        for i, n in enumerate(order):
            for inp in n.inputs[1:]:
                self.users.setdefault(id(inp), []).append(n)
            if may_write_any(n):
                self.writes_any.append(i)
            else:
                for key in written_keys(n):
                    self.writes.setdefault(key, []).append(i)

    def first_write_after(self, load: CNode) -> int:
        """Position of the first node after ``load`` that may write its weight (a write
        of it, or any call of a graph), or past the end."""
        at = self.pos[id(load)]
        first = len(self.order)
        for positions in (self.writes_any, self.writes.get(ref_key(load.inputs[1]), ())):
            k = bisect.bisect_right(positions, at)
            if k < len(positions):
                first = min(first, positions[k])
        return first

    def read_after_write(self, load: CNode) -> bool:
        """True when the loaded value, or a view of it, may be read after the next write of
        its weight, or leaves the graph."""
        write = self.first_write_after(load)
        stack, seen = [load], set()
        while stack:
            n = stack.pop()
            if n is self.output:
                return True
            for u in self.users.get(id(n), ()):
                if id(u) in seen or isinstance(u.abstract, AbstractMonad):
                    continue  # UpdateState only orders
                seen.add(id(u))
                name = u.prim_name()
                if name is None or name in _ESCAPES or self.pos[id(u)] > write:
                    return True
                if name not in FRESH_OUTPUT:
                    stack.append(u)
        return False


def may_write_any(n: CNode) -> bool:
    """True when ``n`` may write any weight: a call of a graph, or a loop or map that runs
    graphs."""
    if n.prim_name() is None:
        return True
    return any(isinstance(i, ValueNode) and graphs_in(i.value) for i in n.inputs[1:])


def _ancestors(node, limit: int = 100000) -> set[int]:
    seen = set()
    stack = [node]
    while stack:
        n = stack.pop()
        if id(n) in seen:
            continue
        seen.add(id(n))
        if isinstance(n, CNode):
            stack.extend(n.inputs)
        if len(seen) > limit:
            break
    return seen


def _needs_copy(load: CNode, order: list[CNode]) -> bool:
    """True when a later write of the same weight may run before a use of ``load``."""
    key = ref_key(load.inputs[1])
    users = [n for n in order if any(i is load for i in n.inputs)
             and not isinstance(n.abstract, AbstractMonad)]
    later_writes = []
    for n in order:
        if key in written_keys(n):
            if id(load) in _ancestors(n):
                later_writes.append(n)
    if not later_writes:
        # a value that leaves the graph aliases the weight across calls
        return load is order[-1] if order else False
    for w in later_writes:
        anc = _ancestors(w)
        if any(id(u) not in anc for u in users):
            return True
    return False


__all__ = ["run"]
