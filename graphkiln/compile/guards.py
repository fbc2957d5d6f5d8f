"""Guards on values a trace folds in from outside its arguments.

Traced code reads module globals (``SCALE``), attributes of modules and objects named by
globals (``config.eps``, ``np.pi``) and closure cells; their values become constants of the
graph. A compile records, for every function it converted, the value of each such name its
code mentions; a later call (or a later process loading the cache entry) checks them and
recompiles when one changed. Values are compared by content: numbers, strings, None,
dtypes, tuples/lists/dicts of them and arrays or tensors of up to ``MAX_ELEMENTS``.
Functions, classes and modules themselves are not guarded (their code is covered by the
source-file hashes of the compile cache).
"""
from __future__ import annotations

import dis
import sys
import types
import weakref

import numpy as np

from ..common import dtype as mstype
from ..common.tensor import Tensor

MAX_ELEMENTS = 4096
_SCALARS = (bool, int, float, complex, str, bytes, type(None))
_NOT_GUARDED = (type, types.FunctionType, types.BuiltinFunctionType, types.MethodType,
                types.ModuleType)
UNFROZEN = ("unfrozen",)


def frozen(v, depth: int = 0):
    """A picklable value that compares equal exactly when ``v``'s content does, or
    ``UNFROZEN``."""
    if isinstance(v, _SCALARS):
        return (type(v).__name__, v)
    if isinstance(v, np.generic):
        return ("np", v.dtype.str, v.tobytes())
    if isinstance(v, mstype.Type):
        return ("dtype", v.name)
    if isinstance(v, np.ndarray) and v.size <= MAX_ELEMENTS and v.dtype != object:
        return ("A", v.dtype.str, v.shape, v.tobytes())
    if isinstance(v, Tensor) and not v._is_param and v._node is None \
            and v._data.size <= MAX_ELEMENTS:
        return ("T", v.dtype.name, v.shape, v._data.tobytes())
    if isinstance(v, (tuple, list)) and depth < 3:
        items = tuple(frozen(e, depth + 1) for e in v)
        return UNFROZEN if UNFROZEN in items else (type(v).__name__,) + items
    if isinstance(v, dict) and depth < 3 and all(isinstance(k, str) for k in v):
        items = tuple((k, frozen(e, depth + 1)) for k, e in sorted(v.items()))
        return UNFROZEN if any(e == UNFROZEN for _, e in items) else ("dict",) + items
    return UNFROZEN


def _names(code: types.CodeType) -> set:
    out = set(code.co_names)
    for c in code.co_consts:
        if isinstance(c, types.CodeType):
            out |= _names(c)
    return out


def _class_attributes(cls: type, names: set, out: dict) -> None:
    """Guards on the class attributes of ``cls`` (and its bases) that ``names`` mention."""
    module = sys.modules.get(cls.__module__)
    if module is None or vars(module).get(cls.__qualname__) is not cls:
        return  # not reachable by name from another process
    for attr in names:
        for klass in cls.__mro__[:-1]:
            if attr in klass.__dict__:
                value = frozen(klass.__dict__[attr])
                if value != UNFROZEN and klass is cls:
                    out[(cls.__module__, cls.__qualname__, attr)] = value
                break


def snapshot(functions: list, owner_type: type | None = None,
             unguarded: set = frozenset()) -> tuple[tuple, list]:
    """``(module guards, cell guards)`` for the functions a trace converted (and the class
    attributes of ``owner_type``, the cell or object whose method was compiled), except the
    objects whose ids are ``unguarded`` (dicts the graph writes when it runs). Module
    guards are ``(module name, global, attribute or None, frozen value)`` and survive a
    process; cell guards are ``(cell, frozen value)`` for this process."""
    module_guards: dict = {}
    cell_guards: list = []
    seen: set = set()
    every_name: set = set()
    for fn in functions:
        code = getattr(fn, "__code__", None)
        if code is None or code in seen:
            continue
        seen.add(code)
        names = _names(code)
        every_name |= names
        g = fn.__globals__
        module = g.get("__name__")
        for name in names:
            if name not in g or name.startswith("__"):
                continue
            v = g[name]
            if id(v) in unguarded:
                continue
            if isinstance(v, type):
                _class_attributes(v, names, module_guards)
                continue
            if isinstance(v, _NOT_GUARDED) and not isinstance(v, types.ModuleType):
                continue
            if isinstance(v, types.ModuleType) or (
                    hasattr(v, "__dict__") and not callable(v) and frozen(v) == UNFROZEN):
                for attr in names:  # attributes read through the global: config.eps
                    if attr in getattr(v, "__dict__", {}):
                        value = frozen(vars(v)[attr])
                        if value != UNFROZEN:
                            module_guards[(module, name, attr)] = value
                continue
            value = frozen(v)
            if value != UNFROZEN:
                module_guards[(module, name, None)] = value
        for cell in fn.__closure__ or ():
            try:
                value = frozen(cell.cell_contents)
            except ValueError:  # empty cell
                continue
            if id(cell.cell_contents) in unguarded:
                continue
            if value != UNFROZEN:
                cell_guards.append((cell, value))
    if owner_type is not None:
        _class_attributes(owner_type, every_name, module_guards)
    return tuple((m, n, a, v) for (m, n, a), v in sorted(
        module_guards.items(), key=lambda kv: tuple(map(str, kv[0])))), cell_guards


