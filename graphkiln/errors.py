"""Error helpers: user errors point at the user's line, in MindSpore's error types."""
from __future__ import annotations

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
