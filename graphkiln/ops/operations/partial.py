"""``P.Partial()``: the primitive form of ``functools.partial``."""
from __future__ import annotations

import functools


class Partial:
    """``P.Partial()(fn, *args)`` binds the first arguments of ``fn`` (as ``F.partial``)."""

    def __call__(self, fn, *args, **kwargs):
        if not callable(fn):
            raise TypeError(f"For 'Partial', the first input must be a function, but got "
                            f"{type(fn).__name__}.")
        return functools.partial(fn, *args, **kwargs)
