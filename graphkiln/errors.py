"""Error helpers: user errors point at the user's line, in MindSpore's error types."""
from __future__ import annotations

import functools
import inspect
import linecache
import os
import sys

PACKAGE_DIR = os.path.dirname(os.path.abspath(__file__))


class SourceLoc:
    """A place in user code: file, line and (lazily) the line's text."""

    __slots__ = ("filename", "lineno")

    def __init__(self, filename: str, lineno: int):
        self.filename = filename
        self.lineno = lineno

    @property
    def text(self) -> str:
        return linecache.getline(self.filename, self.lineno).strip()

    def __repr__(self) -> str:
        return f"{self.filename}:{self.lineno}"

    def describe(self) -> str:
        return f'In file {self.filename}:{self.lineno}\n    {self.text}'


_USER_DIRS = (os.path.join(PACKAGE_DIR, "examples"),)


def is_internal(filename: str) -> bool:
    """True for graphkiln's own code (its bundled examples count as user code)."""
    if filename.startswith("<graphkiln"):
        return True
    return filename.startswith(PACKAGE_DIR) and not filename.startswith(_USER_DIRS)


_INTERNAL_CODE: dict = {}  # code object -> is it graphkiln's own?


def user_location(depth: int = 1) -> SourceLoc | None:
    """The innermost stack frame outside graphkiln (the user's line), or None."""
    f = sys._getframe(depth)
    known = _INTERNAL_CODE
    while f is not None:
        code = f.f_code
        internal = known.get(code)
        if internal is None:
            internal = known[code] = is_internal(code.co_filename)
        if not internal:
            return SourceLoc(code.co_filename, f.f_lineno)
        f = f.f_back
    return None


def with_location(exc: BaseException, loc: SourceLoc | None) -> BaseException:
    """Append MindSpore's 'code traceback' section naming the user's line to ``exc``."""
    if loc is None or getattr(exc, "_gk_located", False):
        return exc
    msg = str(exc.args[0]) if exc.args else ""
    msg += ("\n\n----------------------------------------------------\n"
            "- The Traceback of Net Construct Code:\n"
            "----------------------------------------------------\n"
            f"# 0 {loc.describe()}")
    exc.args = (msg,) + tuple(exc.args[1:])
    exc._gk_located = True
    return exc


class DynamicRankError(ValueError):
    """An output's rank would depend on a size known only at run time (graphkiln has no
    dynamic rank). A call compiled for a ``set_inputs``/``input_signature`` placeholder
    catches it and compiles again with the lengths of its integer vectors known."""


class GraphkilnInternalError(RuntimeError):
    """A bug in graphkiln itself (never the user's fault)."""


def user_frames_only(tb):
    """``tb`` without graphkiln's own frames (as JAX hides its internals), or ``tb``
    itself if that would leave nothing."""
    import types
    frames = []
    while tb is not None:
        if not is_internal(tb.tb_frame.f_code.co_filename):
            frames.append(tb)
        tb = tb.tb_next
    if not frames:
        return None
    new = None
    for t in reversed(frames):
        new = types.TracebackType(new, t.tb_frame, t.tb_lasti, t.tb_lineno)
    return new


def innermost_user_location(tb) -> SourceLoc | None:
    loc = None
    while tb is not None:
        fn = tb.tb_frame.f_code.co_filename
        if not is_internal(fn):
            loc = SourceLoc(fn, tb.tb_lineno)
        tb = tb.tb_next
    return loc


def _raised_in_graphkiln(tb) -> bool:
    """True when the innermost frame of ``tb`` is graphkiln's own code."""
    last = None
    while tb is not None:
        last, tb = tb, tb.tb_next
    return last is not None and is_internal(last.tb_frame.f_code.co_filename)


_NOT_FOUND = object()


def _quoted_value(message: str, values: tuple):
    """The first of ``values`` (or of their elements) whose type the message quotes."""
    for v in values:
        for e in ([v, *v] if isinstance(v, (tuple, list)) else [v]):
            if f"'{type(e).__name__}'" in message and not hasattr(type(e), "asnumpy"):
                return e
    return _NOT_FOUND


