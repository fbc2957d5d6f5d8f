"""The optimisation pipeline: one ordered list of named passes, timed and dumped."""
from __future__ import annotations

import os
import time
from dataclasses import dataclass, field

from ..ir.anf import FuncGraph, all_graphs, count_nodes
from ..ir.printer import ir_text
from ..ir.verify import verify
from . import constant_fold, cse, dce, inline, load_elim, simplify, switch_fold

PASSES = [
    ("inline", inline.run),
    ("constant_fold", constant_fold.run),
    ("simplify", simplify.run),
    ("switch_fold", switch_fold.run),
    ("inline_branches", inline.run),
    ("cse", cse.run),
    ("simplify_after_cse", simplify.run),
    ("dce", dce.run),
    ("load_elim", load_elim.run),
]


@dataclass
class StageRecord:
    """What one stage did: its name, wall time, whether it changed the graph, node counts."""

    name: str
    seconds: float
    changed: bool
    nodes: int
    cnodes: int
    subgraphs: int


@dataclass
class PassContext:
    """Options that passes read (they change the graph, so they are part of cache keys)."""

    load_elim_level: int = 1
    save_graphs: bool = False
    save_graphs_path: str = "."
    verify: bool = False
    records: list = field(default_factory=list)
    dump_index: int = 0


def _record(ctx: PassContext, root: FuncGraph, name: str, seconds: float, changed: bool):
    if changed or not ctx.records:
        nodes, cnodes = count_nodes(root)
        subgraphs = len(all_graphs(root))
    else:  # an unchanged graph has the previous stage's counts
        last = ctx.records[-1]
        nodes, cnodes, subgraphs = last.nodes, last.cnodes, last.subgraphs
    ctx.records.append(StageRecord(name, seconds, changed, nodes, cnodes, subgraphs))
    if ctx.save_graphs:
        os.makedirs(ctx.save_graphs_path, exist_ok=True)
        fname = f"{len(ctx.records) - 1:02d}_{name}_{ctx.dump_index:04d}.ir"
        with open(os.path.join(ctx.save_graphs_path, fname), "w") as f:
            f.write(ir_text(root, detail=True))


def optimize(root: FuncGraph, ctx: PassContext) -> FuncGraph:
    """Run every pass in order on ``root`` and its subgraphs."""
    for name, fn in PASSES:
        t0 = time.perf_counter()
        changed = fn(root, ctx)
        dt = time.perf_counter() - t0
        if ctx.verify:
            verify(root, after=name)
        _record(ctx, root, name, dt, changed)
    return root


record_stage = _record
