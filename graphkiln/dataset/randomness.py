"""Seeded randomness for pipelines: every random choice is keyed on (seed, node, epoch, row),
so the same seed gives the same data whatever the worker count or thread timing."""
from __future__ import annotations

import secrets
import threading

import numpy as np

from .config import get_seed, seed_was_set

_local = threading.local()
_eager: dict = {"seed": None, "gen": None}


def root_seed() -> int:
    """The user's seed if set, else fresh entropy (a new order every run, as MindSpore)."""
    return get_seed() if seed_was_set() else secrets.randbits(32)


def keyed(*key: int) -> np.random.Generator:
    """A generator determined by ``key`` alone."""
    return np.random.Generator(np.random.PCG64(list(key)))


def set_current(gen: np.random.Generator | None) -> None:
    """Make ``gen`` the generator random transforms use in this thread (None: eager mode)."""
    _local.gen = gen


def current() -> np.random.Generator:
    """The generator for the row being transformed; outside a pipeline, one seeded from
    ``config.get_seed()`` (re-seeded when the seed changes)."""
    gen = getattr(_local, "gen", None)
    if gen is not None:
        return gen
    seed = get_seed()
    if _eager["seed"] != seed or _eager["gen"] is None:
        _eager["seed"] = seed
        _eager["gen"] = keyed(seed) if seed_was_set() else np.random.default_rng()
    return _eager["gen"]
