"""``raise`` and ``assert`` in graph code, checked when the graph runs.

Converted code calls ``raise_(exc, args)`` for ``raise E(args...)`` (``assert c, msg`` is
converted to ``if not c: raise AssertionError(msg)``), and ``fstring``/``percent`` for the
f-strings and ``%`` formatting in the arguments, so a message that uses graph values is
formatted from their run-time values.

Inside a branch of a tensor ``if`` the raise becomes a ``Raise`` node on the IO chain (it
fires only when its branch runs): its inputs are the symbolic values the exception uses and
its ``spec`` attribute (a :class:`RaiseSpec`) rebuilds the exception from their values. The
branch then ends with :class:`BranchRaised`, and the ``if`` joins it like a branch that
returned. Anywhere else the raise happens now, while tracing, as Python would.
"""
from __future__ import annotations

from collections.abc import Callable

from ..common.capture_flags import bytecode_capture, inside_python_try, refuse
from ..common.symbolic_scalar import SymbolicScalar
from ..common.tensor import Tensor
from ..ir import tracing_state as state
from ..ops.defs.side_effects import Raise
from .fallback import PyObject, run_time


class BranchRaised(Exception):  # noqa: N818  (control flow of the tracer, not an error)
    """The branch being traced raised at run time; nothing after the raise runs."""


class Slot:
    """Stands for the ``index``-th run-time input of a ``Raise`` node."""

    __slots__ = ("index", "dtype")

    def __init__(self, index: int, dtype):
        self.index = index
        self.dtype = dtype


class FString:
    """An f-string whose values are known only at run time: ``parts`` are literal strings
    and ``(value, conversion, format_spec)`` triples, as in ``ast.JoinedStr``."""

    __slots__ = ("parts",)

    def __init__(self, parts: tuple):
        self.parts = parts

    def map(self, fn: Callable) -> FString:
        return FString(tuple(p if isinstance(p, str) else (fn(p[0]), p[1], p[2])
                             for p in self.parts))

    def render(self) -> str:
        return "".join(p if isinstance(p, str) else _format_value(*p) for p in self.parts)

    def __str__(self) -> str:
        return self.render()


class PercentText:
    """``template % values`` whose values are known only at run time."""

    __slots__ = ("template", "values")

    def __init__(self, template: str, values):
        self.template = template
        self.values = values

    def map(self, fn: Callable) -> PercentText:
        return PercentText(self.template, _map_leaves(self.values, fn))

    def render(self) -> str:
        return self.template % self.values

    def __str__(self) -> str:
        return self.render()


_DEFERRED = (FString, PercentText)


class RunTimeText(PyObject):
    """The run-time string of an f-string of graph values; a ``raise`` given it formats
    the f-string (``deferred``) itself, from the values it has where it raises."""

    __slots__ = ("deferred",)

    def __init__(self, obj: PyObject, deferred: FString):
        super().__init__(obj.node, obj.origin)
        self.deferred = deferred


def _format_value(value, conversion: int, spec: str) -> str:
    if conversion == ord("r"):
        value = repr(value)
    elif conversion == ord("s"):
        value = str(value)
    elif conversion == ord("a"):
        value = ascii(value)
    return format(value, spec)


def _is_symbolic(x) -> bool:
    return (isinstance(x, Tensor) and x._node is not None) or type(x) is SymbolicScalar


def _slot(inputs: list, v):
    """A :class:`Slot` for the run-time value ``v``, appended to ``inputs``; ``v`` itself
    when it is known now."""
    if not _is_symbolic(v):
        return v
    inputs.append(v)
    return Slot(len(inputs) - 1, v.dtype if isinstance(v, Tensor) else None)


