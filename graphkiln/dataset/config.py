"""Global pipeline settings (``mindspore.dataset.config``): seed, worker count, prefetch size.

Values apply to pipelines whose iterator is created after the call.
"""
from __future__ import annotations

import os
import random

import numpy as np

from ..common import seed as global_seed

_DEFAULT_SEED = 5489

_state = {
    "seed": _DEFAULT_SEED,
    "seed_set": False,
    "num_parallel_workers": max(1, min(8, os.cpu_count() or 1)),
    "prefetch_size": 16,
    "enable_shared_mem": True,
    "numa_enable": False,
    "fast_recovery": True,
    "iterator_mode": {"do_copy": False, "parallel_convert": False},
}


def _check_int(name: str, value, low: int, high: int) -> None:
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"Argument {name} with value {value!r} is not of type [<class 'int'>], "
                        f"but got {type(value)}.")
    if not low <= value <= high:
        raise ValueError(f"Input {name} is not within the required interval of [{low}, {high}].")


def _check_bool(name: str, value) -> None:
    if not isinstance(value, bool):
        raise TypeError(f"Argument {name} with value {value!s} is not of type "
                        f"[<class 'bool'>], but got {type(value)}.")


def set_seed(seed: int) -> None:
    """Seed every shuffle, sampler and random transform (MindSpore's streams, see
    ``randomness``), and, as MindSpore does, Python's ``random`` and ``numpy.random``."""
    _check_int("seed", seed, 0, 2**32 - 1)
    _state["seed"] = seed
    _state["seed_set"] = True
    random.seed(seed)
    np.random.seed(seed)


global_seed.add_listener(set_seed)  # ms.set_seed(s) sets the dataset seed too, as MindSpore's
if global_seed.get_seed() is not None:  # ms.set_seed ran before the dataset was imported
    _state.update(seed=global_seed.get_seed(), seed_set=True)


def get_seed() -> int:
    """The seed set by :func:`set_seed` (5489 by default)."""
    return _state["seed"]


def seed_was_set() -> bool:
    """Whether the user fixed the seed (otherwise each run draws fresh entropy)."""
    return _state["seed_set"]


def set_num_parallel_workers(num: int) -> None:
    """Default number of workers of ``map``, ``batch`` and sources."""
    _check_int("num_parallel_workers", num, 1, max(1, os.cpu_count() or 1) * 64)
    _state["num_parallel_workers"] = num


def get_num_parallel_workers() -> int:
    return _state["num_parallel_workers"]


def set_prefetch_size(size: int) -> None:
    """Rows (or batches) each stage may run ahead of its consumer."""
    _check_int("size", size, 1, 2**31 - 1)
    _state["prefetch_size"] = size


def get_prefetch_size() -> int:
    return _state["prefetch_size"]


def set_enable_shared_mem(enable: bool) -> None:
    """Recorded for MindSpore scripts; graphkiln's worker processes pass rows through pipes
    and never use shared memory, so there is nothing to switch."""
    if not isinstance(enable, bool):
        raise TypeError(f"Argument enable with value {enable!r} is not of type "
                        f"[<class 'bool'>].")
    _state["enable_shared_mem"] = enable


def get_enable_shared_mem() -> bool:
    return _state["enable_shared_mem"]


def set_numa_enable(numa_enable: bool) -> None:
    """Recorded for MindSpore scripts; graphkiln does not bind workers to NUMA nodes."""
    if not isinstance(numa_enable, bool):
        raise TypeError(f"Argument numa_enable with value {numa_enable!r} is not of type "
                        f"[<class 'bool'>].")
    _state["numa_enable"] = numa_enable


def get_numa_enable() -> bool:
    return _state["numa_enable"]


def set_fast_recovery(fast_recovery: bool) -> None:
    """How a pipeline resumed at a step (``Dataset.set_init_step``) treats random ``map``
    operations: True (the default) restarts their random streams at the resumed row, as
    MindSpore's fast recovery does; False continues them as an uninterrupted run would."""
    if not isinstance(fast_recovery, bool):
        raise TypeError("fast_recovery must be a boolean dtype.")
    _state["fast_recovery"] = fast_recovery


def get_fast_recovery() -> bool:
    return _state["fast_recovery"]


def set_iterator_mode(do_copy: bool = False, parallel_convert: bool = False) -> None:
    """Recorded for MindSpore scripts: ``Model`` copies each batch into its Tensors whatever
    ``do_copy`` says, and rows always become Tensors on the prefetch thread, which is what
    ``parallel_convert`` asks MindSpore for."""
    _check_bool("do_copy", do_copy)
    _check_bool("parallel_convert", parallel_convert)
    _state["iterator_mode"] = {"do_copy": do_copy, "parallel_convert": parallel_convert}


def get_iterator_mode() -> dict:
    return dict(_state["iterator_mode"])
