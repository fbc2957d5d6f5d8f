"""``mindspore.device_context.ascend``: not supported by graphkiln (a CPU runtime)."""
from ._absent import unavailable

is_available, device_count = unavailable("Ascend", "Device Ascend not exist.")