def _held_type(original, value, obj) -> str:
    """The type name of the element of ``original`` at the place ``obj`` has in ``value``."""
    if value is obj:
        return type(original).__name__
    for o, v in zip(original, value):
        if _holds(v, obj):
            return _held_type(o, v, obj)
    return type(obj).__name__


def _holds(value, obj) -> bool:
    return value is obj or isinstance(value, (tuple, list)) and any(_holds(v, obj) for v in value)


def blame_argument(where: str, fn, args: tuple, kwargs: dict, exc: Exception,
                   shown: tuple | None = None) -> TypeError | None:
    """A TypeError naming the argument of ``fn(*args, **kwargs)`` that ``exc`` is about.

    ``exc`` is an AttributeError raised inside graphkiln because an argument (None, a str,
    a plain object, a list holding one) lacks a Tensor attribute, or a TypeError Python
    raised there about the argument's type (``'NoneType' object is not iterable``). The
    error names the op or function ``where``, the argument and the type it got, instead of
    ``'NoneType' object has no attribute 'ndim'``. None when the error is not about an
    argument (then it is a bug to show as it is). ``shown``: the user's values when
    ``args`` are their stand-ins (the abstract values an ``infer`` reads).
    """
    if not _raised_in_graphkiln(exc.__traceback__) or str(exc).startswith("For '"):
        return None  # the user's own code, or one of graphkiln's checks
    if isinstance(exc, AttributeError):
        obj = getattr(exc, "obj", _NOT_FOUND)
    else:  # a TypeError: the argument whose type the message quotes
        obj = _quoted_value(str(exc), args + tuple(kwargs.values()))
    if obj is _NOT_FOUND or hasattr(type(obj), "asnumpy"):
        return None
    try:
        bound = inspect.signature(fn).bind_partial(*args, **kwargs).arguments
    except (TypeError, ValueError):
        bound = {f"arg{i}": a for i, a in enumerate(args)} | kwargs
    user = dict(zip(bound, shown)) if shown is not None else bound
    for name, value in bound.items():
        if name != "self" and _holds(value, obj):
            original = user.get(name, value)
            got = type(original).__name__
            if value is not obj:
                got += f" holding {_held_type(original, value, obj)}"
            if isinstance(exc, AttributeError):
                return TypeError(f"For '{where}', the input '{name}' must be a Tensor, but "
                                 f"got {got}.")
            return TypeError(f"For '{where}', the input '{name}' has an unsupported type: "
                             f"got {got} ({exc}).")
    return None


def names_bad_arguments(fn):
    """``fn`` with :func:`blame_argument` applied to the AttributeErrors and Python's
    TypeErrors it raises."""
    @functools.wraps(fn)
    def checked(*args, **kwargs):
        try:
            return fn(*args, **kwargs)
        except (AttributeError, TypeError) as e:
            blamed = blame_argument(fn.__name__, fn, args, kwargs, e)
            if blamed is None:
                raise
            raise blamed from None
    return checked


def _physical_memory() -> int:
    try:
        return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (ValueError, OSError, AttributeError):  # not POSIX: no check
        return 1 << 62


PHYSICAL_MEMORY = _physical_memory()


def check_allocation(op: str, abstract) -> None:
    """A ValueError, before anything is allocated, when the output ``abstract`` of ``op``
    (a tensor, or a tuple of them) needs more bytes than the machine's whole memory."""
    shape = getattr(abstract, "shape", None)
    if shape is None:
        for element in getattr(abstract, "elements", ()):
            check_allocation(op, element)
        return
    count = 1
    for d in shape:
        count *= int(d)
    needed = count * abstract.dtype.np_dtype.itemsize
    if needed > PHYSICAL_MEMORY:
        raise ValueError(f"For '{op}', the output of shape {list(shape)} and type "
                         f"{abstract.dtype} needs {needed / 2**30:.1f} GiB, more than this "
                         f"machine's memory ({PHYSICAL_MEMORY / 2**30:.1f} GiB).")