_MISSING = object()
_NEVER = ("never equal",)  # frozen() gives no such value: the guard always fails


class AttributeRead:
    """``obj.<name>`` read like a closure cell (``cell_contents``), holding ``obj`` weakly;
    ``ValueError`` once the object or the attribute is gone."""

    def __init__(self, obj, name: str):
        self._ref = weakref.ref(obj)
        self._name = name

    @property
    def cell_contents(self):
        obj = self._ref()
        if obj is None or self._name not in vars(obj):
            raise ValueError(self._name)
        return vars(obj)[self._name]


def read_names(functions: list) -> set:
    """The attribute names the code of ``functions`` may read: the names of its attribute
    loads and its string constants (``getattr(self, "name")``)."""
    names: set = set()
    todo = [f.__code__ for f in functions if hasattr(f, "__code__")]
    while todo:
        code = todo.pop()
        names.update(_attribute_loads(code))
        for c in code.co_consts:
            if isinstance(c, types.CodeType):
                todo.append(c)
            elif isinstance(c, str):
                names.add(c)
    return names


# attribute-load opcode -> how far its argument is shifted past the index into co_names
# (Python 3.12 keeps a flag in LOAD_ATTR's lowest bit, two in LOAD_SUPER_ATTR's)
_ATTRIBUTE_LOADS = {dis.opmap[name]: shift for name, shift in (
    ("LOAD_ATTR", 1 if sys.version_info >= (3, 12) else 0), ("LOAD_METHOD", 0),
    ("LOAD_SUPER_ATTR", 2)) if name in dis.opmap}


def _attribute_loads(code: types.CodeType) -> list:
    """The names ``code``'s own attribute loads read, from its raw instructions (what
    ``dis.get_instructions`` would say, twenty times faster: a first compile reads every
    traced function)."""
    raw, names, found, extended = code.co_code, code.co_names, [], 0
    for i in range(0, len(raw), 2):
        op, arg = raw[i], raw[i + 1] | extended
        if op == dis.EXTENDED_ARG:
            extended = arg << 8
            continue
        extended = 0
        shift = _ATTRIBUTE_LOADS.get(op)
        if shift is not None:
            found.append(names[arg >> shift])
    return found


def attribute_guards(writes, functions: list) -> list:
    """Cell guards on the attributes a graph sets when it runs (``(obj, name, value the
    trace read)``) and that the traced ``functions`` may also read: the trace folded that
    value in, so a call after the attribute changed compiles again (an attribute whose
    value cannot be compared always does). An attribute the code only writes
    (``self.last = x * 2``) needs no guard."""
    writes = list(writes)
    read = read_names(functions) if writes else set()
    guards = []
    for obj, name, before in writes:
        if name not in read:
            continue
        try:
            cell = AttributeRead(obj, name)
        except TypeError:  # no weak references to it: compile every call
            guards.append((_NeverHolds(), _NEVER))
            continue
        value = frozen(before)
        guards.append((cell, _NEVER if value == UNFROZEN else value))
    return guards


class _NeverHolds:
    @property
    def cell_contents(self):
        raise ValueError("unguardable attribute")


def guards_hold(module_guards: tuple, cell_guards: list = ()) -> bool:
    """True when every guarded value is as it was at trace time."""
    for module, name, attr, value in module_guards:
        mod = sys.modules.get(module)
        if mod is None:
            return False
        v = vars(mod).get(name, _MISSING)
        if attr is not None:
            v = getattr(v, "__dict__", {}).get(attr, _MISSING)
            if isinstance(v, (staticmethod, classmethod, property)):
                v = _MISSING
        if v is _MISSING or frozen(v) != value:
            return False
    for cell, value in cell_guards:
        try:
            if frozen(cell.cell_contents) != value:
                return False
        except ValueError:
            return False
    return True


__all__ = ["snapshot", "guards_hold", "frozen", "attribute_guards", "AttributeRead",
           "read_names"]
