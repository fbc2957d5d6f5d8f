"""The parameters of a function, read from its code object when it is a plain function.

``inspect.signature`` costs tens of microseconds a call; a first compile asks it for the
inference and backward rule of every primitive it differentiates. A plain function (not
wrapped, no ``__signature__``) states the same parameters in its code object and defaults.
"""
from __future__ import annotations

import inspect
import types
from collections.abc import Callable

Parameter = inspect.Parameter
_EMPTY = Parameter.empty


def parameters(fn: Callable) -> list[tuple[str, object, object]]:
    """``(name, kind, default)`` of each parameter of ``fn`` in signature order, as
    ``inspect.signature(fn).parameters`` gives them (``kind`` an ``inspect.Parameter``
    kind, ``default`` ``inspect.Parameter.empty`` when there is none)."""
    if type(fn) is not types.FunctionType or hasattr(fn, "__wrapped__") or \
            hasattr(fn, "__signature__"):
        return [(p.name, p.kind, p.default)
                for p in inspect.signature(fn).parameters.values()]
    code = fn.__code__
    n, k, posonly = code.co_argcount, code.co_kwonlyargcount, code.co_posonlyargcount
    names = code.co_varnames
    defaults = fn.__defaults__ or ()
    first_default = n - len(defaults)
    out = [(names[i], Parameter.POSITIONAL_ONLY if i < posonly
            else Parameter.POSITIONAL_OR_KEYWORD,
            defaults[i - first_default] if i >= first_default else _EMPTY) for i in range(n)]
    extra = n + k
    if code.co_flags & inspect.CO_VARARGS:
        out.append((names[extra], Parameter.VAR_POSITIONAL, _EMPTY))
        extra += 1
    kwdefaults = fn.__kwdefaults__ or {}
    out += [(name, Parameter.KEYWORD_ONLY, kwdefaults.get(name, _EMPTY))
            for name in names[n:n + k]]
    if code.co_flags & inspect.CO_VARKEYWORDS:
        out.append((names[extra], Parameter.VAR_KEYWORD, _EMPTY))
    return out
