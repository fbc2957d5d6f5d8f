"""Overload resolution of Tensor methods, as MindSpore 2.10 does it.

A method's overloads are data (``tensor_overloads.SIGNATURES``: one text per overload,
``"dim: int, keepdim: bool = False, *, dtype: mstype|None = None"``). ``overloaded(name,
impl)`` wraps an implementation: a call runs ``impl`` when it binds to one of the
signatures (positional then keyword arguments, types checked), and otherwise raises
MindSpore's ``TypeError``: the valid callings and why each failed, or, when one signature
is left, a Python-like message (``abs() takes 0 positional arguments but 1 was given.``).
The same check runs eagerly and while tracing a graph (there a mutable number is a
``SymbolicScalar`` of its kind); the message is worded as MindSpore's graph mode words it
while a graph is traced (``<Tensor,None>``) and as its PyNative argument parser does
otherwise (``<None, Tensor>``, only the overloads that take that many arguments, each with
why it failed): one formatter, ``no_match_message``, the mode a parameter.
"""
from __future__ import annotations

import functools
from dataclasses import dataclass, field

import numpy as np

from ..common import dtype as mstype
from ..common.mutable import RUNTIME_SCALARS
from ..common.symbolic_scalar import SymbolicScalar
from ..common.tensor import Tensor
from ..ir import tracing_state
from .defs.scalar import TensorToScalar

_TYPES = ("Tensor", "number", "int", "float", "bool", "str", "None", "Tuple", "List",
          "mstype", "any")
_REASON = "match failed because"


# MindSpore's PyNative parser's names of the signature types
_EAGER_NAMES = {"Tensor": "Tensor", "number": "Number", "int": "int", "float": "float",
                "bool": "bool", "str": "string", "None": "None", "Tuple": "tuple of int",
                "List": "list of int", "mstype": "mstype", "any": "Any"}


@dataclass(frozen=True)
class Param:
    """One parameter: its name, accepted types, whether it must be given, keyword-only,
    or ``*name`` (the rest of the positional arguments: ints, or one sequence), and the
    type marked ``!`` in its text (see ``main``)."""

    name: str
    types: tuple
    required: bool
    kw_only: bool = False
    varargs: bool = False
    marked: str = ""
    accepted: frozenset = field(init=False, repr=False, compare=False)

    def __post_init__(self):
        object.__setattr__(self, "accepted", frozenset(self.types))

    @property
    def needed(self) -> bool:
        """Whether MindSpore's PyNative parser needs the argument (``*shape`` too, unless
        it may be None)."""
        return self.required or (self.varargs and "None" not in self.types)

    @functools.cached_property
    def eager_types(self) -> tuple:
        """The types as MindSpore's PyNative parser lists them (sorted; a dtype is an
        ``mstype`` only)."""
        kept = [t for t in self.types if not (t == "int" and "mstype" in self.types)]
        return tuple(sorted(_EAGER_NAMES[t] for t in kept))

    @functools.cached_property
    def main(self) -> str:
        """The type MindSpore converts the argument to (the others are cast from; its
        errors name this one): the one marked ``!`` in the signature text, a tuple for
        ``*shape``, a Tensor taking numbers, or the first."""
        if self.marked:
            return self.marked
        if self.varargs and "Tuple" in self.types:
            return "Tuple"
        if {"number", "Tensor"} <= self.accepted:
            return "Tensor"
        return next(t for t in self.types if t != "None")


_INTS = Param("shape", ("int",), True)  # a ``*shape`` argument


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
    marked = next((t[:-1] for t in types if t.endswith("!")), "")
    types = tuple(t.rstrip("!") for t in types)
    unknown = set(types) - set(_TYPES)
    if unknown:
        raise ValueError(f"graphkiln bug: unknown type {sorted(unknown)} in the signature "
                         f"text {text!r}.")
    return Param(name.lstrip("*"), types, not default.strip() and not varargs, kw_only,
                 varargs, marked)


