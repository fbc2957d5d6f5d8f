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
_op_seeds: dict[tuple[str, int], int] = {}
_DEFAULT_GRAPH_SEED = 87654321
_SEED_STEP = 3528531795 ^ 3449720151  # MindSpore's keyConstant[0] ^ keyConstant[2]
_MAX_INT32 = 2**31 - 1


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
    _op_seeds.clear()
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


def check_seed(name: str, arg: str, v) -> int:
    """A seed: an int >= 0 (MindSpore's TypeError/ValueError otherwise)."""
    if isinstance(v, bool) or not isinstance(v, (int, np.integer)):
        raise TypeError(f"For '{name}', the '{arg}' must be int, but got "
                        f"'{type(v).__name__}'")
    if v < 0:
        raise ValueError(f"For '{name}', the '{arg}' must be int and must >= 0, but got "
                         f"'{v}' with type 'int'.")
    return int(v)


def graph_seed(op_seed: int | None, kernel_name: str) -> tuple[int, int]:
    """The ``(seed, seed2)`` a random function passes its primitive (MindSpore's
    ``_get_graph_seed``): ``(0, 0)`` when neither the global seed nor ``op_seed`` is set,
    else the global seed (``87654321`` for 0) and a per-``(kernel_name, op_seed)`` counter
    that starts at ``op_seed``, each modulo ``2**31 - 1``; every call advances the counter,
    and :func:`set_seed` restarts them all."""
    if op_seed is not None:
        check_seed(kernel_name, "seed", op_seed)
    global_seed = _DEFAULT_GRAPH_SEED if _seed == 0 else (_seed or 0)
    op_seed = int(op_seed or 0)
    if global_seed == 0 and op_seed == 0:
        return 0, 0
    key = (kernel_name, op_seed)
    current = _op_seeds.get(key, op_seed)
    _op_seeds[key] = current + _SEED_STEP
    return global_seed % _MAX_INT32, current % _MAX_INT32


_get_graph_seed = graph_seed  # MindSpore's private name, which model code imports
