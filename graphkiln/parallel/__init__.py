"""``mindspore.parallel``: the auto-parallel context (graphkiln runs data parallel)."""
from .context import (  # noqa: F401
    ParallelMode,
    get_auto_parallel_context,
    reset_auto_parallel_context,
    set_auto_parallel_context,
)

__all__ = ["ParallelMode", "set_auto_parallel_context", "get_auto_parallel_context",
           "reset_auto_parallel_context"]
