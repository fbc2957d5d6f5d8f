"""Regular expressions for the text ops. MindSpore uses ICU's syntax (``\\p{P}``, ``\\p{Han}``);
the ``regex`` package (optional, loaded on first use) reads it, Python's ``re`` is the
fallback for patterns without Unicode properties."""
from __future__ import annotations

import re
from functools import lru_cache


def engine():
    """``regex`` when installed, else ``re``."""
    try:
        import regex as module  # noqa: PLC0415 - optional dependency, loaded on first use
    except ImportError:
        return re
    return module


@lru_cache(maxsize=256)
def compile_pattern(pattern: str):
    """``pattern`` compiled (cached); a property class without ``regex`` installed is an
    error that names the package. Bad patterns fail when the op runs, as in MindSpore."""
    mod = engine()
    if mod is re and re.search(r"\\[pP]\{", pattern):
        raise RuntimeError(f"pattern {pattern!r} uses Unicode properties (\\p{{...}}): install "
                           "the 'regex' package (pip install regex) to use it.")
    try:
        return mod.compile(pattern)
    except mod.error as exc:
        raise RuntimeError(f"invalid regular expression {pattern!r}: {exc}") from None


def replacement(replace: str) -> str:
    """ICU's replacement text (``$1`` names a group) in Python's syntax."""
    return re.sub(r"\$(\d+)", r"\\g<\1>", replace.replace("\\", "\\\\"))