class Signature:
    """One overload of ``Tensor.<method>`` (or, ``owner`` empty, of the function
    ``<method>``), parsed from its text."""

    def __init__(self, method: str, text: str, owner: str = "Tensor."):
        self.method = method
        self.owner = owner
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
        # the fewest arguments MindSpore's PyNative parser takes; whether it needs positional
        # ones (``x.reshape()`` binds in graph mode only)
        self.least = sum(p.needed for p in params)
        self.needs_args = self.varargs and params[0].needed
        # for ``matches``: where each parameter binds and which must be given
        self._slot = {p.name: (i if not p.kw_only else len(params)) for i, p in enumerate(params)}
        self._required = tuple((self._slot[p.name], p.name) for p in params if p.required)
        self._accepted = tuple(p.accepted for p in self.positional)

    def matches(self, args: tuple, kwargs: dict, tag=None) -> bool:
        """True when the call binds to this signature (as ``check``, but faster), with
        the argument types ``tag`` gives (:func:`tags`; :func:`number_tags`: 0-D Tensors as
        numbers)."""
        tag = tag or tags
        if self.varargs:
            return self.check(args, kwargs, tag) is None
        n = len(args)
        if n > len(self._accepted):
            return False
        for types, v in zip(self._accepted, args):
            if types.isdisjoint(tag(v)):
                return False
        for slot, name in self._required:
            if slot >= n and name not in kwargs:
                return False
        for k, v in kwargs.items():
            slot = self._slot.get(k)
            if slot is None or slot < n or self.by_name[k].accepted.isdisjoint(tag(v)):
                return False
        return True

    def as_bound(self, args: tuple, kwargs: dict) -> tuple:
        """``(args, kwargs)`` of a call that binds here with 0-D Tensors as numbers, each
        as its parameter gets it (``_as_number``; ``*shape``'s are ints)."""
        params = [_INTS] * len(args) if self.varargs and args and \
            not (len(args) == 1 and isinstance(args[0], (tuple, list))) else self.positional
        return (tuple(_as_number(v, p) for v, p in zip(args, params)),
                {k: _as_number(v, self.by_name[k]) for k, v in kwargs.items()})

    def text(self, eager: bool = False, name: str = "") -> str:
        """As MindSpore lists it: ``Tensor.max(dim=<int>, keepdim=<bool>)`` (``eager``: as
        its PyNative parser spells the types: ``<None, int, tuple of int>``)."""
        parts = []
        for i, p in enumerate(self.params):
            if p.kw_only and (i == 0 or not self.params[i - 1].kw_only):
                parts.append("*")
            types = ", ".join(p.eager_types) if eager else ",".join(p.types)
            parts.append(f"{p.name}=<{types}>")
        return f'"{self.owner}{name or self.method}({", ".join(parts)})"'

    def check(self, args: tuple, kwargs: dict, tag=None) -> Failure | None:
        """None when ``(args, kwargs)`` binds to this signature, else why not."""
        tag = tag or tags
        if self.varargs and args:
            bad = _varargs_failure(self.params[0], args, tag)
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
        for j, (k, v) in enumerate(kwargs.items()):  # keywords first, as MindSpore
            if not accepts(self.by_name[k].accepted, v, tag):
                return Failure("keyword_type", k, len(args) + j)
        if not self.varargs:
            for i, (p, v) in enumerate(zip(self.positional, args)):
                if not accepts(p.accepted, v, tag):
                    return Failure("positional_type", p.name, i)
        return None


def _varargs_failure(p: Param, args: tuple, tag=None) -> Failure | None:
    """``x.reshape(2, 3)`` (ints) or ``x.reshape((2, 3))`` (one value of ``p.types``)."""
    tag = tag or tags
    if len(args) == 1 and accepts(p.accepted, args[0], tag):
        return None
    for i, v in enumerate(args):
        if "int" not in tag(v):
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
_TENSOR_TAGS = frozenset({"Tensor", "any"})
# a 0-D Tensor, by the kind of its dtype: a bool one is no int (``x.topk(Tensor(True))``
# fails in MindSpore), an integer one is an int and a float, a float one a float
_SCALAR_TENSOR_TAGS = {bool: frozenset({"Tensor", "bool", "number", "any"}),
                       int: frozenset({"Tensor", "int", "float", "number", "any"}),
                       float: frozenset({"Tensor", "float", "number", "any"}),
                       None: _TENSOR_TAGS}


def _scalar_kind(dtype: mstype.Type):
    if dtype is mstype.bool_:
        return bool
    if dtype.is_int:
        return int
    return float if dtype.is_float else None


def _is_scalar_tensor(v) -> bool:
    return isinstance(v, Tensor) and v.shape == ()


def number_tags(v) -> frozenset:
    """:func:`tags`, where a 0-D Tensor is also the number it holds: MindSpore binds a call
    so when no overload takes its 0-D Tensors as Tensors (``x.topk(Tensor(2))``)."""
    if _is_scalar_tensor(v):
        return _SCALAR_TENSOR_TAGS[_scalar_kind(v.dtype)]
    return tags(v)


