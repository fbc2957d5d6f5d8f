"""One compile: trace the converted function on symbolic inputs, run the pass pipeline,
generate code; the result is an :class:`Executable`."""
from __future__ import annotations

import gc
import inspect
import os
import time
import types
from contextlib import contextmanager, nullcontext

import numpy as np

from ..backend import fusion, sibling_merge
from ..backend.codegen import generate_code
from ..common import comm_engine
from ..common.capture_flags import bytecode_capture, recording_global_writes, refuse
from ..common.mutable import RUNTIME_SCALARS, dynamic_len_items
from ..common.symbolic_scalar import SymbolicScalar
from ..common.symbolic_sequence import SymbolicSequence
from ..common.tensor import Tensor
from ..context import get_context, load_elim_level, strict_syntax
from ..errors import blame_argument, innermost_user_location, user_frames_only, with_location
from ..frontend.builder import GraphBuilder
from ..frontend.control import convert
from ..frontend.fallback import PyObject
from ..frontend.pytree import flatten, unflatten
from ..frontend.undefined import Undefined
from ..ir import tape
from ..ir import tracing_state as state
from ..ir.abstract import AbstractScalar, AbstractSequence, AbstractTensor
from ..ir.anf import FuncGraph
from ..ir.verify import verify
from ..passes.pipeline import PassContext, optimize, record_stage
from . import data_dump
from .arg_writes import ArgumentWrites
from .cell_state import cell_state, container_guards, instance_guards
from .executable import CompileInfo, Executable, written_arrays
from .guards import attribute_guards, snapshot


