"""The persistent compile cache: optimised graphs and generated code on disk.

On when ``set_context(enable_compile_cache=True)`` or ``MS_COMPILER_CACHE_ENABLE=1`` (the
context wins); the directory comes from ``compile_cache_path`` or ``MS_COMPILER_CACHE_PATH``.
An entry is found by the function's identity, the input signature, the graph options, the
cell's attributes and weights, and the graphkiln version; it records the source files the
trace read with their hashes. A later process whose files are unchanged loads the code and
skips tracing, passes and code generation, printing MindSpore's "Use the compilation cache"
warning (to stderr, where MindSpore logs its warnings). A missing or stale entry prints
MindSpore's "Check the consistency of dependency files hash failed" warning and compiles
(with ``MS_DEV_FORCE_USE_COMPILE_CACHE`` set, the source files are not checked, as
MindSpore announces once); a damaged or
foreign one is reported, discarded and rebuilt. Writes are atomic (temp file + rename).
"""
from __future__ import annotations

import functools
import hashlib
import io
import linecache
import marshal
import os
import pickle
import sys
import time

from ..backend.codegen import GeneratedCode
from ..common.lazy_inline import attribute_fingerprint, freeze
from ..common.tensor import Tensor
from ..context import get_context
from ..ir.primitive import REGISTRY
from ..ir.serialize import encode
from ..version import __version__
from . import entry_store
from .executable import CompileInfo, Executable
from .guards import guards_hold

FORMAT = 4  # 3: buffer pools are views into one packed arena; 4: the arrays a run writes
STALE_MESSAGE = ("Warning: Check the consistency of dependency files hash failed. "
                 "Execute all the compilation actions.")
HIT_MESSAGE = ("Warning: Use the compilation cache and execute the backend actions only. Be "
               "aware of correctness risks.")
FORCE_MESSAGE = ("Warning: The env MS_DEV_FORCE_USE_COMPILE_CACHE has been set. It will force "
                 "to use the compile cache without checking whether the network has been "
                 "changed. Please note the correctness.")
FORCED_MISS_MESSAGE = ("Warning: Failed to load the compilation cache file. Execute all the "
                       "compilation actions.")


def enabled() -> bool:
    return bool(get_context("enable_compile_cache"))


def forced() -> bool:
    """``MS_DEV_FORCE_USE_COMPILE_CACHE`` set: entries are used without checking whether
    the source files they were built from changed."""
    return os.environ.get("MS_DEV_FORCE_USE_COMPILE_CACHE", "0").strip() not in ("", "0")


_announced: list = []


def announce_forced() -> None:
    """Print :data:`FORCE_MESSAGE` once per process when :func:`forced`."""
    if forced() and not _announced:
        _announced.append(True)
        print(FORCE_MESSAGE, file=sys.stderr)


def directory() -> str:
    path = get_context("compile_cache_path") or "graphkiln_compile_cache"
    return os.path.abspath(path)


def _file_hash(path: str) -> str | None:
    try:
        with open(path, "rb") as f:
            return hashlib.sha256(f.read()).hexdigest()
    except OSError:
        return None


def cell_fingerprint(cell) -> tuple:
    if cell is None or not hasattr(cell, "cells_and_names"):
        return ()
    cells = tuple((n, type(c).__qualname__, tuple(sorted(attribute_fingerprint(c).items())))
                  for n, c in cell.cells_and_names())
    weights = tuple((n, p.dtype.name, p.shape) for n, p in cell.parameters_and_names())
    return cells, weights


class Uncacheable(Exception):
    """The function's behaviour depends on values a key cannot name across processes."""


