"""Overload resolution of Tensor methods, as MindSpore 2.10 does it.

A method's overloads are data (``tensor_overloads.SIGNATURES``: one text per overload,
``"dim: int, keepdim: bool = False, *, dtype: mstype|None = None"``). ``overloaded(name,
impl)`` wraps an implementation: a call runs ``impl`` when it binds to one of the
signatures (positional then keyword arguments, types checked), and otherwise raises
MindSpore's ``TypeError``: the valid callings and why each failed, or, when one signature
is left, a Python-like message (``abs() takes 0 positional arguments but 1 was given.``).
The same check runs eagerly and while tracing a graph (there a mutable number is a
``SymbolicScalar`` of its kind).
"""
from __future__ import annotations

import functools
from dataclasses import dataclass, field

import numpy as np

from ..common import dtype as mstype
from ..common.symbolic_scalar import SymbolicScalar
from ..common.tensor import Tensor

_TYPES = ("Tensor", "number", "int", "float", "bool", "str", "None", "Tuple", "List",
          "mstype", "any")
_REASON = "match failed because"


@dataclass(frozen=True)
class Param:
    """One parameter: its name, accepted types, whether it must be given, keyword-only,
    or ``*name`` (the rest of the positional arguments: ints, or one sequence)."""

    name: str
    types: tuple
    required: bool
    kw_only: bool = False
    varargs: bool = False
    accepted: frozenset = field(init=False, repr=False, compare=False)

    def __post_init__(self):
        object.__setattr__(self, "accepted", frozenset(self.types))


@dataclass(frozen=True)
class Failure:
    """Why a call does not bind to a signature: ``kind`` (too_many, missing, keyword,
    positional_type, keyword_type, varargs_type), the parameter or keyword concerned and
    the index of the offending argument (positional first, then keywords in call order)."""

    kind: str
    name: str = ""
    index: int = 0
    count: int = 0


def _parse_param(text: str, kw_only: bool) -> Param:
    head, _, default = text.partition("=")
    name, _, types = head.partition(":")
    name = name.strip()
    varargs = name.startswith("*")
    types = tuple(t.strip() for t in types.split("|"))
    unknown = set(types) - set(_TYPES)
    if unknown:
        raise ValueError(f"graphkiln bug: unknown type {sorted(unknown)} in the signature "
                         f"text {text!r}.")
    return Param(name.lstrip("*"), types, not default.strip() and not varargs, kw_only,
                 varargs)


class Signature:
    """One overload of ``Tensor.<method>``, parsed from its text."""

    def __init__(self, method: str, text: str):
        self.method = method
        params, kw_only = [], False
        for part in filter(None, (p.strip() for p in text.split(","))):
            if part == "*":
                kw_only = True
            else:
                params.append(_parse_param(part, kw_only))
        self.params = tuple(params)
        self.by_name = {p.name: p for p in params}
        self.positional = tuple(p for p in params if not p.kw_only)
        self.varargs = bool(params) and params[0].varargs
        self.capacity = float("inf") if self.varargs else len(params)
        # for ``matches``: where each parameter binds and which must be given
        self._slot = {p.name: (i if not p.kw_only else len(params)) for i, p in enumerate(params)}
        self._required = tuple((self._slot[p.name], p.name) for p in params if p.required)
        self._accepted = tuple(p.accepted for p in self.positional)

    def matches(self, args: tuple, kwargs: dict) -> bool:
        """True when the call binds to this signature (as ``check``, but faster)."""
        if self.varargs:
            return self.check(args, kwargs) is None
        n = len(args)
        if n > len(self._accepted):
            return False
        for types, v in zip(self._accepted, args):
            if types.isdisjoint(tags(v)):
                return False
        for slot, name in self._required:
            if slot >= n and name not in kwargs:
                return False
        for k, v in kwargs.items():
            slot = self._slot.get(k)
            if slot is None or slot < n or self.by_name[k].accepted.isdisjoint(tags(v)):
                return False
        return True

    def text(self) -> str:
        """As MindSpore lists it: ``Tensor.max(dim=<int>, keepdim=<bool>)``."""
        parts = []
        for i, p in enumerate(self.params):
            if p.kw_only and (i == 0 or not self.params[i - 1].kw_only):
                parts.append("*")
            parts.append(f"{p.name}=<{','.join(p.types)}>")
        return f'"Tensor.{self.method}({", ".join(parts)})"'

    def check(self, args: tuple, kwargs: dict) -> Failure | None:
        """None when ``(args, kwargs)`` binds to this signature, else why not."""
        if self.varargs and args:
            bad = _varargs_failure(self.params[0], args)
            if bad is not None:
                return bad
            rest = self.params[1:]
        else:
            if len(args) > len(self.positional):
                return Failure("too_many", index=len(self.positional),
                               count=len(self.positional))
            rest = self.params[len(args):]
        free = {p.name for p in rest}
        for k in kwargs:
            if k not in free:
                return Failure("keyword", k)
        missing = [p for p in rest if p.required and p.name not in kwargs]
        if missing:
            return Failure("missing", missing[0].name, count=len(missing))
        if not self.varargs:
            for i, (p, v) in enumerate(zip(self.positional, args)):
                if not accepts(p.accepted, v):
                    return Failure("positional_type", p.name, i)
        for j, (k, v) in enumerate(kwargs.items()):
            if not accepts(self.by_name[k].accepted, v):
                return Failure("keyword_type", k, len(args) + j)
        return None


