"""Check that a graph family is well formed (run after every pass in tests)."""
from __future__ import annotations

from .abstract import AbstractMonad
from .anf import CNode, FuncGraph, Parameter, ValueNode, all_graphs, toposort


class IRError(AssertionError):
    """A malformed graph: always a graphkiln bug, never the user's fault."""


def verify(root: FuncGraph, after: str = "") -> None:
    where = f" after pass '{after}'" if after else ""
    for g in all_graphs(root):
        params = {id(p) for p in g.all_params}
        if g.output is None:
            raise IRError(f"graphkiln bug{where}: graph @{g.name} has no output")
        for n in toposort(g) + [g.output]:
            if not isinstance(n, CNode):
                continue
            if n.graph is not g:
                raise IRError(f"graphkiln bug{where}: node {n!r} of @{n.graph.name} is used "
                              f"in @{g.name} (graphs must be closed)")
            if n.abstract is None:
                raise IRError(f"graphkiln bug{where}: node {n!r} in @{g.name} has no abstract")
            for i in n.inputs:
                if isinstance(i, Parameter) and id(i) not in params:
                    raise IRError(f"graphkiln bug{where}: @{g.name} uses parameter {i.name} "
                                  f"of @{i.graph.name}")
                if isinstance(i, CNode) and i.graph is not g:
                    raise IRError(f"graphkiln bug{where}: @{g.name} uses a node of "
                                  f"@{i.graph.name}")
            _check_effects(n, g, where)
            _check_calls(n, g, where)


def _check_effects(n: CNode, g: FuncGraph, where: str) -> None:
    fn = n.inputs[0]
    opdef = getattr(getattr(fn, "value", None), "opdef", None)
    if opdef is not None and opdef.effect != "none":
        if not isinstance(n.inputs[-1].abstract, AbstractMonad):
            raise IRError(f"graphkiln bug{where}: effectful {opdef.name} in @{g.name} has no "
                          f"monad input")


def _check_calls(n: CNode, g: FuncGraph, where: str) -> None:
    fn = n.inputs[0]
    callees = []
    if isinstance(fn, ValueNode) and isinstance(fn.value, FuncGraph):
        callees = [fn.value]
    elif isinstance(fn, CNode) and fn.prim_name() == "Switch":
        callees = [v.value for v in fn.inputs[2:4] if isinstance(v, ValueNode)]
    for c in callees:
        if len(c.all_params) != len(n.inputs) - 1:
            raise IRError(f"graphkiln bug{where}: @{c.name} takes {len(c.all_params)} "
                          f"arguments but is called with {len(n.inputs) - 1} in @{g.name}")
