"""The persistent compile cache: optimised graphs and generated code on disk.

On when ``set_context(enable_compile_cache=True)`` or ``MS_COMPILER_CACHE_ENABLE=1`` (the
context wins); the directory comes from ``compile_cache_path`` or ``MS_COMPILER_CACHE_PATH``.
An entry is found by the function's identity, the input signature, the graph options, the
cell's attributes and weights, and the graphkiln version; it records the source files the
trace read with their hashes. A later process whose files are unchanged loads the code and
skips tracing, passes and code generation. A missing or stale entry prints MindSpore's
"Check the consistency of dependency files hash failed" warning and compiles; a damaged or
foreign one is reported, discarded and rebuilt. Writes are atomic (temp file + rename).
"""
from __future__ import annotations

import hashlib
import marshal
import os
import pickle
import sys
import tempfile
import time

from ..backend.codegen import GeneratedCode
from ..common.lazy_inline import attribute_fingerprint, freeze
from ..common.tensor import Tensor
from ..context import get_context
from ..ir.serialize import dumps
from ..version import __version__
from .executable import CompileInfo, Executable

FORMAT = 1
STALE_MESSAGE = ("Warning: Check the consistency of dependency files hash failed. "
                 "Execute all the compilation actions.")


def enabled() -> bool:
    return bool(get_context("enable_compile_cache"))


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


def entry_path(fn, signature: tuple, cell) -> str:
    """The entry file for this call (raises :class:`Uncacheable` when there is none)."""
    ident = function_identity(fn)
    text = repr((FORMAT, __version__, sys.version_info[:2], ident, signature,
                 cell_fingerprint(cell)))
    digest = hashlib.sha256(text.encode()).hexdigest()[:32]
    return os.path.join(directory(), f"{digest}.gkc")


def _weights_by_name(cell, leaves) -> dict:
    found = {}
    if cell is not None and hasattr(cell, "parameters_and_names"):
        for _, p in cell.parameters_and_names():
            found[p.name] = p
    for x in leaves:
        if isinstance(x, Tensor) and x._is_param:
            found[x.name] = x
    return found


def load(path: str, cell, leaves):
    """The cached executable at ``path``, or None (stale, missing, damaged, foreign)."""
    t0 = time.perf_counter()
    try:
        with open(path, "rb") as f:
            entry = pickle.load(f)
        if not isinstance(entry, dict) or entry.get("format") != FORMAT:
            raise ValueError("not a graphkiln cache entry of this version")
    except FileNotFoundError:
        return None
    except Exception as e:  # damaged or foreign: never fatal
        print(f"graphkiln: discarding unreadable compile cache entry {path} ({e}).",
              file=sys.stderr)
        _remove(path)
        return None
    for dep, digest in entry["deps"]:
        if _file_hash(dep) != digest:
            return None
    available = _weights_by_name(cell, leaves)
    weights = []
    for name, dtype, shape in entry["weights"]:
        w = available.get(name)
        if w is None or w.dtype.name != dtype or w.shape != shape:
            return None
        weights.append(w)
    gen = GeneratedCode(entry["source"], marshal.loads(entry["code"]), entry["spec"],
                        entry["entry"], entry["filename"]).renamed()
    fn = gen.load()
    info = CompileInfo(entry["name"], [], 0.0, 0.0, time.perf_counter() - t0, None,
                       gen.source, graph_bytes=entry["ir"],
                       weights={w.name: w for w in weights}, from_cache=True)
    return Executable(fn, weights, entry["out_tree"], entry["out_leaves"], entry["slots"],
                      info)


def store(path: str, exe, deps: set) -> None:
    """Write ``exe`` atomically; failures (read-only disk...) only warn."""
    gen = exe.generated
    entry = {
        "format": FORMAT, "name": exe.info.name, "source": gen.source,
        "code": marshal.dumps(gen.code), "spec": gen.spec, "entry": gen.entry,
        "filename": gen.filename, "ir": dumps(exe.info.graph),
        "weights": [(w.name, w.dtype.name, w.shape) for w in exe.weights],
        "out_tree": exe.out_tree, "out_leaves": exe.out_leaves, "slots": exe.out_slots,
        "deps": sorted((d, _file_hash(d)) for d in deps if _file_hash(d) is not None),
    }
    try:
        data = pickle.dumps(entry, protocol=pickle.HIGHEST_PROTOCOL)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=os.path.dirname(path), suffix=".tmp")
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        os.replace(tmp, path)
    except (OSError, pickle.PicklingError, TypeError, AttributeError) as e:
        print(f"graphkiln: could not write the compile cache entry {path} ({e}).",
              file=sys.stderr)


def _remove(path: str) -> None:
    try:
        os.remove(path)
    except OSError:
        pass