def _as_number(v, p: Param):
    """``v`` as the argument ``p`` gets it: a 0-D Tensor where ``p`` converts to a number
    (it takes no Tensor, or a number first: ``axis: int|Tensor``) becomes its number (a
    graph's run-time one a mutable number), of ``p``'s type (an integer Tensor for a float
    parameter: a float), and so do the 0-D Tensors of a sequence of ints
    (``x.sum((Tensor(0),))``)."""
    if isinstance(v, (tuple, list)):
        return type(v)(TensorToScalar(x) if _is_scalar_tensor(x) else x for x in v)
    if p.main == "Tensor" or not _is_scalar_tensor(v):
        return v
    number = TensorToScalar(v)
    if p.accepted.isdisjoint(("int", "number", "bool")) and isinstance(number, int):
        return float(number)
    return number


def tags(v) -> frozenset:
    """The signature types ``v`` is of (cached per Python type where the type decides)."""
    found = _BY_TYPE.get(type(v))
    if found is not None:
        return found
    t = type(v)
    if isinstance(v, Tensor):
        found = _BY_TYPE[t] = _TENSOR_TAGS
    elif t is SymbolicScalar:
        return _SCALAR_TAGS[v.kind]
    elif isinstance(v, (tuple, list)):
        kind = "Tuple" if isinstance(v, tuple) else "List"
        return frozenset({kind, "any"}) if _is_int_sequence(v) else _ANY
    elif isinstance(v, (np.bool_, np.integer, np.floating)):
        found = _BY_TYPE[t] = _SCALAR_TAGS[type(v.item())]
    elif t in RUNTIME_SCALARS:  # ms.mutable(True / 1 / 1.0) outside a graph
        found = _BY_TYPE[t] = _SCALAR_TAGS[RUNTIME_SCALARS[t]]
    elif isinstance(v, (int, float)):  # another subclass
        found = _BY_TYPE[t] = _SCALAR_TAGS[int if isinstance(v, int) else float]
    elif isinstance(v, (mstype.Type, np.dtype)) or v is int or v is float or v is bool:
        return frozenset({"mstype", "any"})
    return found or _ANY


def accepts(types: frozenset, v, tag=None) -> bool:
    """True when ``v`` is of one of ``types`` (as ``tag`` gives them: :func:`tags`)."""
    return not types.isdisjoint((tag or tags)(v))


def describe(v, eager: bool = False) -> str:
    """The type of one argument, as MindSpore names it in its messages (``eager``: as its
    PyNative parser does, ``List<int>`` for graph mode's ``list<int>``)."""
    if isinstance(v, Tensor):
        return "Tensor"
    if type(v) is SymbolicScalar:
        return v.kind.__name__
    if isinstance(v, (list, tuple)):
        kind = type(v).__name__
        inner = ", ".join(describe(x, eager) for x in v)
        return f"{kind.capitalize() if eager else kind}<{inner}>"
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


def _arg_texts(args: tuple, kwargs: dict, eager: bool = False) -> list:
    return [describe(v, eager) for v in args] + \
        [f"{k}={describe(v, eager)}" for k, v in kwargs.items()]


def _expected(p: Param) -> str:
    """The type graph mode says ``p`` must be: the one it converts to."""
    return {"number": "Number", "Tuple": "tuple of int", "List": "list of int"}.get(p.main,
                                                                                   p.main)


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
    position = f.index + 1 if sig.owner else f.index  # the Tensor, or the input, is 0
    return (f"{name}(): argument '{f.name}' (position {position}) must be {must}, not "
            f"{describe(values[f.index])}.")


def _keyword_type_text(sig: Signature, f: Failure, value) -> str:
    got = f"{type(value).__name__} of Any" if isinstance(value, (list, tuple)) \
        else describe(value)
    return f"{sig.method}(): argument '{f.name}' must be {_expected(sig.by_name[f.name])} " \
        f"but got {got}"


