"""Turn an optimised graph into Python source: one kernel call per line, compiled once.

Each graph becomes a top-level function of one generated module (graphs are closed, so no
nesting is needed); ``Switch`` picks a function, ``While`` becomes a Python ``while``; monad
nodes (``U``, ``UpdateState``) emit nothing and ``Depend``/``Load`` are aliases: they only
order the lines. Weights arrive as arrays that ``Assign`` updates in place.
"""
from __future__ import annotations

import itertools
import linecache
import math
import re
import sys
import types
import weakref
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from ..ir.abstract import AbstractMonad, AbstractTuple
from ..ir.anf import CNode, FuncGraph, ValueNode, all_graphs, toposort
from ..ir.primitive import OUT_INPLACE, REGISTRY
from ..ir.structural_prims import iteration_record
from ..ops.defs.fused import FusedElementwise
from .memplan import BufferPools, MemoryPlan, Slot, plan_memory

_ALIAS_OPS = {"Depend", "Load"}
_STRUCTURAL = {"Depend", "Load", "MakeTuple", "TupleGetItem", "Switch", "While"}
# kernels that call graphs with their arguments: monads stay (as None), as graph params do
_KEEP_MONAD_ARGS = {"WhileGrad"}
_counter = itertools.count()


def _literal(v) -> str | None:
    """Python source for simple constants, None when it needs a global."""
    if v is None or isinstance(v, (bool, int, str)) and not isinstance(v, np.generic):
        return repr(v)
    if type(v) is float and math.isfinite(v):
        return repr(v)
    if isinstance(v, tuple) and all(_literal(e) is not None for e in v):
        inner = ", ".join(_literal(e) for e in v)
        return f"({inner},)" if len(v) == 1 else f"({inner})"
    return None


class _Module:
    def __init__(self):
        self.globals: dict = {}
        self.spec: dict = {}  # global name -> ("value", obj) | ("kernel", opdef name)
        self.consts: dict[int, str] = {}
        self.graph_names: dict[int, str] = {}
        self.primitives: frozenset = frozenset()  # the program's primitive names

    def const(self, value, prefix: str = "c") -> str:
        key = id(value)
        name = self.consts.get(key)
        if name is None:
            name = f"{prefix}{len(self.consts)}"
            self.consts[key] = name
            self.globals[name] = value
            self.spec[name] = ("value", value)
        return name

    def kernel(self, opdef, fn) -> str:
        name = self.const(fn, f"k_{opdef.name}_")
        if fn is opdef.kernel:  # closures do not pickle: record them by op name
            self.spec[name] = ("kernel", opdef.name)
        return name

    def graph_name(self, g: FuncGraph) -> str:
        name = self.graph_names.get(id(g))
        if name is None:
            safe = "".join(ch if ch.isalnum() else "_" for ch in g.name)
            name = f"g{len(self.graph_names)}_{safe}"
            self.graph_names[id(g)] = name
        return name


@dataclass
class GeneratedCode:
    """Generated source, its code object and how to rebuild its globals (picklable with
    ``marshal`` for the code and ``pickle`` for the rest: what the compile cache stores)."""

    source: str
    code: types.CodeType
    spec: dict
    entry: str
    filename: str

    def load(self, wrap: Callable[[str, Callable], Callable] | None = None):
        """The entry function, with the module's globals rebuilt from ``spec``; with
        ``wrap``, every kernel is ``wrap(op type, kernel)`` (the profiler's timers, the
        data dump's observers)."""
        env: dict = {"__builtins__": __builtins__}
        for name, (kind, value) in self.spec.items():
            env[name] = REGISTRY[value].kernel if kind == "kernel" else value
            if wrap is not None and name.startswith("k_"):
                env[name] = wrap(name[2:].rsplit("_", 1)[0], env[name])
        linecache.cache[self.filename] = (len(self.source), None,
                                          self.source.splitlines(True), self.filename)
        exec(self.code, env)
        entry = env[self.entry]
        # the source leaves linecache with the code (every graph function shares ``env``)
        weakref.finalize(entry, linecache.cache.pop, self.filename, None)
        return entry

    def renamed(self, tag: str | None = None) -> GeneratedCode:
        """A copy with the file name ``<graphkiln:NAME:TAG>``, or with a new name of this
        process when ``tag`` is None (for code whose name is in use here)."""
        name = self.filename.split(":")[1]
        filename = _new_filename(name) if tag is None else f"<graphkiln:{name}:{tag}>"
        return GeneratedCode(self.source, _rename(self.code, filename), self.spec,
                             self.entry, filename)


def _new_filename(name: str) -> str:
    return f"<graphkiln:{name}:{next(_counter)}>"


def _rename(code: types.CodeType, filename: str) -> types.CodeType:
    consts = tuple(_rename(c, filename) if isinstance(c, types.CodeType) else c
                   for c in code.co_consts)
    return code.replace(co_filename=filename, co_consts=consts)


