"""``mindspore.hal``: the device abstraction layer. graphkiln runs on the host, so what is
built here is ``contiguous_tensors_handle`` (one buffer for a list of Tensors), the device
queries (``device.py``) and the memory statistics, which are ``mindspore.runtime``'s (the
same functions)."""
from ..runtime.executor import synchronize  # noqa: F401
from ..runtime.memory import (  # noqa: F401
    empty_cache,
    max_memory_allocated,
    max_memory_reserved,
    memory_allocated,
    memory_reserved,
    memory_stats,
    memory_summary,
    reset_max_memory_allocated,
    reset_max_memory_reserved,
    reset_peak_memory_stats,
)
from . import contiguous_tensors_handle  # noqa: F401
from .device import (  # noqa: F401
    device_count,
    get_arch_list,
    get_device_capability,
    get_device_name,
    get_device_properties,
    is_available,
    is_initialized,
)