def _varargs_failure(p: Param, args: tuple) -> Failure | None:
    """``x.reshape(2, 3)`` (ints) or ``x.reshape((2, 3))`` (one value of ``p.types``)."""
    if len(args) == 1 and accepts(p.accepted, args[0]):
        return None
    for i, v in enumerate(args):
        if not _is_int(v):
            return Failure("varargs_type", p.name, i)
    return None


def _is_int(v) -> bool:
    return "int" in tags(v)


def _is_int_sequence(v) -> bool:
    return all("int" in tags(x) or isinstance(x, Tensor) for x in v)


_SCALAR_TAGS = {bool: frozenset({"bool", "int", "number", "any"}),
                int: frozenset({"int", "float", "number", "any"}),
                float: frozenset({"float", "number", "any"})}
_BY_TYPE = {**_SCALAR_TAGS, type(None): frozenset({"None", "any"}),
            str: frozenset({"str", "any"})}
_ANY = frozenset({"any"})


def tags(v) -> frozenset:
    """The signature types ``v`` is of (cached per Python type where the type decides)."""
    found = _BY_TYPE.get(type(v))
    if found is not None:
        return found
    t = type(v)
    if isinstance(v, Tensor):
        found = _BY_TYPE[t] = frozenset({"Tensor", "any"})
    elif t is SymbolicScalar:
        return _SCALAR_TAGS[v.kind]
    elif isinstance(v, (tuple, list)):
        kind = "Tuple" if isinstance(v, tuple) else "List"
        return frozenset({kind, "any"}) if _is_int_sequence(v) else _ANY
    elif isinstance(v, (np.bool_, np.integer, np.floating)):
        found = _BY_TYPE[t] = _SCALAR_TAGS[type(v.item())]
    elif isinstance(v, (int, float)):  # a subclass: ms.mutable(1) outside a graph
        found = _BY_TYPE[t] = _SCALAR_TAGS[int if isinstance(v, int) else float]
    elif isinstance(v, (mstype.Type, np.dtype)) or v is int or v is float or v is bool:
        return frozenset({"mstype", "any"})
    return found or _ANY


def accepts(types: frozenset, v) -> bool:
    """True when ``v`` is of one of ``types``."""
    return not types.isdisjoint(tags(v))


def describe(v) -> str:
    """The type of one argument, as MindSpore names it in its messages."""
    if isinstance(v, Tensor):
        return "Tensor"
    if type(v) is SymbolicScalar:
        return v.kind.__name__
    if isinstance(v, (list, tuple)):
        return f"{type(v).__name__}<{', '.join(describe(x) for x in v)}>"
    if isinstance(v, str):
        return "string"
    if v is None:
        return "None"
    if isinstance(v, (bool, np.bool_)):
        return "bool"
    if isinstance(v, (int, np.integer)):
        return "int"
    if isinstance(v, (float, np.floating)):
        return "float"
    if isinstance(v, mstype.Type):
        return "mstype"
    return type(v).__name__


def _arg_texts(args: tuple, kwargs: dict) -> list:
    return [describe(v) for v in args] + [f"{k}={describe(v)}" for k, v in kwargs.items()]


def _expected(p: Param) -> str:
    names = [t for t in p.types if t != "None"] or ["None"]
    return ", ".join("Number" if t == "number" else t for t in names)


