"""``mindspore.hal``: the device abstraction layer. graphkiln runs on the host, so only
what has a meaning there is built: ``contiguous_tensors_handle`` (one buffer for a list of
Tensors)."""
from . import contiguous_tensors_handle  # noqa: F401