def function_identity(fn, depth: int = 0):
    """A key naming ``fn`` across processes: its code and the values it closes over.

    Raises :class:`Uncacheable` for closures over objects that have no stable value (such
    calls are compiled every process instead of risking a wrong cache hit). Objects may
    describe themselves with ``__gk_cache_identity__()`` (autodiff and vmap wrappers do).
    """
    if depth > 4:
        raise Uncacheable("too deep")
    hook = getattr(fn, "__gk_cache_identity__", None) or getattr(
        getattr(fn, "__self__", None), "__gk_cache_identity__", None)
    if hook is not None:
        return ("wrapped", hook())
    code = getattr(fn, "__code__", None)
    if code is None:
        raise Uncacheable(repr(fn))
    captured = [freeze(getattr(fn, "__defaults__", None)),
                freeze(getattr(fn, "__kwdefaults__", None))]
    for cell in fn.__closure__ or ():
        try:
            v = cell.cell_contents
        except ValueError:
            v = None
        if callable(v) and hasattr(v, "__code__"):
            captured.append(function_identity(v, depth + 1))
            continue
        captured.append(freeze(v))
    if "id" in _flatten_key(tuple(captured)):
        raise Uncacheable("closes over or defaults to an object without a stable value")
    return (code.co_filename, code.co_qualname, code.co_firstlineno, _code_key(code),
            tuple(captured))


def _code_key(code) -> str:
    """A digest of what a code object does (two lambdas on one line differ here)."""
    h = hashlib.sha256(code.co_code)
    for c in code.co_consts:
        h.update(_code_key(c).encode() if hasattr(c, "co_code") else repr(c).encode())
    h.update(repr(code.co_names).encode())
    return h.hexdigest()[:16]


def _flatten_key(key) -> list:
    if isinstance(key, tuple):
        return [y for e in key for y in _flatten_key(e)]
    return [key]


def entry_name(fn, signature: tuple, cell) -> str:
    """The entry file name for this call (raises :class:`Uncacheable` when there is none).

    It names the function (file and qualified name), its code version, and the call: the
    captured values, the input signature, the cell's attributes and the graphkiln and
    Python versions. Writing a new code version of a function removes its older entries.
    """
    ident = function_identity(fn)
    if ident[0] == "wrapped":
        group, version, captured = repr(ident), "", ()
    else:
        filename, qualname, firstline, code_key, captured = ident
        group, version = repr((filename, qualname)), repr((firstline, code_key))
    call = repr((FORMAT, __version__, sys.version_info[:2], captured, signature,
                 cell_fingerprint(cell)))
    return entry_store.entry_name(group, version, call)


def max_bytes() -> int:
    """The cache directory's size limit: ``set_context(compile_cache_max_size=MB)`` or
    ``GRAPHKILN_COMPILE_CACHE_MAX_SIZE`` (MB), else 512 MB."""
    raw = get_context("compile_cache_max_size")
    try:
        mb = float(raw)
    except (TypeError, ValueError):
        return entry_store.DEFAULT_MAX_BYTES
    return int(mb * 2**20) if mb > 0 else entry_store.DEFAULT_MAX_BYTES


def open_store() -> entry_store.EntryStore | None:
    """The cache directory, or None (with one warning) when it cannot be trusted."""
    return entry_store.EntryStore.open(directory(), max_bytes())


def _weights_by_name(cell, leaves) -> dict:
    found = {}
    if cell is not None and hasattr(cell, "parameters_and_names"):
        for _, p in cell.parameters_and_names():
            found[p.name] = p
    for x in leaves:
        if isinstance(x, Tensor) and x._is_param:
            found[x.name] = x
    return found


def load(store: entry_store.EntryStore, name: str, cell, leaves):
    """The cached executable ``name``, or None: missing, stale (a source file or a global
    it read changed), or unusable (a miss with one warning; the new compile rewrites it).
    Nothing is unpickled before the entry's MAC passes."""
    t0 = time.perf_counter()
    payload = store.read(name)
    if payload is None:
        return None
    try:
        entry = pickle.loads(payload)
        _check_entry(entry)
        for dep, digest in () if forced() else entry["deps"]:
            if _file_hash(dep) != digest:
                return None
        if not guards_hold(entry["guards"]):
            return None
        available = _weights_by_name(cell, leaves)
        weights = []
        for wname, dtype, shape in entry["weights"]:
            w = available.get(wname)
            if w is None or w.dtype.name != dtype or w.shape != shape:
                return None
            weights.append(w)
        gen = GeneratedCode(entry["source"], marshal.loads(entry["code"]), entry["spec"],
                            entry["entry"], entry["filename"])
        if gen.filename in linecache.cache:  # this entry's code is loaded already
            gen = gen.renamed()
        fn = gen.load()
    except Exception as e:  # noqa: BLE001 - authentic but unusable (older format...): a miss
        entry_store.warn_once(("entry", store.path, name),
                              f"ignoring the compile cache entry {name} in {store.path} "
                              f"({type(e).__name__}: {e}); it will be rewritten.")
        return None
    info = CompileInfo(entry["name"], [], 0.0, 0.0, time.perf_counter() - t0, None,
                       gen.source,
                       graph_record=functools.partial(_graph_record, entry["ir"], entry["spec"]),
                       weights={w.name: w for w in weights}, from_cache=True)
    exe = Executable(fn, weights, entry["out_tree"], entry["out_leaves"], entry["slots"],
                     info)
    exe.use_code(gen)
    exe.guards = entry["guards"]
    exe.writes = entry["writes"]
    return exe