_LOCATION = re.compile(r"  # (\w+) @ (.+):(\d+)$")


def source_location(tb, filename: str) -> tuple[str, str, int] | None:
    """``(op name, user file, user line)`` of the innermost line of the generated module
    ``filename`` in traceback ``tb`` (the op that raised), or None."""
    found = None
    while tb is not None:
        if tb.tb_frame.f_code.co_filename == filename:
            found = tb.tb_lineno
        tb = tb.tb_next
    if found is None:
        return None
    m = _LOCATION.search(linecache.getline(filename, found).rstrip("\n"))
    return (m.group(1), m.group(2), int(m.group(3))) if m else None


# Python frames a run of a graph family with recursive graphs may use: each level of a
# recursion is two or three generated functions, and Python-to-Python calls take no C
# stack, so this allows recursions tens of thousands deep (MindSpore's run time has no
# call depth limit; ``max_call_depth`` only bounds compiling)
RECURSIVE_FRAMES = 200_000


def generate_code(root: FuncGraph) -> GeneratedCode:
    """Python source and code object for ``root`` and its subgraphs."""
    mod = _Module()
    graphs = all_graphs(root)
    mod.primitives = frozenset(n.inputs[0].value.opdef.name for g in graphs
                               for n in toposort(g) if isinstance(n.inputs[0], ValueNode)
                               and hasattr(n.inputs[0].value, "opdef"))
    chunks = [_graph_source(g, mod) for g in graphs]
    entry = mod.graph_name(root)
    if any(g.flags.get("recursive") for g in graphs):
        entry = _deep_entry(entry, mod, chunks)
    source = "\n\n".join(chunks) + "\n"
    filename = _new_filename("".join(ch if ch.isalnum() or ch in "_." else "_"
                                     for ch in root.name))
    code = compile(source, filename, "exec")
    return GeneratedCode(source, code, mod.spec, entry, filename)


def _deep_entry(entry: str, mod: _Module, chunks: list) -> str:
    """An entry function that runs ``entry`` with room for deep recursion."""
    get = mod.const(sys.getrecursionlimit, "getrecursionlimit")
    set_ = mod.const(sys.setrecursionlimit, "setrecursionlimit")
    name = f"{entry}_deep"
    chunks.append(f"def {name}(*args):\n"
                  f"    before = {get}()\n"
                  f"    {set_}(max(before, {RECURSIVE_FRAMES}))\n"
                  f"    try:\n"
                  f"        return {entry}(*args)\n"
                  f"    finally:\n"
                  f"        {set_}(before)")
    return name


def generate(root: FuncGraph) -> tuple[object, str]:
    """Compile ``root`` (and its subgraphs) to a Python function; returns (fn, source)."""
    gen = generate_code(root)
    return gen.load(), gen.source


def _graph_source(g: FuncGraph, mod: _Module) -> str:
    names: dict[int, str] = {}
    params = []
    for i, p in enumerate(g.all_params):
        n = f"a{i}"
        names[id(p)] = n
        params.append(n)
    lines = [f"def {mod.graph_name(g)}({', '.join(params)}):"]
    counter = itertools.count()

    def ref(node) -> str:
        if isinstance(node, ValueNode):
            v = node.value
            if isinstance(v, FuncGraph):
                return mod.graph_name(v)
            if type(v) is tuple and v and isinstance(v[0], FuncGraph):
                return "(" + ", ".join(mod.graph_name(g) for g in v) + ",)"
            if isinstance(node.abstract, AbstractMonad):
                return "None"
            lit = _literal(v)
            return lit if lit is not None else mod.const(v)
        return names[id(node)]

    order = toposort(g)
    kernels = {id(n): _kernel(n) for n in order}
    writers = {id(n): how for n in order
               if (how := _out_mode(n, kernels[id(n)])) is not None}
    scratchers = {id(n) for n in order if kernels[id(n)] is not None and
                  kernels[id(n)] is n.inputs[0].value.opdef.kernel and
                  n.inputs[0].value.opdef.scratch is not None}
    plan = plan_memory(g, order, writers, scratchers)
    if plan.slots:  # this call's buffers: b0, b1... (see memplan)
        pools = mod.const(BufferPools(*plan.layout()), "pools")
        slots = ", ".join(f"b{i}" for i in range(len(plan.slots)))
        lines.append(f"    pool = {pools}.take()")
        lines.append(f"    {slots}{',' if len(plan.slots) == 1 else ''} = pool")
    for node in order:
        _emit(node, ref, names, lines, mod, counter, kernels.get(id(node)), plan)
    if plan.slots:
        lines.append(f"    {pools}.give(pool)")
    lines.append(f"    return {ref(g.output)}")
    return "\n".join(lines)