def _reason(f: Failure, args: tuple, kwargs: dict, sig: Signature, keyworded: bool) -> list:
    """The lines under a listed signature that says why the call did not bind to it
    (``keyworded``: another overload failed on a keyword's name; graph mode then gives each
    overload's own error)."""
    texts = _arg_texts(args, kwargs)
    if f.kind == "keyword":
        said = len(texts) > 1 or len(sig.positional) == 1
        return [f"\t{_REASON} incorrect keyword name: {f.name}"] if said else []
    if f.kind == "missing":
        return []
    if f.kind in ("positional_type", "keyword_type") and \
            len(args) + len(kwargs) < len(sig.positional):
        return []  # graph mode does not say why when defaults would fill the rest
    if f.kind == "keyword_type" and keyworded:
        return ["\t" + _keyword_type_text(sig, f, kwargs[f.name])]
    start = f.index if f.kind == "positional_type" and sig.owner else 0
    head = f"    {_REASON} invalid types: ("
    offset = len(head) + len(", ".join(texts[:start] + [""])) if start else len(head)
    marked = ", ".join(texts[start:])
    return [f"{head}{', '.join(texts)})", " " * offset + "~" * (len(marked) + 2)]


def _eager_accepts(p: Param, v, main_only: bool) -> bool:
    """MindSpore's PyNative parser's type check of ``v`` for ``p`` (``main_only``: without
    the casts, as its listing of why a signature failed checks); a sequence of ints is
    judged by its first item."""
    types = {p.main} if main_only else set(p.types) - ({"int"} if "mstype" in p.types else set())
    kind = "Tuple" if isinstance(v, tuple) else "List" if isinstance(v, list) else ""
    if kind and kind in types:
        return not v or "int" in tags(v[0]) or isinstance(v[0], Tensor)
    return not types.isdisjoint(tags(v))


def _unpack_failure(name: str, p: Param, index: int, values) -> str | None:
    """The error converting ``values`` (bound to the ``index``-th parameter) to ints."""
    bad = next((j for j, x in enumerate(values) if "int" not in tags(x)), None)
    if bad is None:
        return None
    return (f"{name}(): argument '{p.name}'(position {index}) should be "
            f"{_EAGER_NAMES[p.main]}, but unpack failed at pos {bad} "
            f"(got {describe(values[bad], True)}).")


def _eager_parse(sig: Signature, name: str, args: tuple, kwargs: dict,
                 types_last: bool = False) -> tuple:
    """MindSpore's PyNative parser binding the call to ``sig``: ``(True, None)`` when it
    binds, ``(True, why)`` when it binds but an argument's ints do not convert, and
    ``(False, why)`` when it does not bind, ``why`` in Python's words (``types_last``: a
    wrong type is said after an unknown keyword, as for a method of one signature)."""
    n = len(args)
    if n > len(sig.positional) and not sig.varargs:
        verb = "were" if n > 1 else "was"
        return False, (f"{name}() takes {len(sig.positional)} positional arguments but {n} "
                       f"{verb} given.")
    pos, used, unpack, wrong = 0, 0, None, None
    for i, p in enumerate(sig.params):
        keyword = pos >= n
        if keyword:
            present, v = p.name in kwargs, kwargs.get(p.name)
            used += present
        else:
            present, v, pos = True, args[pos], pos + 1
            if p.kw_only:
                return False, f"{name}() got extra positional args."
        if not present:
            if p.needed:
                return False, f"{name}() missing 1 required positional argument: {p.name}."
        elif p.varargs and not keyword and _is_int(v):  # x.reshape(2, 3)
            unpack = unpack or _unpack_failure(name, p, i, args)
            pos = n
        elif v is None:
            if "None" not in p.types:
                return False, f"{name}(): missing 1 required positional argument: {p.name}."
        elif not _eager_accepts(p, v, False):
            must = f"{name}(): argument '{p.name}'"
            got = type(v).__name__
            if keyword:
                wrong = wrong or f"{must} must be {_EAGER_NAMES[p.main]} but got {got}."
            else:
                at = " but found type of {} at pos 0." if p.varargs else ", not {}."
                wrong = wrong or f"{must} (position {pos}) must be {_EAGER_NAMES[p.main]}" + \
                    at.format(got)
            if not types_last:
                return False, wrong
        elif isinstance(v, (tuple, list)):
            unpack = unpack or _unpack_failure(name, p, i, v)
    if used < len(kwargs):
        said = "(): invalid keyword arguments."
        for k in kwargs:
            where = [i for i, p in enumerate(sig.params) if p.name == k]
            if not where:
                said = f"() got an unexpected keyword argument '{k}'."
            elif where[-1] < n:
                said = f"() got multiple values for argument '{k}'."
        return False, name + said
    if wrong:
        return False, wrong
    return True, unpack


