"""``mindspore.ops.operations.manually_defined``: the primitive classes (the same ones as
``ops.operations``) and ``rank`` and ``shape_``, functions MindSpore defines in this
module."""
from __future__ import annotations

import graphkiln.ops.operations as _operations

from ..functional import rank  # noqa: F401  (an int, as MindSpore's)
from ..functional import shape as shape_  # noqa: F401  (a tuple of ints)


def __getattr__(name: str):
    if name.startswith("__"):
        raise AttributeError(name)
    return _operations.lookup(name)


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_operations.__dir__()))