def _out_mode(node: CNode, kernel) -> str | None:
    """How the kernel of ``node`` can write into a given buffer ``out=`` (``OUT_INPLACE``,
    ``OUT_SEPARATE``), or None."""
    if kernel is None:
        return None
    if isinstance(kernel, np.ufunc) or kernel is FusedElementwise.kernel:
        return OUT_INPLACE
    opdef = node.inputs[0].value.opdef
    return opdef.out_buffer if kernel is opdef.kernel else None


def _kernel(node: CNode):
    """The kernel a primitive node runs (specialised to its types), None for the rest."""
    fn = node.inputs[0]
    prim = fn.value if isinstance(fn, ValueNode) and hasattr(fn.value, "opdef") else None
    if prim is None or prim.opdef.name in _STRUCTURAL or _orders_only(node, prim):
        return None
    return prim.opdef.kernel_for([a.abstract for a in node.inputs[1:]], node.abstract,
                                 prim.attrs)


def _orders_only(node: CNode, prim) -> bool:
    """UpdateState and friends: a monad out and no effect, so nothing runs."""
    return isinstance(node.abstract, AbstractMonad) and prim.opdef.effect == "none"


def _emit(node: CNode, ref, names, lines, mod, counter, kernel, plan: MemoryPlan) -> None:
    fn = node.inputs[0]
    loc = node.loc
    prim = fn.value if isinstance(fn, ValueNode) and hasattr(fn.value, "opdef") else None
    name = prim.opdef.name if prim is not None else None
    # read back by source_location when the line raises at run time
    comment = f"  # {name or 'call'} @ {loc.filename}:{loc.lineno}" if loc else ""
    if prim is not None and _orders_only(node, prim):
        names[id(node)] = "None"
        return
    if name in _ALIAS_OPS or id(node) in plan.done_assigns:
        names[id(node)] = ref(node.inputs[1])
        return
    var = f"v{next(counter)}"
    names[id(node)] = var
    if prim is None:  # a call of a graph value: every argument, monads included
        args = [ref(a) for a in node.inputs[1:]]
        lines.append(f"    {var} = {ref(fn)}({', '.join(args)}){comment}")
        return
    args = [ref(a) for a in node.inputs[1:]
            if name in _KEEP_MONAD_ARGS or not isinstance(a.abstract, AbstractMonad)]
    if name == "MakeTuple":  # positions matter: monad elements stay, as None
        items = [ref(a) for a in node.inputs[1:]]
        expr = f"({', '.join(items)}{',' if len(items) == 1 else ''})"
    elif name == "TupleGetItem":
        expr = f"{args[0]}[{args[1]}]"
    elif name == "Switch":
        expr = f"({args[1]} if {args[0]} else {args[2]})"
    elif name == "While":
        n_state = prim.attrs["n_state"]
        every = [ref(a) for a in node.inputs[1:]]  # loop state may carry monads
        cond, body, rest = every[0], every[1], every[2:]
        state, inv = rest[:n_state], rest[n_state:]
        inv_s = ", ".join(inv)
        tail = f", {inv_s}" if inv else ""
        history = prim.attrs.get("history")
        lines.append(f"    {var} = ({', '.join(state)}{',' if len(state) == 1 else ''}){comment}")
        if history is not None:  # autodiff's backward needs every iteration (WhileGrad)
            lines.append(f"    {var}_h = []")
        lines.append(f"    while {cond}(*{var}{tail}):")
        if history is not None:
            record = mod.const(iteration_record, "k_record_")
            lines.append(f"        {var}_h.append({record}({var}, ({inv_s}{',' if inv else ''}),"
                         f" {_literal(history)}))")
        lines.append(f"        {var} = {body}(*{var}{tail})")
        if history is not None:
            lines.append(f"    {var} = (*{var}, {var}_h)")
        return
    else:
        k = mod.kernel(prim.opdef, kernel)
        kw = [f"{key}={_literal(v) or mod.const(v)}" for key, v in prim.attrs.items()]

        def buffer(b) -> str:  # a pool slot, or an intermediate (a tuple's first result)
            if isinstance(b, Slot):
                return f"b{b.index}"
            return f"{ref(b)}[0]" if isinstance(b.abstract, AbstractTuple) else ref(b)
        target = plan.out.get(id(node))
        if target is not None:
            kw.append(f"out={buffer(target)}")
        if id(node) in plan.scratch:
            kw.append(f"scratch=({', '.join(buffer(b) for b in plan.scratch[id(node)])},)")
        if prim.opdef.hints is not None and kernel is prim.opdef.kernel:
            kw += [f"{key}={_literal(v)}" for key, v in prim.opdef.hints(mod.primitives).items()]
        expr = f"{k}({', '.join(args + kw)})"
    lines.append(f"    {var} = {expr}{comment}")
