"""The process-wide seed (``ms.set_seed``/``get_seed``) and the generator of graphkiln's own
random streams (the dropout seed stream). As MindSpore's, ``set_seed`` also seeds NumPy's
global generator, which weight initializers draw their seeds from (``initializer``).
"""
from __future__ import annotations

from collections.abc import Callable

import numpy as np

_DEFAULT_SEED = 0
_rng = np.random.default_rng(_DEFAULT_SEED)
_seed: int | None = None
_listeners: list[Callable[[int], None]] = []


def set_seed(seed: int) -> None:
    """Seed NumPy's global generator (the initializers' seeds), graphkiln's generator and
    every listener (``ms.set_seed``)."""
    global _rng, _seed
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise TypeError(f"For 'set_seed', the argument 'seed' must be int, but got "
                        f"{type(seed).__name__}.")
    if seed < 0:
        raise ValueError(f"For 'set_seed', the argument 'seed' must be non-negative, but got "
                         f"{seed}.")
    for listener in _listeners:  # the dataset seed, as MindSpore's set_seed sets it too
        listener(seed)
    _seed = seed
    _rng = np.random.default_rng(seed)
    np.random.seed(seed)


def add_listener(fn: Callable[[int], None]) -> None:
    """Call ``fn(seed)`` on every :func:`set_seed` (layers above ``common`` that follow
    the global seed, such as the dataset seed)."""
    _listeners.append(fn)


def get_seed() -> int | None:
    """The seed last given to :func:`set_seed` (``None`` if it was never called)."""
    return _seed


def rng() -> np.random.Generator:
    """graphkiln's generator (re-created by :func:`set_seed`)."""
    return _rng
