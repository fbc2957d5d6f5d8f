"""Helpers for pass tests: trace a tiny function, run one pass, run the graph."""
import numpy as np
import pytest

from graphkiln.backend.codegen import generate
from graphkiln.compile.compile_call import trace_graph
from graphkiln.ir.anf import iter_nodes
from graphkiln.ir.verify import verify
from graphkiln.passes.pipeline import PassContext


class Traced:
    def __init__(self, fn, *args):
        self.args = args
        self.graph, self.weights, *_ = trace_graph(fn, fn.__name__, args, {})

    def count(self, name: str) -> int:
        return sum(1 for _, order in iter_nodes(self.graph) for n in order
                   if n.prim_name() == name)

    def run(self):
        fn, _ = generate(self.graph)
        out = fn(*[a._data for a in self.args], *[w._data for w in self.weights])
        return np.asarray(out) if not isinstance(out, tuple) else out

    def apply(self, pass_fn, **ctx) -> bool:
        changed = pass_fn(self.graph, PassContext(**ctx))
        verify(self.graph)
        return changed


@pytest.fixture
def traced():
    return Traced
