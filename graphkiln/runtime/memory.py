"""``mindspore.runtime`` memory settings and statistics.

MindSpore manages device memory with a pool whose sizes ``set_memory`` configures. On CPU
graphkiln's arrays are NumPy's, allocated by the C heap (see ``common/heap.py``), so there
is no device pool: the settings are checked and kept, as MindSpore checks them, and the
pool statistics are zero, which is what MindSpore 2.10 reports on CPU too.
"""
from __future__ import annotations

import re

_PATTERN = r"[1-9][0-9]*(\.)?[0-9]*GB|0\.[0-9]*GB"  # what MindSpore accepts
_RESERVE_PATTERN = r"[0-9]+(\.)?[0-9]*GB"
_LEVELS = ("O0", "O1")
_configured: dict = {}


def _size(value, pattern: str = _RESERVE_PATTERN) -> float:
    if not isinstance(value, str) or re.fullmatch(pattern, value, re.ASCII) is None:
        raise ValueError(f"The '{value}' is illegal, it must be match regular'{pattern}' by "
                         f"flags're.ASCII.': a size in GB such as \"5GB\" or \"3.5GB\".")
    return float(value[:-2])


def _pool_size(value) -> float:
    size = _size(value, _PATTERN)
    if size == 0:
        raise ValueError("The memory value should not be \"0GB\".")
    return size


def set_memory(init_size: str = "2GB", increase_size: str = "2GB", max_size: str = "1024GB",
               optimize_level: str = "O0", huge_page_reserve_size: str = "0GB") -> None:
    """Configure the device memory pool (once per process, as in MindSpore)."""
    if _configured:
        raise RuntimeError("The 'set_memory' can not be set repeatedly.")
    sizes = {"init_size": _pool_size(init_size), "increase_size": _pool_size(increase_size),
             "max_size": _pool_size(max_size),
             "huge_page_reserve_size": _size(huge_page_reserve_size)}
    if optimize_level not in _LEVELS:
        raise ValueError(f"The optimize_level must be one of {list(_LEVELS)}, but got "
                         f"{optimize_level}.")
    _configured.update(sizes, optimize_level=optimize_level)


def memory_configuration() -> dict:
    """What ``set_memory`` was given (GB values), empty when it was not called."""
    return dict(_configured)


def memory_stats() -> dict:
    """The device memory pool's statistics (all zero: there is no device pool on CPU)."""
    return {"total_reserved_memory": 0, "total_allocated_memory": 0, "total_idle_memory": 0,
            "total_eager_free_memory": 0, "max_reserved_memory": 0,
            "max_allocated_memory": 0,
            "common_mem_pool_stats": {"block_unit_size": 0, "block_counts": 0,
                                      "blocks_info": {}},
            "persistent_mem_pool_stats": {"block_counts": 0, "block_unit_size": 0,
                                          "blocks_info": {}}}


def memory_reserved() -> int:
    return memory_stats()["total_reserved_memory"]


def max_memory_reserved() -> int:
    return memory_stats()["max_reserved_memory"]


def memory_allocated() -> int:
    return memory_stats()["total_allocated_memory"]


def max_memory_allocated() -> int:
    return memory_stats()["max_allocated_memory"]


def empty_cache() -> None:
    """Release the pool's cached blocks (nothing is cached on CPU)."""


def reset_peak_memory_stats() -> None:
    """Reset the peak statistics (always zero on CPU)."""


reset_max_memory_reserved = reset_peak_memory_stats
reset_max_memory_allocated = reset_peak_memory_stats


def memory_summary() -> str:
    """A readable table of :func:`memory_stats`."""
    stats = memory_stats()
    rows = [f"{k:<28}{v}" for k, v in stats.items() if not isinstance(v, dict)]
    return "\n".join(["device memory (CPU: NumPy arrays on the C heap, no device pool)"] + rows)


__all__ = ["set_memory", "memory_stats", "memory_reserved", "max_memory_reserved",
           "memory_allocated", "max_memory_allocated", "empty_cache", "reset_peak_memory_stats",
           "reset_max_memory_reserved", "reset_max_memory_allocated", "memory_summary",
           "memory_configuration"]
