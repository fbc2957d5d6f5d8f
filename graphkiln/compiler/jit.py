"""Entry points that turn user calls into compiled graphs: ``@jit`` and GRAPH_MODE cells.

A call is keyed by its input signature (tensor dtypes and shapes, Python values, weight
identities) and the graph-relevant context; a known key runs the compiled code at once,
a new one traces, optimises and generates code for it.
"""
from __future__ import annotations

import functools
import inspect
import os
import time
import weakref

from .. import context
from ..backend.codegen import generate_code
from ..backend.float_status import fp_guard
from ..common.tensor import Tensor
from ..errors import innermost_user_location, user_frames_only, with_location
from . import cache
from .ir.abstract import AbstractTensor
from .ir.anf import FuncGraph, count_nodes
from .pipeline import PassContext, optimize, record_stage
from .reuse import call_lazy_cell
from .trace import state
from .trace.ast_convert import convert
from .trace.builder import GraphBuilder
from .trace.control import Undefined
from .trace.pytree import flatten, unflatten


class CompileInfo:
    """What the last compile of a function or cell did (for users and benchmarks)."""

    def __init__(self, name: str, records: list, trace_seconds: float,
                 codegen_seconds: float, total_seconds: float, graph, source: str, *,
                 graph_bytes: bytes | None = None, weights: dict | None = None,
                 from_cache: bool = False):
        self.name = name
        self.records = records
        self.trace_seconds = trace_seconds
        self.codegen_seconds = codegen_seconds
        self.total_seconds = total_seconds
        self._graph = graph
        self._graph_bytes = graph_bytes
        self._weights = weights
        self.source = source
        self.from_cache = from_cache

    @property
    def graph(self) -> FuncGraph:
        """The optimised graph (read back from the cache entry on first use)."""
        if self._graph is None and self._graph_bytes is not None:
            from .ir.serialize import loads
            self._graph = loads(self._graph_bytes, self._weights)
        return self._graph

    @property
    def nodes(self) -> int:
        return self.records[-1].nodes if self.records else count_nodes(self.graph)[0]

    @property
    def cnodes(self) -> int:
        return self.records[-1].cnodes if self.records else count_nodes(self.graph)[1]

    @property
    def subgraphs(self) -> int:
        from .ir.anf import all_graphs
        return self.records[-1].subgraphs if self.records else len(all_graphs(self.graph))

    def stage(self, name: str):
        return next(r for r in self.records if r.name == name)

    def ir(self, detail: bool = False) -> str:
        from .ir.printer import ir_text
        return ir_text(self.graph, detail)

    def count(self, prim_name: str) -> int:
        """How many nodes apply the primitive ``prim_name`` in the final graph."""
        from .ir.anf import iter_nodes
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


class Executable:
    """A compiled graph: generated function plus how to map inputs and outputs."""

    __slots__ = ("fn", "weights", "out_tree", "out_leaves", "out_slots", "info", "generated")

    def __init__(self, fn, weights, out_tree, out_leaves, out_slots, info):
        # a lone tensor output is returned bare; anything else as a tuple
        self.fn = fn
        self.weights = weights
        self.out_tree = out_tree
        self.out_leaves = out_leaves
        self.out_slots = out_slots  # [(leaf index, dtype)]
        self.info = info
        self.generated = None  # the GeneratedCode, kept for the compile cache

    def __call__(self, tensor_args: list):
        arrays = [t._data for t in tensor_args]
        warrays = [w._data for w in self.weights]
        with fp_guard():
            out = self.fn(*arrays, *warrays)
        leaves = list(self.out_leaves)
        if self.out_tree.kind == "leaf":
            out = (out,)
        for (i, dtype), value in zip(self.out_slots, out):
            if any(value is w for w in warrays):
                value = value.copy()
            leaves[i] = Tensor._from_array(value, dtype)
        return unflatten(self.out_tree, leaves)


# the last compile of each function/cell; weak, so infos die with their owners
_LAST: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()
# when a list (python -m graphkiln dump sets it), every CompileInfo is appended, in order
COMPILED: list | None = None


def compile_info(obj) -> CompileInfo:
    """The :class:`CompileInfo` of the last compile of a ``@jit`` function or a Cell."""
    try:
        info = _LAST.get(obj)
    except TypeError:  # not weak-referenceable: never compiled through _CallCache
        info = None
    if info is None:
        raise ValueError(f"{obj!r} has not been compiled yet.")
    return info


# ------------------------------------------------------------------ signatures

