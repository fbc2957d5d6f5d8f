"""What a compile produces: :class:`Executable` (generated function plus input and output
mapping) and :class:`CompileInfo` (stage times, node counts, IR text, generated code)."""
from __future__ import annotations

import os
from collections.abc import Callable

import numpy as np

from ..backend.codegen import source_location
from ..common import dtype as mstype
from ..common.float_status import fp_guard
from ..common.heap import tune_heap
from ..common.op_timeline import TIMELINE, timed
from ..common.tensor import Tensor
from ..errors import SourceLoc, user_frames_only, with_location
from ..frontend.pytree import unflatten
from ..ir.abstract import AbstractScalar, AbstractSequence, AbstractTensor
from ..ir.anf import FuncGraph, Parameter, ValueNode, all_graphs, count_nodes, iter_nodes
from ..ir.printer import ir_text
from ..ir.serialize import decode
from . import data_dump


class CompileInfo:
    """What the last compile of a function or cell did (for users and benchmarks)."""

    def __init__(self, name: str, records: list, trace_seconds: float,
                 codegen_seconds: float, total_seconds: float, graph, source: str, *,
                 graph_record: Callable[[], tuple] | None = None, weights: dict | None = None,
                 from_cache: bool = False):
        self.name = name
        self.records = records
        self.trace_seconds = trace_seconds
        self.codegen_seconds = codegen_seconds
        self.total_seconds = total_seconds
        self._graph = graph
        self._graph_record = graph_record
        self._weights = weights
        self.source = source
        self.from_cache = from_cache

    @property
    def graph(self) -> FuncGraph:
        """The optimised graph (read back from the cache entry on first use)."""
        if self._graph is None and self._graph_record is not None:
            self._graph = decode(self._graph_record(), self._weights)
        return self._graph

    @property
    def nodes(self) -> int:
        return self.records[-1].nodes if self.records else count_nodes(self.graph)[0]

    @property
    def cnodes(self) -> int:
        return self.records[-1].cnodes if self.records else count_nodes(self.graph)[1]

    @property
    def subgraphs(self) -> int:
        return self.records[-1].subgraphs if self.records else len(all_graphs(self.graph))

    def stage(self, name: str):
        return next(r for r in self.records if r.name == name)

    def ir(self, detail: bool = False) -> str:
        return ir_text(self.graph, detail)

    def count(self, prim_name: str) -> int:
        """How many nodes apply the primitive ``prim_name`` in the final graph."""
        return sum(1 for _, order in iter_nodes(self.graph) for n in order
                   if n.prim_name() == prim_name)

    def table(self) -> str:
        rows = [f"{'stage':<22}{'ms':>9}{'nodes':>8}{'cnodes':>8}{'graphs':>8}"]
        rows.append(f"{'trace':<22}{self.trace_seconds * 1e3:>9.2f}")
        for r in self.records:
            rows.append(f"{r.name:<22}{r.seconds * 1e3:>9.2f}{r.nodes:>8}{r.cnodes:>8}"
                        f"{r.subgraphs:>8}")
        rows.append(f"{'codegen':<22}{self.codegen_seconds * 1e3:>9.2f}")
        rows.append(f"{'total':<22}{self.total_seconds * 1e3:>9.2f}")
        return "\n".join(rows)


def at_user_line(exc: Exception, generated_file: str) -> Exception:
    """``exc`` (raised by a kernel of the generated module ``generated_file``) with the op's
    name and the user's line that created it, MindSpore's "Traceback of Net Construct Code"
    section, and graphkiln's frames hidden unless ``GRAPHKILN_INTERNAL_FRAMES=1``."""
    tb = exc.__traceback__
    found = source_location(tb, generated_file)
    if found is not None and found[0] != "Raise" and not getattr(exc, "_gk_located", False):
        # (the user's own ``raise`` in a graph keeps its message exactly, as in MindSpore)
        op, filename, lineno = found
        text = str(exc.args[0]) if exc.args else str(exc)
        if not text.startswith("For '"):
            text = f"For '{op}', {text}"
        exc.args = (text,) + tuple(exc.args[1:])
        with_location(exc, SourceLoc(filename, lineno))
    if os.environ.get("GRAPHKILN_INTERNAL_FRAMES", "") in ("", "0"):
        exc = exc.with_traceback(user_frames_only(tb))
    return exc