def _arg_names(fn, args: tuple, kwargs: dict, skip_self: bool) -> list[str]:
    """A readable name per argument leaf (``x``, ``inputs0``...)."""
    try:
        sig = inspect.signature(fn)
        params = list(sig.parameters.values())
    except (TypeError, ValueError):
        params = []
    if skip_self and params:
        params = params[1:]
    names: list[str] = []
    pos = [p for p in params if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    var = next((p for p in params if p.kind == p.VAR_POSITIONAL), None)
    for i, a in enumerate(args):
        if i < len(pos):
            base = pos[i].name
        elif var is not None:
            base = f"{var.name}{i - len(pos)}"
        else:
            base = f"arg{i}"
        n = len(flatten(a)[0])
        names += [base] if n == 1 else [f"{base}_{k}" for k in range(n)]
    for k, v in kwargs.items():
        n = len(flatten(v)[0])
        names += [k] if n == 1 else [f"{k}_{j}" for j in range(n)]
    return names


_USER_ERRORS = (TypeError, ValueError, NameError, AttributeError, IndexError, KeyError,
                RuntimeError, ZeroDivisionError, AssertionError)

def trace_graph(fn, name: str, args: tuple, kwargs: dict, self_obj=None,
                whole_output: bool = False):
    """Trace ``fn`` (converted) on symbolic versions of the tensor leaves of the inputs.
    The graph returns the output's non-constant leaves (the call puts the constants back),
    or with ``whole_output`` the output as ``fn`` returns it, constants included."""
    graph = FuncGraph(name)
    builder = GraphBuilder(graph)
    leaves, tree = flatten((args, kwargs))
    names = _arg_names(fn, args, kwargs, self_obj is not None)
    sym = []
    for i, leaf in enumerate(leaves):
        if isinstance(leaf, Tensor) and not leaf._is_param:
            a = AbstractTensor(leaf._dtype, leaf.shape)  # a placeholder's may be unknown
            p = graph.add_param(names[i] if i < len(names) else f"arg{i}", a)
            sym.append(Tensor._symbolic(p, a))
            hooks = tape.live_hooks(leaf)
            if hooks:  # its hooks, registered outside: gradients in the graph run them
                tape.note_input_hooks(p, hooks)
        elif type(leaf) in RUNTIME_SCALARS:  # a mutable number: a run-time scalar
            a = AbstractScalar.unknown(RUNTIME_SCALARS[type(leaf)])
            p = graph.add_param(names[i] if i < len(names) else f"arg{i}", a)
            sym.append(SymbolicScalar(p, a))
        elif dynamic_len_items(leaf) is not None:  # its length is known when it runs
            a = AbstractSequence(_item_abstract(dynamic_len_items(leaf)),
                                 isinstance(leaf, list))
            p = graph.add_param(names[i] if i < len(names) else f"arg{i}", a)
            sym.append(SymbolicSequence(p, a))
        else:
            sym.append(leaf)
    s_args, s_kwargs = unflatten(tree, sym)
    target = convert(fn)
    capture = bytecode_capture() and not whole_output
    if any(hasattr(type(leaf), "__next__") for leaf in leaves):
        # a trace would read it once, Python on every call (MindSpore breaks too)
        refuse("an iterator argument: a trace consumes it once, Python on every call")
    try:
        with recording_global_writes() if capture else nullcontext({}) as global_writes:
            # a bytecode capture replays its writes to list and dict arguments and to
            # globals after the graph (the trace's own writes to globals are undone)
            writes = ArgumentWrites((args, kwargs), (s_args, s_kwargs), sym, global_writes) \
                if capture else None
            out_tree, out_leaves, slots = _trace_body(builder, target, fn, name, args,
                                                      kwargs, self_obj, s_args, s_kwargs,
                                                      whole_output, writes)
    finally:
        builder.restore_written()
    weights = [p.weight for p in graph.weights]
    return graph, weights, out_tree, out_leaves, slots, \
        writes if writes is not None and writes.wrote else None


def _item_abstract(items: tuple):
    """The abstract of each item of a dynamic length sequence (see ``dynamic_len_items``)."""
    if items[0] is None:
        return None
    if len(items) == 2:
        return AbstractTensor(*items)
    return AbstractScalar.unknown(items[0])


def _trace_body(builder, target, fn, name, args, kwargs, self_obj, s_args, s_kwargs,
                whole_output: bool = False, writes: ArgumentWrites | None = None):
    """Run the converted function in ``builder`` and set the graph's output; the output's
    tree, constant leaves and (leaf index, dtype) slots. With ``writes``, when the trace
    wrote argument containers, the graph returns the graph values they and the output
    hold (``writes`` rebuilds both from them)."""
    with builder:
        try:
            out = target(self_obj, *s_args, **s_kwargs) if self_obj is not None else \
                target(*s_args, **s_kwargs)
            if writes is not None:
                _views_as_sequences(out)  # (a lazy output breaks)
                values = writes.collect(out)
                if writes.wrote and tape.ACTIVE and tape.recording_any((args, kwargs)):
                    refuse("a list or dict argument or a global written under a PyNative "
                           "gradient (the gradient's tape records the call as a whole)")
                if writes.wrote:  # the output is rebuilt from these after the replay
                    out = tuple(values)
        except _USER_ERRORS as e:
            tb = e.__traceback__
            if isinstance(e, (AttributeError, TypeError)):  # None, a str... for a Tensor
                head = (self_obj,) if self_obj is not None else ()
                where = getattr(fn, "__qualname__", name)
                blamed = blame_argument(where, fn, head + s_args, s_kwargs, e,
                                        head + args + tuple(kwargs.values()))
                e = blamed if blamed is not None else e
            raise with_location(e, innermost_user_location(tb)).with_traceback(
                user_frames_only(tb)) from None
        if strict_syntax():
            out = _dicts_as_tuples(out)
        out = _views_as_sequences(out)
        out_leaves, out_tree = flatten(out)
        nodes, slots = [], []
        for i, leaf in enumerate(out_leaves):
            if isinstance(leaf, Undefined):
                raise leaf.error()
            if isinstance(leaf, Tensor) and leaf._is_param and leaf._node is None \
                    and id(leaf) not in builder.weights_set:
                continue  # a weight returned as it is: the Parameter itself (MindSpore)
            kind = state.number_kind(leaf)
            if kind is not None:  # a join of Python numbers leaves as a Python number
                nodes.append(builder.to_node(leaf))
                slots.append((i, AbstractScalar.unknown(kind)))
                out_leaves[i] = None
            elif isinstance(leaf, (Tensor, PyObject)):
                nodes.append(builder.to_node(leaf))
                # a run-time Python object is returned as it is (no dtype)
                slots.append((i, leaf.dtype if isinstance(leaf, Tensor) else None))
                out_leaves[i] = None
            elif isinstance(leaf, SymbolicScalar):
                nodes.append(builder.to_node(leaf))
                slots.append((i, None))
                out_leaves[i] = None
            elif isinstance(leaf, SymbolicSequence):  # rebuilt as Tensors or numbers
                nodes.append(builder.to_node(leaf))
                slots.append((i, leaf._abs))
                out_leaves[i] = None
        if whole_output:
            output = builder.to_node(out)
        elif len(nodes) == 1 and out_tree.kind == "leaf":
            output = nodes[0]
        else:
            output = builder.tuple_node(nodes)
        builder.finish_root(output)
    return out_tree, out_leaves, slots


@contextmanager
def _gc_paused():
    """Pause the cyclic garbage collector while compiling: tracing builds a large graph
    of live objects, and every collection of the young generations rescans it, so a
    135k-node compile spent about a third of its time in the collector. Nested compiles
    leave it to the outermost one to resume."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


_KEYS, _VALUES, _ITEMS = type({}.keys()), type({}.values()), type({}.items())
_LAZY = frozenset((_KEYS, _VALUES, _ITEMS, range, zip, enumerate, filter, map,
                   types.GeneratorType))


def _views_as_sequences(x):
    """A graph output with dict views, lazy builtins and NumPy scalars as MindSpore returns
    them: ``keys()``, ``values()``, ``range``, ``zip`` and ``enumerate`` as tuples,
    ``items()`` as a list of (key, value) tuples, ``filter`` and generators as lists, NumPy
    scalars as Python numbers."""
    t = type(x)
    if t in _LAZY:  # PyNative returns the object itself: a bytecode capture breaks
        refuse(f"a {t.__name__} object as an output of a graph becomes a sequence")
    if t is _KEYS or t is _VALUES or t in (range, zip, enumerate):
        return tuple(_views_as_sequences(v) for v in x)
    if t is filter or t is types.GeneratorType:
        return [_views_as_sequences(v) for v in x]
    if isinstance(x, np.generic):  # a NumPy scalar constant: MindSpore's Python scalar
        return x.item()
    if t is _ITEMS:
        return [(k, _views_as_sequences(v)) for k, v in x]
    if t is tuple or t is list:
        return t(_views_as_sequences(v) for v in x)
    if t is dict:
        return {k: _views_as_sequences(v) for k, v in x.items()}
    return x


def _dicts_as_tuples(x):
    """A graph output under STRICT syntax: every dict becomes the tuple of its values."""
    if isinstance(x, dict):
        return tuple(_dicts_as_tuples(v) for v in x.values())
    if isinstance(x, list):
        return [_dicts_as_tuples(v) for v in x]
    if isinstance(x, tuple):
        return tuple(_dicts_as_tuples(v) for v in x)
    return x


def _ir_directory() -> str:
    """Where IR dumps go: the save-graphs path, in ``rank_<id>`` once the process has joined
    a communication world of several processes (as MindSpore separates the ranks' dumps)."""
    path = get_context("save_graphs_path") or "."
    if comm_engine.initialized() and comm_engine.world().size > 1:
        return os.path.join(path, f"rank_{comm_engine.world().rank}")
    return path


def compile_call(fn, name: str, args: tuple, kwargs: dict, self_obj=None) -> Executable:
    """Trace, optimise and generate code for one call signature."""
    with _gc_paused():
        return _compile_call(fn, name, args, kwargs, self_obj)


def _compile_call(fn, name: str, args: tuple, kwargs: dict, self_obj) -> Executable:
    t0 = time.perf_counter()
    data_dump.refresh()
    ctx = PassContext(load_elim_level=load_elim_level(),
                      save_graphs=bool(get_context("save_graphs")),
                      save_graphs_path=_ir_directory(),
                      verify=os.environ.get("GRAPHKILN_VERIFY", "") not in ("", "0"))
    functions, run_time_writes, token = state.begin_functions()
    outermost = state.current() is None
    if outermost:
        state.clear_numbers()
    try:
        graph, weights, out_tree, out_leaves, slots, writes = trace_graph(
            fn, name, args, kwargs, self_obj)
    finally:
        state.end_functions(token)
        if outermost:
            state.clear_numbers()
    t1 = time.perf_counter()
    record_stage(ctx, graph, "parse", t1 - t0, True)
    if ctx.verify:
        verify(graph, after="parse")
    optimize(graph, ctx)
    t = time.perf_counter()
    changed = sibling_merge.run(graph)
    record_stage(ctx, graph, "sibling_merge", time.perf_counter() - t, changed)
    if fusion.enabled():
        t = time.perf_counter()
        changed = fusion.run(graph)
        record_stage(ctx, graph, "fusion", time.perf_counter() - t, changed)
    # the graph code generation gets, checked whatever GRAPHKILN_VERIFY says (MindSpore's
    # last stage has this name too: tools read its save_graphs dump, *_validate_*.ir)
    t = time.perf_counter()
    verify(graph, after=ctx.records[-1].name)
    record_stage(ctx, graph, "validate", time.perf_counter() - t, False)
    t2 = time.perf_counter()
    generated = generate_code(graph)
    pyfn = generated.load()
    t3 = time.perf_counter()
    info = CompileInfo(name, ctx.records, t1 - t0, t3 - t2, t3 - t0, graph, generated.source)
    exe = Executable(pyfn, weights, out_tree, out_leaves, slots, info)
    exe.use_code(generated)
    exe.writes = written_arrays(graph)
    exe.guards, exe.cell_guards = snapshot(
        functions, type(self_obj) if self_obj is not None else None, run_time_writes.ids)
    exe.cell_guards += attribute_guards(run_time_writes.attributes.values(), functions)
    written = set(run_time_writes.attributes)
    exe.cell_guards += container_guards(self_obj, functions, written, run_time_writes.ids)
    exe.cell_guards += instance_guards(self_obj, functions, written)
    exe.cell_state = cell_state(self_obj, written, run_time_writes.ids)
    exe.live_writes = bool(run_time_writes.ids or run_time_writes.attributes
                           or run_time_writes.python_calls or writes is not None)
    exe.arg_writes = writes
    return exe


def optimized_graph(fn, name: str, args: tuple, kwargs: dict, self_obj=None) -> FuncGraph:
    """The graph of one call after graphkiln's passes, before fusion and code generation
    (what model export writes): ``args`` may be placeholders with unknown dimensions."""
    with _gc_paused():
        _functions, _writes, token = state.begin_functions()
        try:
            graph = trace_graph(fn, name, args, kwargs, self_obj, whole_output=True)[0]
        finally:
            state.end_functions(token)
        optimize(graph, PassContext(load_elim_level=load_elim_level()))
    return graph