def _leaf_key(x):
    if isinstance(x, Tensor):
        if x._is_param:
            return ("P", id(x))
        if x._node is not None:
            raise RuntimeError("graphkiln bug: symbolic tensor passed to a compiled call")
        return ("T", x._dtype.name, x._data.shape)
    if isinstance(x, (bool, int, float, str, type(None))):
        return ("S", type(x).__name__, x)
    return ("O", id(x))


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


def _graph_options() -> tuple:
    return (context.load_elim_level(),)


# ------------------------------------------------------------------ compile

_USER_ERRORS = (TypeError, ValueError, NameError, AttributeError, IndexError, KeyError,
                RuntimeError, ZeroDivisionError, AssertionError)

def trace_graph(fn, name: str, args: tuple, kwargs: dict, self_obj=None):
    """Trace ``fn`` (converted) on symbolic versions of the tensor leaves of the inputs."""
    graph = FuncGraph(name)
    builder = GraphBuilder(graph)
    leaves, tree = flatten((args, kwargs))
    names = _arg_names(fn, args, kwargs, self_obj is not None)
    sym = []
    for i, leaf in enumerate(leaves):
        if isinstance(leaf, Tensor) and not leaf._is_param:
            a = AbstractTensor(leaf._dtype, leaf._data.shape)
            p = graph.add_param(names[i] if i < len(names) else f"arg{i}", a)
            sym.append(Tensor._symbolic(p, a))
        else:
            sym.append(leaf)
    s_args, s_kwargs = unflatten(tree, sym)
    target = convert(fn)
    with builder:
        try:
            out = target(self_obj, *s_args, **s_kwargs) if self_obj is not None else \
                target(*s_args, **s_kwargs)
        except _USER_ERRORS as e:
            tb = e.__traceback__
            raise with_location(e, innermost_user_location(tb)).with_traceback(
                user_frames_only(tb)) from None
        out_leaves, out_tree = flatten(out)
        nodes, slots = [], []
        for i, leaf in enumerate(out_leaves):
            if isinstance(leaf, Undefined):
                raise leaf.error()
            if isinstance(leaf, Tensor):
                node = builder.to_node(leaf)
                nodes.append(node)
                slots.append((i, leaf.dtype))
                out_leaves[i] = None
        if len(nodes) == 1 and out_tree.kind == "leaf":
            output = nodes[0]
        else:
            output = builder.tuple_node(nodes)
        builder.finish_root(output)
    weights = [p.weight for p in graph.weights]
    return graph, weights, out_tree, out_leaves, slots


def compile_call(fn, name: str, args: tuple, kwargs: dict, self_obj=None) -> Executable:
    """Trace, optimise and generate code for one call signature."""
    t0 = time.perf_counter()
    ctx = PassContext(load_elim_level=context.load_elim_level(),
                      save_graphs=bool(context.get_context("save_graphs")),
                      save_graphs_path=context.get_context("save_graphs_path") or ".",
                      verify=os.environ.get("GRAPHKILN_VERIFY", "") not in ("", "0"))
    graph, weights, out_tree, out_leaves, slots = trace_graph(fn, name, args, kwargs, self_obj)
    t1 = time.perf_counter()
    record_stage(ctx, graph, "parse", t1 - t0, True)
    if ctx.verify:
        from .ir.verify import verify
        verify(graph, after="parse")
    optimize(graph, ctx)
    t2 = time.perf_counter()
    generated = generate_code(graph)
    pyfn = generated.load()
    t3 = time.perf_counter()
    info = CompileInfo(name, ctx.records, t1 - t0, t3 - t2, t3 - t0, graph, generated.source)
    exe = Executable(pyfn, weights, out_tree, out_leaves, slots, info)
    exe.generated = generated
    return exe


def _stable_key(key: tuple, leaves: list) -> tuple:
    """The memory-cache key with weights named instead of identified (for the disk)."""
    tree, leaf_keys, options, training = key
    named = tuple(("P", x.name, x.dtype.name, x.shape) if k[0] == "P" else k
                  for k, x in zip(leaf_keys, leaves))
    return repr(tree), named, options, training


def _compile_or_load(fn, name, args, kwargs, self_obj, key, leaves) -> Executable:
    if not cache.enabled():
        return compile_call(fn, name, args, kwargs, self_obj)
    try:
        path = cache.entry_path(fn, _stable_key(key, leaves), self_obj)
    except cache.Uncacheable:
        return compile_call(fn, name, args, kwargs, self_obj)
    exe = cache.load(path, self_obj, leaves)
    if exe is not None:
        return exe
    print(cache.STALE_MESSAGE)
    files = state.begin_files()
    try:
        exe = compile_call(fn, name, args, kwargs, self_obj)
    finally:
        state.end_files()
    code = getattr(fn, "__code__", None)
    if code is not None:
        files.add(code.co_filename)
    cache.store(path, exe, files)
    return exe


