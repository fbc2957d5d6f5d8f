"""``mindspore.runtime``: memory-pool and executor settings (see memory.py, executor.py)."""
from .executor import (
                       dispatch_threads_num,
                       executor_settings,
                       launch_blocking,
                       set_cpu_affinity,
                       synchronize,
)
from .memory import (
                       empty_cache,
                       max_memory_allocated,
                       max_memory_reserved,
                       memory_allocated,
                       memory_configuration,
                       memory_reserved,
                       memory_stats,
                       memory_summary,
                       reset_max_memory_allocated,
                       reset_max_memory_reserved,
                       reset_peak_memory_stats,
                       set_memory,
)

__all__ = ["dispatch_threads_num", "executor_settings", "launch_blocking", "set_cpu_affinity",
           "synchronize", "empty_cache", "max_memory_allocated", "max_memory_reserved",
           "memory_allocated", "memory_configuration", "memory_reserved", "memory_stats",
           "memory_summary", "reset_max_memory_allocated", "reset_max_memory_reserved",
           "reset_peak_memory_stats", "set_memory"]
