"""``mindspore.ops._primitive_cache``: one primitive instance per class and arguments."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

_PRIM_CACHE: dict[str, Any] = {}


def _get_cache_prim(cls: type) -> Callable[..., Any]:
    """A constructor of ``cls`` that builds each distinct argument list once and then
    returns that instance (keyed, as MindSpore keys it, by the arguments' ``str``)."""

    def _get(*args: Any, **kwargs: Any) -> Any:
        key = str((str(cls), *(str(a) for a in args),
                   *(f"{k}:{v}" for k, v in kwargs.items())))
        prim = _PRIM_CACHE.get(key)
        if prim is None:
            prim = _PRIM_CACHE[key] = cls(*args, **kwargs)
        return prim

    return _get
