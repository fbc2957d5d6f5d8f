"""Element-wise fusion: a tree of element-wise ops whose intermediates nobody else reads
becomes one ``FusedElementwise`` node (``ops/defs/fused.py``) that runs the ops block by
block, so each block's temporaries stay in the cache instead of every op streaming whole
arrays through memory.

A backend pass: it runs on the optimised graph after autodiff, vmap and the passes, right
before code generation. It fuses only what is exact: ops whose kernel for their operand
types is a bare NumPy ufunc (the same ufunc then runs on the same types, block by block)
and float ``ReLU`` (``fmax(0, x) + 0``, its kernel's two ufuncs), so results are
bit-for-bit those of the unfused graph. ``Select`` stays out: ``np.where`` is bound by its
own work, and groups with it ran 0.88x at 4 and 16 MiB (measured while the pass fused it).
Members have the group's result shape (operands outside the group may broadcast).

A group is made only where its result has at least ``MIN_GROUP_BYTES`` and it has at least
``STEPS_PER_ARRAY`` steps per full-size array it reads or writes. Measured (bench/fusion.py,
one core with a 32 MiB L3): NumPy's unfused ops on arrays that stay in the cache are faster
than the blocks' extra ufunc calls (0.6-0.75x at 1-4 MiB); once the arrays leave it, long
chains win (GELU 1.3x, Adam 1.4x at 16 MiB; 1.6-1.8x at 64 MiB) and short ones still lose
(bias + ReLU, 3 steps over 2 arrays, 0.8x; the BatchNorm gradient, 4 over 3, 0.97x).

Nothing that writes memory or calls a graph may run between a group's first member and
its root in the generated order (a member would otherwise read a weight after a write it
used to precede).

``GRAPHKILN_FUSION=0`` turns the pass off for the graphs compiled from then on.
"""
from __future__ import annotations

import heapq
import math
import os

import numpy as np

from ..ir.abstract import AbstractScalar, AbstractTensor
from ..ir.anf import CNode, FuncGraph, ValueNode, all_graphs, toposort
from ..ir.build import prim_node
from ..ir.primitive import NO_EFFECT
from ..ir.rewrite import replace_nodes
from ..ops.defs import fused

_ENV = "GRAPHKILN_FUSION"
MIN_GROUP_BYTES = 16 << 20
STEPS_PER_ARRAY = 2


def enabled() -> bool:
    """``GRAPHKILN_FUSION`` is not ``0`` (read when a graph compiles)."""
    return os.environ.get(_ENV, "1").strip() != "0"


def _steps(node: CNode) -> list | None:
    """The node as program steps ``[(function name, operands)]`` (an operand is a node or
    a Python number; ``None`` stands for the previous step's result), or None when it is
    not an exact element-wise op."""
    fn = node.inputs[0]
    prim = fn.value if isinstance(fn, ValueNode) else None
    if getattr(prim, "opdef", None) is None or prim.opdef.effect != NO_EFFECT or \
            not isinstance(node.abstract, AbstractTensor):
        return None
    ins = node.inputs[1:]
    if not all(_operand_ok(a) for a in ins):
        return None
    kernel = prim.opdef.kernel_for([a.abstract for a in ins], node.abstract, prim.attrs)
    if isinstance(kernel, np.ufunc) and getattr(np, kernel.__name__, None) is kernel:
        return [(kernel.__name__, list(ins))]
    if prim.opdef.name == "ReLU" and node.abstract.dtype.is_float:
        return [("fmax", [0, ins[0]]), ("add", [None, 0])]
    return None


def _operand_ok(a) -> bool:
    if isinstance(a.abstract, AbstractTensor):
        return True
    return isinstance(a, ValueNode) and isinstance(a.abstract, AbstractScalar) and \
        type(a.value) in (bool, int, float)


def run(root: FuncGraph) -> bool:
    """Fuse every graph of ``root``; True when something changed."""
    changed = False
    for g in all_graphs(root):
        changed |= _fuse_graph(g)
    return changed


def _fuse_graph(g: FuncGraph) -> bool:
    order = toposort(g)
    # the common case (no large result) costs one inline size check per tensor node
    roots = [n for n in order if type(n.abstract) is AbstractTensor
             and math.prod(n.abstract.shape) * n.abstract.dtype.np_dtype.itemsize
             >= MIN_GROUP_BYTES and _worth_fusing(n)]
    if not roots:
        return False
    pos = {id(n): i for i, n in enumerate(order)}
    users: dict[int, list[CNode]] = {}
    for n in order:
        for inp in n.inputs[1:]:
            users.setdefault(id(inp), []).append(n)
    # barriers[i]: writes and graph calls among the first i nodes of the order
    barriers = [0]
    for n in order:
        barriers.append(barriers[-1] + _is_barrier(n))
    steps: dict[int, list | None] = {}
    grouped: set[int] = set()
    mapping = {}
    for root in reversed(roots):
        if id(root) in grouped or _steps_of(root, steps) is None:
            continue
        members = _grow(root, steps, users, pos, barriers, grouped, g)
        if not _saves_traffic(root, members, steps):
            continue
        grouped.update(id(m) for m in members)
        members.sort(key=lambda m: pos[id(m)])
        mapping[id(root)] = _fused_node(g, root, members, steps)
    return replace_nodes(g, mapping)


