"""The queries of a device this package does not support (GPU, Ascend)."""
from __future__ import annotations

from ..log import warning


def unavailable(name: str, missing: str):
    """``(is_available, device_count)`` of device ``name``; ``device_count`` raises a
    RuntimeError saying ``missing``."""
    def is_available() -> bool:
        warning(f"Device {name} is not available.")
        return False

    def device_count() -> int:
        raise RuntimeError(missing)
    return is_available, device_count