_LIVE_CACHES: weakref.WeakSet = weakref.WeakSet()


def compiled_graph_count() -> int:
    """How many compiled graphs the live call caches hold (``ms_compile_cache``'s size)."""
    return sum(len(c.entries) for c in list(_LIVE_CACHES))


class _CallCache:
    """Compiled executables of one function (or one cell), by input signature."""

    def __init__(self):
        self.entries: dict = {}
        _LIVE_CACHES.add(self)

    def run(self, owner, fn, name: str, args: tuple, kwargs: dict, self_obj=None):
        leaves, tree = flatten((args, kwargs))
        key = (tree, tuple(_leaf_key(x) for x in leaves), _graph_options(),
               getattr(self_obj, "training", None))
        exe = self.entries.get(key)
        if exe is None:
            exe = _compile_or_load(fn, name, args, kwargs, self_obj, key, leaves)
            self.entries[key] = exe
            _LAST[owner] = exe.info
            if COMPILED is not None:
                COMPILED.append(exe.info)
        tensors = [x for x in leaves if isinstance(x, Tensor) and not x._is_param]
        return exe(tensors)


# ------------------------------------------------------------------ @jit

class JitFunction:
    """A function compiled to a graph on call (``@ms.jit``)."""

    def __init__(self, fn):
        self.fn = fn
        self._cache = _CallCache()
        self._bound: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()
        functools.update_wrapper(self, fn)

    def __call__(self, *args, **kwargs):
        if state.current() is not None:
            return convert(self.fn)(*args, **kwargs)
        return self._cache.run(self, self.fn, self.fn.__name__, args, kwargs)

    def __get__(self, obj, objtype=None):
        if obj is None:
            return self
        return _BoundJit(self, obj)

    def _method_cache(self, obj) -> _CallCache:
        c = self._bound.get(obj)
        if c is None:
            c = self._bound[obj] = _CallCache()
        return c

    @property
    def compile_info(self) -> CompileInfo:
        return compile_info(self)


class _BoundJit:
    __slots__ = ("jf", "obj")

    def __init__(self, jf: JitFunction, obj):
        self.jf = jf
        self.obj = obj

    def __call__(self, *args, **kwargs):
        if state.current() is not None:
            return convert(self.jf.fn)(self.obj, *args, **kwargs)
        name = f"{type(self.obj).__name__}_{self.jf.fn.__name__}"
        cache = self.jf._method_cache(self.obj)
        return cache.run(self.obj, self.jf.fn, name, args, kwargs, self.obj)


def jit(function=None, *, mode: str = "PSJit", input_signature=None, jit_config=None,
        capture_mode: str = "ast", **kwargs):
    """Compile ``function`` to a static graph on its first call per input signature."""
    def wrap(fn):
        if isinstance(fn, JitFunction):
            return fn
        if not hasattr(fn, "__code__") and callable(fn):
            fn = _calling(fn)  # jit(net), jit(vmap(net)): trace a call of the object
        return JitFunction(fn)
    return wrap(function) if function is not None else wrap


def _calling(obj):
    """A function calling the callable object ``obj`` (a Cell, a vmap/grad wrapper)."""
    def call(*args, **kwargs):
        return obj(*args, **kwargs)
    call.__name__ = call.__qualname__ = type(obj).__name__
    return call


# ------------------------------------------------------------------ cells

_CELL_CACHES: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def _construct_fn(cell):
    c = type(cell).construct
    return c.fn if isinstance(c, JitFunction) else c


def call_cell(cell, args: tuple, kwargs: dict):
    """Run ``cell`` on ``args``: inlined while tracing, compiled in GRAPH_MODE, else eager."""
    if state.current() is not None:
        construct = _construct_fn(cell)
        if "_gk_lazy_key" in cell.__dict__:
            out = call_lazy_cell(cell, construct, args, kwargs)
            if out is not NotImplemented:
                return out
        return convert(construct)(cell, *args, **kwargs)
    if context.get_context("mode") == context.GRAPH_MODE:
        cache = _CELL_CACHES.get(cell)
        if cache is None:
            cache = _CELL_CACHES[cell] = _CallCache()
        name = f"{type(cell).__name__}_construct"
        return cache.run(cell, _construct_fn(cell), name, args, kwargs, cell)
    return cell.construct(*args, **kwargs)


__all__ = ["jit", "JitFunction", "call_cell", "compile_info", "CompileInfo",
           "compiled_graph_count"]