def _eager_reason(sig: Signature, args: tuple, kwargs: dict) -> list:
    """The lines under a listed signature that say why the call did not bind to it, as
    MindSpore's PyNative parser words them."""
    known = {p.name for p in sig.params[len(sig.params) - len(kwargs):]}
    wrong = [k for k in kwargs if k not in known]
    if wrong:
        return [f"    {_REASON} incorrect keyword name: {', '.join(wrong)}"]
    head = f"    {_REASON} invalid types: ("
    texts, marks = [], [" " * len(head)]
    for i, p in enumerate(sig.params):
        keyword = i >= len(args)
        v = kwargs.get(p.name) if keyword else args[i]
        if v is None:  # an explicit positional None is left out, as MindSpore's
            if p.required and keyword:
                return [f"    missing required argument: {p.name}"]
            continue
        text = (f"{p.name}=" if keyword else "") + describe(v, True) + ", "
        bad = (p.kw_only and not keyword) or not _eager_accepts(p, v, True)
        texts.append(text)
        marks.append(("~" if bad else " ") * len(text))
    return [head + "".join(texts)[:-2] + ")", "".join(marks)]


def _eager_message(name: str, sigs: tuple, args: tuple, kwargs: dict,
                   python_worded: bool) -> str:
    """MindSpore's PyNative message (see ``no_match_message``): an int-unpack error when a
    signature binds but its ints do not convert; Python's words when one signature alone
    can take that many arguments (or the method is ``python_worded`` with one signature);
    else the signatures that can take that many arguments, each with why the call does not
    bind to it (all signatures, in graph spelling and without reasons, when none can)."""
    for s in sigs:
        bound, said = _eager_parse(s, name, args, kwargs)
        if bound and said:
            return said
    n = len(args) + len(kwargs)
    fits = [s for s in sigs if s.least <= n <= len(s.params)]
    one = None
    if len(sigs) == 1:
        one = sigs[0] if python_worded else None
    elif len(fits) == 1:
        one = fits[0]
    if one is not None:
        bound, said = _eager_parse(one, name, args, kwargs, len(sigs) == 1)
        if not bound:
            return said
    head = f'Failed calling {name} with "{name}({", ".join(_arg_texts(args, kwargs, True))})".'
    lines = [head, "The valid calling should be:"]
    if not fits:
        return "\n".join(lines + [s.text(name=name) for s in sigs]) + "\n"
    for s in fits:
        text = s.text(True, name)
        if text not in lines:
            lines.append(text)
            lines.extend(_eager_reason(s, args, kwargs))
    return "\n".join(lines) + "\n"


def no_match_message(method: str, sigs: tuple, args: tuple, kwargs: dict,
                     python_worded: bool = False, eager: bool = False,
                     eager_name: str = "") -> str:
    """MindSpore's message for a call of ``Tensor.<method>`` that binds to none of ``sigs``:
    as its graph mode words it, or (``eager``) as its PyNative mode does, naming the method
    ``eager_name`` when given (its name for an alias: ``clip`` is ``clamp``).
    ``python_worded``: MindSpore words the errors of this method as Python does (graph
    mode: always; PyNative: when it has one signature)."""
    if eager:
        return _eager_message(eager_name or method, sigs, args, kwargs, python_worded)
    failures = [s.check(args, kwargs) for s in sigs]
    n = len(args) + len(kwargs)
    fits = [i for i, s in enumerate(sigs) if s.capacity >= n]
    # python-worded: the error of the one signature that takes that many arguments without
    # its defaults, when there is one; an unknown keyword's when none does
    sized = [i for i in fits if sigs[i].varargs or n >= len(sigs[i].positional)]
    if python_worded and len(sigs) > 1 and len(sized) == 1:
        return _single_message(sigs[sized[0]], failures[sized[0]], args, kwargs)
    keyword = next((f for f in failures if f.kind == "keyword"), None)
    if python_worded and keyword is not None and not sized:
        return f"{_REASON} incorrect keyword name: {keyword.name}"
    too_many = next((i for i in fits if failures[i].kind == "too_many"), None)
    if python_worded and (len(sigs) == 1 or too_many is not None):
        one = 0 if too_many is None else too_many
        return _single_message(sigs[one], failures[one], args, kwargs)
    # one overload takes that many arguments (or takes them without its defaults): its error
    if not python_worded and len(sigs) > 1 and (len(fits) == 1 or len(sized) == 1):
        one = fits[0] if len(fits) == 1 else sized[0]
        return _single_message(sigs[one], failures[one], args, kwargs)
    lines = [f'Failed calling {method} with "{method}({", ".join(_arg_texts(args, kwargs))})".',
             "The valid calling should be:"]
    for i, (s, f) in enumerate(zip(sigs, failures)):
        lines.append(s.text())
        if i in fits:
            lines.extend(_reason(f, args, kwargs, s, keyword is not None))
    return "\n".join(lines) + "\n"


