"""``mindspore.device_context.gpu``: not supported by graphkiln (a CPU runtime)."""
from ._absent import unavailable

is_available, device_count = unavailable("GPU", "Device_target GPU not exist.")