_FIELDS = {"format": int, "name": str, "source": str, "code": bytes, "spec": dict,
           "entry": str, "filename": str, "ir": bytes, "weights": list, "slots": list,
           "out_leaves": list, "deps": list, "guards": tuple, "writes": tuple}


def _check_entry(entry) -> None:
    """Every field present with its type, and every kernel a registered op."""
    if not isinstance(entry, dict) or entry.get("format") != FORMAT:
        raise ValueError("not an entry of this graphkiln version")
    for field, kind in _FIELDS.items():
        if not isinstance(entry.get(field), kind):
            raise ValueError(f"field {field!r} is missing or not a {kind.__name__}")
    for gname, spec in entry["spec"].items():
        if not (isinstance(spec, tuple) and len(spec) == 2 and spec[0] in ("value", "kernel")):
            raise ValueError(f"bad global {gname!r}")
        if spec[0] == "kernel" and spec[1] not in REGISTRY:
            raise ValueError(f"unknown op {spec[1]!r}")


class _SharedConstants(pickle.Pickler):
    """Pickles a graph record, writing the constants the code's globals hold as references
    to them (so each is stored once)."""

    def __init__(self, file, spec: dict):
        super().__init__(file, protocol=pickle.HIGHEST_PROTOCOL)
        self.shared = {id(value): name for name, (kind, value) in spec.items()
                       if kind == "value"}

    def persistent_id(self, obj):
        return self.shared.get(id(obj))


class _SpecConstants(pickle.Unpickler):
    def __init__(self, file, spec: dict):
        super().__init__(file)
        self.spec = spec

    def persistent_load(self, pid):
        return self.spec[pid][1]


def _graph_record(data: bytes, spec: dict) -> tuple:
    """The graph record of an entry, unpickled when first asked for (the warm path runs the
    generated code and never needs it); the entry's MAC covered these bytes."""
    record = _SpecConstants(io.BytesIO(data), spec).load()
    for graph in record[1]:
        for value, _ in graph[3]:
            if value[0] == "prim" and value[1] not in REGISTRY:
                raise ValueError(f"the cached graph uses the unknown op {value[1]!r}; "
                                 f"clear the compile cache (python -m graphkiln cache --clear)")
    return record


def store(store: entry_store.EntryStore, name: str, exe, deps: set) -> None:
    """Write ``exe`` as entry ``name`` (failures only warn). Constants the code and the
    graph share are pickled once."""
    gen = exe.generated.renamed(f"cache-{name.split('-')[-1][:16]}")
    ir = io.BytesIO()
    entry = {
        "format": FORMAT, "name": exe.info.name, "source": gen.source,
        "code": marshal.dumps(gen.code), "spec": gen.spec, "entry": gen.entry,
        "filename": gen.filename,
        "weights": [(w.name, w.dtype.name, w.shape) for w in exe.weights],
        "out_tree": exe.out_tree, "out_leaves": list(exe.out_leaves),
        "slots": list(exe.out_slots),
        "deps": sorted((d, _file_hash(d)) for d in deps if _file_hash(d) is not None),
        "guards": tuple(exe.guards), "writes": exe.writes,
    }
    try:
        _SharedConstants(ir, gen.spec).dump(encode(exe.info.graph))
        entry["ir"] = ir.getvalue()
        payload = pickle.dumps(entry, protocol=pickle.HIGHEST_PROTOCOL)
    except (pickle.PicklingError, TypeError, AttributeError) as e:
        entry_store.warn_once(("pickle", name), f"could not store a compile cache entry for "
                                                f"{exe.info.name} ({e}).")
        return
    store.write(name, payload)
