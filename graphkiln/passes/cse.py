"""Common subexpression elimination: identical pure applications are computed once.

Needs: nothing. Guarantees: effectful nodes (Assign, Print, graph calls that may carry
effects) are never merged; ``Load``s merge only when they read the same weight under
monad states with no possible write of that weight between them, which is exactly when they
see the same value: the state a ``Load`` is keyed by is walked back over ``UpdateState``s
whose ordered nodes are ``Load``s, pure primitives or in-place writes of *other* weights
(an optimizer's per-parameter updates re-read the learning rate after each of them). An
``UpdateState`` that orders only ``Load``s already ordered a few states earlier on its
chain is dropped.
"""
from __future__ import annotations

import numpy as np

from ..ir.abstract import AbstractMonad
from ..ir.anf import CNode, FuncGraph, ValueNode, all_graphs, graphs_in, toposort
from ..ir.rewrite import replace_nodes
from .load_elim import ref_key, written_keys

_NEVER = {"Print", "Assign", "AssignAdd", "AssignSub", "UpdateState", "While", "Depend"}
MAX_WALK = 4096  # UpdateStates a Load's state is walked back over, at most
LOOKBACK = 8  # earlier states searched for a Load that an UpdateState orders again


def _value_key(v):
    if isinstance(v, np.ndarray):
        if v.size > 64:
            return ("arr", id(v))
        return ("arr", v.dtype.str, v.shape, v.tobytes())
    if isinstance(v, (int, float, bool, str, type(None), np.generic)):
        return ("v", type(v).__name__, v)
    if isinstance(v, tuple):
        return ("t",) + tuple(_value_key(e) for e in v)
    return ("id", id(v))


def _constant_key(node: ValueNode):
    fn_key = getattr(node.value, "key", None)
    if callable(fn_key) and hasattr(node.value, "opdef"):
        return ("prim", node.value.key())
    return _value_key(node.value)


def _written_by(x) -> set[str] | None:
    """The weights ``x``, a node an ``UpdateState`` orders, may write: none for a ``Load``
    or a pure primitive, the ref inputs of an in-place write when they are all weights,
    None (any) for a graph call, an IO effect, another monad state or a write through a
    plain value."""
    if isinstance(x.abstract, AbstractMonad):
        return None
    if not isinstance(x, CNode):
        return set()
    opdef = getattr(getattr(x.inputs[0], "value", None), "opdef", None)
    if opdef is None or opdef.name == "UpdateState" or any(
            isinstance(i, ValueNode) and graphs_in(i.value) for i in x.inputs[1:]):
        return None
    if opdef.name == "Load" or opdef.effect == "none":
        return set()
    if not opdef.side_effect_mem:
        return None
    refs = [x.inputs[1 + i] for i in opdef.ref_inputs if 1 + i < len(x.inputs)]
    return written_keys(x) if all(ref_key(r) is not None for r in refs) else None


def _is_update(node) -> bool:
    return isinstance(node, CNode) and node.prim_name() == "UpdateState"


class _LoadStates:
    """The earliest monad state each weight's ``Load`` sees the same value under."""

    def __init__(self, mapping: dict):
        self.mapping = mapping
        self.memo: dict = {}  # (weight, id(state)) -> its earliest equivalent state
        self.writes: dict = {}  # id(UpdateState) -> weights its nodes may write (None: any)

    def _get(self, node):
        return self.mapping.get(id(node), node)

    def _written(self, update: CNode) -> set[str] | None:
        if id(update) not in self.writes:
            keys: set[str] | None = set()
            for x in update.inputs[2:]:
                more = _written_by(self._get(x))
                if more is None:
                    keys = None
                    break
                keys |= more
            self.writes[id(update)] = keys
        return self.writes[id(update)]

    def state(self, load: CNode):
        key = ref_key(load.inputs[1])
        u = self._get(load.inputs[2]) if len(load.inputs) > 2 else None
        if key is None or u is None:
            return u
        walked = []
        while (key, id(u)) not in self.memo and len(walked) < MAX_WALK and _is_update(u):
            written = self._written(u)
            if written is None or key in written:
                break
            walked.append(u)
            u = self._get(u.inputs[1])
        found = self.memo.get((key, id(u)), u)
        for w in walked:
            self.memo[(key, id(w))] = found
        return found

    def reorders_only(self, update: CNode) -> bool:
        """True when ``update`` orders only ``Load``s that an ``UpdateState`` at most
        ``LOOKBACK`` states before it on its chain already orders (only possible when one
        of them was merged into an earlier one)."""
        if not any(id(x) in self.mapping for x in update.inputs[2:]):
            return False
        need = {}
        for x in update.inputs[2:]:
            x = self._get(x)
            if not isinstance(x, CNode) or x.prim_name() != "Load":
                return False
            need[id(x)] = x
        u = self._get(update.inputs[1])
        for _ in range(LOOKBACK):
            if not need or not _is_update(u):
                return not need
            for x in u.inputs[2:]:
                need.pop(id(self._get(x)), None)
            u = self._get(u.inputs[1])
        return not need


def run(root: FuncGraph, ctx) -> bool:
    changed = False
    for g in all_graphs(root):
        seen: dict = {}
        mapping: dict = {}
        states = _LoadStates(mapping)
        for n in toposort(g):
            fn = n.inputs[0]
            if not isinstance(fn, ValueNode) or not hasattr(fn.value, "opdef"):
                continue
            opdef = fn.value.opdef
            if opdef.name == "UpdateState":
                if states.reorders_only(n):
                    mapping[id(n)] = states._get(n.inputs[1])
                continue
            if opdef.effect != "none" or opdef.name in _NEVER or (
                    not opdef.pure_eval and opdef.name != "Load"):
                continue
            key = tuple(_constant_key(i) if type(i) is ValueNode
                        else ("n", id(mapping.get(id(i), i))) for i in n.inputs)
            if opdef.name == "Load":
                key = key[:2] + (("n", id(states.state(n))),)
            prev = seen.get(key)
            if prev is None:
                seen[key] = n
            else:
                mapping[id(n)] = prev
        changed |= replace_nodes(g, mapping)
    return changed