def _map_leaves(x, fn: Callable):
    """``x`` with ``fn`` applied to every leaf of its tuples, lists, dicts and texts."""
    if isinstance(x, tuple):
        return tuple(_map_leaves(e, fn) for e in x)
    if isinstance(x, list):
        return [_map_leaves(e, fn) for e in x]
    if isinstance(x, dict):
        return {k: _map_leaves(v, fn) for k, v in x.items()}
    if isinstance(x, _DEFERRED):
        return x.map(lambda v: _map_leaves(v, fn))
    if isinstance(x, RunTimeText):
        return _map_leaves(x.deferred, fn)
    return fn(x)


def _uses_graph_values(x) -> bool:
    found = []
    _map_leaves(x, lambda v: found.append(v) if _is_symbolic(v) else v)
    return bool(found)


def _rendered(x):
    """``x`` with every deferred text formatted (from the values it holds now)."""
    if isinstance(x, _DEFERRED):
        return x.map(_rendered).render()
    if isinstance(x, RunTimeText):
        return _rendered(x.deferred)
    if isinstance(x, tuple):
        return tuple(_rendered(e) for e in x)
    if isinstance(x, list):
        return [_rendered(e) for e in x]
    if isinstance(x, dict):
        return {k: _rendered(v) for k, v in x.items()}
    return x


# ------------------------------------------------------------ helpers converted code calls

def fstring(*parts):
    """``f"..."``: a string now, or an :class:`FString` when it formats graph values."""
    if any(not isinstance(p, str) and _uses_graph_values(p[0]) for p in parts):
        return FString(parts)
    return "".join(p if isinstance(p, str) else _format_value(*p) for p in parts)


def fstring_text(*parts):
    """``f"..."`` outside a ``raise``: a string now, or, when it formats graph values, a
    run-time string (formatted when the graph runs, from their values)."""
    text = fstring(*parts)
    if not isinstance(text, FString):
        return text
    inputs: list = []
    template = _map_leaves(text, lambda v: _slot(inputs, v))

    def render(*values):
        return _rendered(_map_leaves(template, lambda v: values[v.index]
                                     if isinstance(v, Slot) else v))

    return RunTimeText(run_time(render, *inputs), text)


def percent(template, values):
    """``template % values``: formatted now unless it formats graph values."""
    if isinstance(template, str) and _uses_graph_values(values):
        return PercentText(template, values)
    return template % values


class RaiseSpec:
    """How a ``Raise`` node rebuilds its exception: the exception type and its arguments,
    with :class:`Slot` where a run-time value goes."""

    __slots__ = ("exc_type", "args")

    def __init__(self, exc_type: type, args: tuple):
        self.exc_type = exc_type
        self.args = args

    def build(self, values) -> BaseException:
        def fill(v):
            if not isinstance(v, Slot):
                return v
            value = values[v.index]
            return value if v.dtype is None else Tensor._from_array(value, v.dtype)
        return self.exc_type(*_rendered(_map_leaves(self.args, fill)))

    def __repr__(self) -> str:
        return f"{self.exc_type.__name__}/{len(self.args)}"


def _compile_time_args(args: tuple) -> tuple:
    """An exception's arguments as MindSpore gives them when the raise happens while
    compiling: one message, the ``repr`` of the one argument or of the tuple of them."""
    if not args:
        return ()
    return (repr(args[0]) if len(args) == 1 else repr(tuple(args)),)


def raise_(exc, args: tuple = ()):
    """``raise exc(*args)`` (``exc`` may also be an exception instance)."""
    if isinstance(exc, BaseException):
        exc_type, args = type(exc), exc.args
    else:
        exc_type = exc
    builder = state.current()
    if builder is None or not builder.is_branch:
        if bytecode_capture():  # PyNative's exception, as the Python run would raise it
            raise exc_type(*args)
        raise exc_type(*_compile_time_args(_rendered(args)))
    if inside_python_try():
        refuse("a raise under a graph condition inside 'try' happens only when the graph "
               "runs, where 'try' cannot catch it")
    inputs: list = []
    spec = RaiseSpec(exc_type, _map_leaves(args, lambda v: _slot(inputs, v)))
    Raise(*inputs, spec=spec)
    raise BranchRaised()