@functools.cache
def signatures(method: str, texts: tuple, owner: str = "Tensor.") -> tuple:
    """The overloads ``texts`` of ``Tensor.<method>`` (``owner`` empty: of the function
    ``<method>``), parsed (once)."""
    return tuple(Signature(method, text, owner) for text in texts)


def _binder(method: str, sigs: tuple, python_worded: bool, eager_name: str):
    """``bind(args, kwargs) -> (args, kwargs)``: the call's arguments as the overload it
    binds to (the first of ``sigs`` that takes them) gets them (see ``_as_number``), else
    MindSpore's TypeError (graph-mode words while a graph is traced, PyNative ones
    otherwise)."""
    # the argument types (and keyword names) of calls that bound, where the types alone
    # decide (``_BY_TYPE``; a 0-D Tensor's tags depend on its dtype, so a call with one
    # is never looked up here): the next such call binds without matching again
    bound = set()

    def bind(args: tuple, kwargs: dict) -> tuple:
        key = (*map(type, args), *kwargs, *map(type, kwargs.values())) if kwargs \
            else tuple(map(type, args))
        numbers = any(_is_scalar_tensor(v) or isinstance(v, (tuple, list)) and
                      any(_is_scalar_tensor(x) for x in v)
                      for v in (*args, *kwargs.values()))
        if key in bound and not numbers:
            return args, kwargs
        for s in sigs:
            if s.matches(args, kwargs) and (args or not s.needs_args
                                            or tracing_state.current()):
                if numbers:  # a sequence of ints may hold 0-D Tensors: their numbers
                    return s.as_bound(args, kwargs)
                if (args or not s.needs_args) and all(t in _BY_TYPE for t in key[:len(args)]) \
                        and all(type(v) in _BY_TYPE for v in kwargs.values()):
                    bound.add(key)
                return args, kwargs
        for s in sigs if numbers else ():
            if s.matches(args, kwargs, number_tags):
                return s.as_bound(args, kwargs)
        eager = tracing_state.current() is None
        raise TypeError(no_match_message(method, sigs, args, kwargs, python_worded, eager,
                                         eager_name))

    return bind


def overloaded(method: str, texts: tuple, impl, python_worded: bool = False,
               eager_name: str = "", eager_python: bool = False):
    """``impl(self, *args, **kwargs)`` behind MindSpore's overload check of
    ``Tensor.<method>`` against its overloads ``texts``; a failed call raises MindSpore's
    graph-mode message while a graph is traced, its PyNative one otherwise
    (``python_worded``, ``eager_name``: see ``no_match_message``; ``eager_python``: outside
    a graph ``impl`` runs unchecked, as MindSpore's plain Python method does)."""
    bind = _binder(method, signatures(method, texts), python_worded, eager_name)

    def call(self, *args, **kwargs):
        if not isinstance(self, Tensor):
            raise TypeError(f"descriptor '{method}' for 'Tensor' objects doesn't apply to a "
                            f"'{type(self).__name__}' object")
        if not eager_python or tracing_state.current() is not None:
            args, kwargs = bind(args, kwargs)
        return impl(self, *args, **kwargs)

    call.__name__ = call.__qualname__ = method
    call.__doc__ = impl.__doc__
    call.__wrapped__ = impl
    return call


def overloaded_function(name: str, texts: tuple, impl, python_worded: bool = False):
    """``impl(*args, **kwargs)`` behind MindSpore's overload check of the function
    ``name`` (``mint.add``...) against its overloads ``texts`` (the input among them)."""
    bind = _binder(name, signatures(name, texts, ""), python_worded, "")

    def call(*args, **kwargs):
        args, kwargs = bind(args, kwargs)
        return impl(*args, **kwargs)

    call.__name__ = call.__qualname__ = name  # no __wrapped__: graphs must run the check
    call.__doc__ = impl.__doc__
    return call


__all__ = ["Param", "Signature", "accepts", "describe", "no_match_message", "overloaded",
           "overloaded_function", "signatures", "tags"]