def _saves_traffic(root: CNode, members: list[CNode], steps: dict) -> bool:
    """At least ``STEPS_PER_ARRAY`` steps for each full-size array the group reads or
    writes: the passes over memory it saves must outweigh the blocks' extra calls."""
    n_steps = sum(len(steps[id(m)]) for m in members)
    inside = {id(m) for m in members}
    full = {id(a) for m in members for a in m.inputs[1:] if id(a) not in inside and
            isinstance(a.abstract, AbstractTensor) and a.abstract.shape == root.abstract.shape}
    return len(members) > 1 and n_steps >= STEPS_PER_ARRAY * (len(full) + 1)


def _steps_of(node: CNode, memo: dict) -> list | None:
    key = id(node)
    if key not in memo:
        memo[key] = _steps(node)
    return memo[key]


def _worth_fusing(node: CNode) -> bool:
    """A tensor result of at least ``MIN_GROUP_BYTES`` in more than one block (one block
    calls the same ufuncs as the unfused ops)."""
    a = node.abstract
    if type(a) is not AbstractTensor or not a.shape or \
            not all(isinstance(d, int) and d >= 0 for d in a.shape) or \
            math.prod(a.shape) * a.dtype.np_dtype.itemsize < MIN_GROUP_BYTES:
        return False
    return a.shape[0] > max(1, fused.BLOCK_ELEMENTS // max(1, math.prod(a.shape[1:])))


def _is_barrier(n: CNode) -> bool:
    fn = n.inputs[0]
    prim = fn.value if isinstance(fn, ValueNode) else None
    opdef = getattr(prim, "opdef", None)
    if opdef is None:
        return True  # a graph call
    return opdef.effect != NO_EFFECT or opdef.name in ("Switch", "While", "WhileGrad",
                                                      "HyperMap")


def _grow(root, steps, users, pos, barriers, grouped, g) -> list[CNode]:
    """``root`` and the producers that only it (through the group) reads, latest first:
    a producer is decided once all its users are (they come later in the order)."""
    members = [root]
    inside = {id(root)}
    frontier: list = []
    seen = set()

    def offer(node):
        for a in node.inputs[1:]:
            if type(a) is CNode and id(a) not in seen:
                seen.add(id(a))
                heapq.heappush(frontier, (-pos[id(a)], id(a), a))
    offer(root)
    r = pos[id(root)]
    while frontier:
        p, _, n = heapq.heappop(frontier)
        p = -p
        if id(n) in grouped or n is g.output or _steps_of(n, steps) is None or \
                n.abstract.shape != root.abstract.shape or \
                barriers[r] != barriers[p + 1] or \
                not all(id(u) in inside for u in users.get(id(n), ())):
            continue
        members.append(n)
        inside.add(id(n))
        offer(n)
    return members


def _fused_node(g: FuncGraph, root: CNode, members: list[CNode], steps) -> CNode:
    """The ``FusedElementwise`` node computing ``root`` (``members`` in the generated
    order) from the group's outside inputs."""
    outside: list = []
    names: dict[int, str] = {}
    text: list[str] = []

    def operand(a, prev: str) -> str:
        if a is None:
            return prev
        if not hasattr(a, "abstract"):  # a number of an expansion (ReLU's 0)
            return repr(a)
        if id(a) in names:
            return names[id(a)]
        if isinstance(a, ValueNode) and not isinstance(a.abstract, AbstractTensor):
            return repr(a.value)
        names[id(a)] = f"x{len(outside)}"
        outside.append(a)
        return names[id(a)]
    for m in members:
        prev = ""
        for fn, operands in steps[id(m)]:
            args = [operand(a, prev) for a in operands]
            prev = f"t{len(text)}"
            text.append(f"{prev} = {fn}({', '.join(args)})")
        names[id(m)] = prev
    return CNode(g, [prim_node(fused.FusedElementwise, {"program": "; ".join(text)}), *outside],
                 root.abstract, root.loc)


__all__ = ["MIN_GROUP_BYTES", "STEPS_PER_ARRAY", "enabled", "run"]