def written_arrays(graph: FuncGraph) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The positions of the inputs and of the weights whose arrays a run of ``graph`` writes
    in place; a write through an inner graph's parameter (in a tensor ``if`` or loop) may
    write any of them."""
    inputs = {id(p): k for k, p in enumerate(graph.params)}
    weights = {id(p): k for k, p in enumerate(graph.weights)}
    ins, ws = set(), set()
    for g, order in iter_nodes(graph):
        for n in order:
            fn = n.inputs[0]
            opdef = getattr(fn.value, "opdef", None) if isinstance(fn, ValueNode) else None
            if opdef is None or not opdef.side_effect_mem:
                continue
            for r in (n.inputs[1 + i] for i in opdef.ref_inputs if i + 1 < len(n.inputs)):
                if id(r) in inputs:
                    ins.add(inputs[id(r)])
                elif id(r) in weights:
                    ws.add(weights[id(r)])
                elif g is not graph and isinstance(r, Parameter):
                    return tuple(inputs.values()), tuple(weights.values())
    return tuple(sorted(ins)), tuple(sorted(ws))


def _output_value(value, abstract):
    """A run-time scalar or Python object as it is; a run-time sequence as a tuple or list
    of Tensors (or numbers)."""
    if isinstance(abstract, AbstractScalar):  # a join of Python numbers, run as a 0-d array
        return abstract.kind(value)
    if not isinstance(abstract, AbstractSequence):
        return value
    if isinstance(abstract.element, AbstractTensor):
        value = [Tensor._from_array(v, abstract.element.dtype) for v in value]
    return list(value) if abstract.is_list else tuple(value)


class Executable:
    """A compiled graph: generated function plus how to map inputs and outputs.

    Inputs and weights enter the generated function by reference; outputs leave by
    reference too, except an output that *is* a weight's or an input's array (the next step
    may write it in place) or a constant of the code (the caller may write it), which is
    copied."""

    __slots__ = ("fn", "weights", "out_tree", "out_leaves", "out_slots", "info", "generated",
                 "_single", "guards", "cell_guards", "cell_state", "live_writes", "_timed_fn",
                 "_dump", "_constants", "writes", "arg_writes")

    def __init__(self, fn, weights, out_tree, out_leaves, out_slots, info):
        tune_heap()  # steps reuse their freed intermediates' memory (common/heap.py)
        # a lone tensor output is returned bare; anything else as a tuple
        self.fn = fn
        self.weights = weights
        self.out_tree = out_tree
        self.out_leaves = out_leaves
        self.out_slots = out_slots  # [(leaf index, dtype, or None for a run-time scalar)]
        self.info = info
        self.generated = None  # the GeneratedCode, kept for the compile cache (use_code)
        self._constants: frozenset = frozenset()  # ids of the code's constant arrays
        # the common case, one tensor out: no tree to rebuild
        self._single = out_slots[0][1] if out_tree.kind == "leaf" and out_slots and \
            isinstance(out_slots[0][1], mstype.Type) else None
        self.guards: tuple = ()  # values read from modules at trace time (compile/guards.py)
        self.cell_guards: list = []  # values read from closure cells (this process only)
        self.cell_state = None  # the cell tree it was traced from (compile/cell_state.py)
        self.live_writes = False  # it writes live objects or calls a pyfunc: not stored
        # positions of the inputs and of the weights whose arrays a run writes in place
        self.writes: tuple[tuple[int, ...], tuple[int, ...]] = ((), ())
        self._timed_fn = None  # the same code with timed kernels, while a Profiler runs
        self._dump = None  # the same code saving its kernels' data, while a dump is set
        # a bytecode capture's writes to list/dict arguments (compile/arg_writes.py): the
        # output is then the graph values they and the function's output hold
        self.arg_writes = None

    def use_code(self, generated) -> None:
        """Keep ``generated``, the code ``fn`` came from; the constant arrays it holds are
        never returned as they are (a caller writing into one would change every later
        call's result)."""
        self.generated = generated
        self._constants = frozenset(id(v) for kind, v in generated.spec.values()
                                    if kind == "value" and isinstance(v, np.ndarray))

    def _timed(self):
        TIMELINE.begin_call()
        if self._timed_fn is None:
            self._timed_fn = self.generated.renamed().load(wrap=timed) \
                if self.generated is not None else self.fn
        return self._timed_fn

    def _dumped(self, fn):
        """``fn`` saving its data as the dump configuration asks (read again first: it
        may have changed or gone since the last compile)."""
        data_dump.refresh()
        config = data_dump.STATE.config
        if config is None:
            return fn
        if self._dump is None or self._dump.config is not config:
            self._dump = data_dump.GraphDump(self, config)
        return self._dump.run

    def __call__(self, inputs: list):
        """Run on ``inputs``: the arrays of the tensor arguments and the values of the
        run-time scalars, in argument order."""
        warrays = [w._data for w in self.weights]
        fn = self.fn if not TIMELINE.active else self._timed()
        if data_dump.STATE.config is not None and self.generated is not None:
            fn = self._dumped(fn)
        try:
            with fp_guard():
                out = fn(*inputs, *warrays)
        except Exception as e:  # a kernel failed: report the user's line, not ours
            raise at_user_line(e, self.fn.__code__.co_filename) from None
        caller_arrays = warrays + inputs  # arrays the caller keeps: never returned as they are
        if self._single is not None:
            if id(out) in self._constants or any(out is w for w in caller_arrays):
                out = out.copy()
            return Tensor._from_array(out, self._single)
        if self.out_slots and self.out_tree.kind == "leaf":  # one run-time scalar or sequence
            return _output_value(out, self.out_slots[0][1])
        leaves = list(self.out_leaves)
        if self.out_tree.kind == "leaf":  # a lone run-time Python object
            out = (out,)
        for (i, dtype), value in zip(self.out_slots, out):
            if not isinstance(dtype, mstype.Type):  # a run-time scalar or sequence
                leaves[i] = _output_value(value, dtype)
                continue
            if id(value) in self._constants or any(value is w for w in caller_arrays):
                value = value.copy()
            leaves[i] = value if dtype is None else Tensor._from_array(value, dtype)
        return unflatten(self.out_tree, leaves)
