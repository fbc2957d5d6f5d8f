"""``mindspore.device_context``: per-device queries. graphkiln's one device is the host CPU;
``gpu`` and ``ascend`` report themselves unavailable."""
from . import ascend, cpu, gpu  # noqa: F401