def _single_message(sig: Signature, f: Failure, args: tuple, kwargs: dict | None = None) -> str:
    """The Python-like message for the one signature a call could mean."""
    name, values = sig.method, args + tuple((kwargs or {}).values())
    if f.kind == "too_many":
        given = len(values)
        verb = "was" if given == 1 else "were"
        return f"{name}() takes {f.count} positional arguments but {given} {verb} given."
    if f.kind == "missing":
        return f"{name}() missing {f.count} required argument"
    if f.kind == "keyword":
        return f"{_REASON} incorrect keyword name: {f.name}"
    if f.kind == "keyword_type":
        return _keyword_type_text(sig, f, values[f.index])
    must = "tuple of int" if f.kind == "varargs_type" else _expected(sig.by_name[f.name])
    return (f"{name}(): argument '{f.name}' (position {f.index + 1}) must be {must}, not "
            f"{describe(values[f.index])}.")


def _keyword_type_text(sig: Signature, f: Failure, value) -> str:
    got = f"{type(value).__name__} of Any" if isinstance(value, (list, tuple)) \
        else describe(value)
    return f"{sig.method}(): argument '{f.name}' must be {_expected(sig.by_name[f.name])} " \
        f"but got {got}"


def _reason(f: Failure, args: tuple, kwargs: dict, sig: Signature) -> list:
    """The lines under a listed signature that says why the call did not bind to it."""
    texts = _arg_texts(args, kwargs)
    if f.kind == "keyword":
        said = len(texts) > 1 or len(sig.positional) == 1
        return [f"\t{_REASON} incorrect keyword name: {f.name}"] if said else []
    if f.kind == "missing":
        return []
    if f.kind == "keyword_type" and sig.by_name[f.name].types == ("bool",) and \
            describe(kwargs[f.name]) == "int":
        return ["\t" + _keyword_type_text(sig, f, kwargs[f.name])]
    start = f.index if f.kind == "positional_type" else 0
    head = f"    {_REASON} invalid types: ("
    offset = len(head) + len(", ".join(texts[:start] + [""])) if start else len(head)
    marked = ", ".join(texts[start:])
    return [f"{head}{', '.join(texts)})", " " * offset + "~" * (len(marked) + 2)]


def no_match_message(method: str, sigs: tuple, args: tuple, kwargs: dict,
                     python_worded: bool = False) -> str:
    """MindSpore's message for a call of ``Tensor.<method>`` that binds to none of ``sigs``
    (``python_worded``: MindSpore words the errors of this method as Python does)."""
    failures = [s.check(args, kwargs) for s in sigs]
    n = len(args) + len(kwargs)
    fits = [i for i, s in enumerate(sigs) if s.capacity >= n]
    keyword = next((f for f in failures if f.kind == "keyword"), None)
    if python_worded and keyword is not None:
        return f"{_REASON} incorrect keyword name: {keyword.name}"
    too_many = next((i for i in fits if failures[i].kind == "too_many"), None)
    if python_worded and (len(sigs) == 1 or too_many is not None):
        one = 0 if too_many is None else too_many
        return _single_message(sigs[one], failures[one], args, kwargs)
    if not python_worded and len(sigs) > 1 and len(fits) == 1:
        return _single_message(sigs[fits[0]], failures[fits[0]], args, kwargs)
    lines = [f'Failed calling {method} with "{method}({", ".join(_arg_texts(args, kwargs))})".',
             "The valid calling should be:"]
    for i, (s, f) in enumerate(zip(sigs, failures)):
        lines.append(s.text())
        if i in fits:
            lines.extend(_reason(f, args, kwargs, s))
    return "\n".join(lines) + "\n"


@functools.cache
def signatures(method: str, texts: tuple) -> tuple:
    """The overloads ``texts`` of ``Tensor.<method>``, parsed (once)."""
    return tuple(Signature(method, text) for text in texts)


def overloaded(method: str, texts: tuple, impl, python_worded: bool = False):
    """``impl(self, *args, **kwargs)`` behind MindSpore's overload check of
    ``Tensor.<method>`` against its overloads ``texts`` (``python_worded``: see
    ``no_match_message``)."""
    sigs = signatures(method, texts)
    checks = tuple(s.matches for s in sigs)

    def call(self, *args, **kwargs):
        if not isinstance(self, Tensor):
            raise TypeError(f"descriptor '{method}' for 'Tensor' objects doesn't apply to a "
                            f"'{type(self).__name__}' object")
        for check in checks:
            if check(args, kwargs):
                return impl(self, *args, **kwargs)
        raise TypeError(no_match_message(method, sigs, args, kwargs, python_worded))

    call.__name__ = call.__qualname__ = method
    call.__doc__ = impl.__doc__
    call.__wrapped__ = impl
    return call


__all__ = ["Param", "Signature", "accepts", "describe", "no_match_message", "overloaded",
           "signatures", "tags"]
