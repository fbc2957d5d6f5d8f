"""``mindspore.parallel``: the auto-parallel context (graphkiln runs data parallel)."""
from .algo_parameters import (  # noqa: F401
    get_algo_parameters,
    reset_algo_parameters,
    set_algo_parameters,
)
from .context import (  # noqa: F401
    ParallelMode,
    get_auto_parallel_context,
    reset_auto_parallel_context,
    set_auto_parallel_context,
)
from .shard import Layout  # noqa: F401

__all__ = ["ParallelMode", "set_auto_parallel_context", "get_auto_parallel_context",
           "reset_auto_parallel_context", "set_algo_parameters", "get_algo_parameters",
           "reset_algo_parameters", "Layout"]
