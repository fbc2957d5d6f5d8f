"""``mindspore.hal``'s device queries on graphkiln, whose one device is the host CPU:
``"CPU"`` is available and initialized (the host needs no set-up), one device named
``"CPU"`` with no capability, properties or architecture list (None, as MindSpore CPU);
``"GPU"`` and ``"Ascend"`` are valid targets that this package does not support."""
from __future__ import annotations

from ..context import get_context

VALID_TARGETS = ("CPU", "GPU", "Ascend")


def _target(device_target) -> str:
    """The checked target (None: the context's)."""
    if device_target is None:
        device_target = get_context("device_target")
    if not isinstance(device_target, str):
        raise TypeError(f"The argument 'device_target' must be str, but got {device_target}, "
                        f"type is {type(device_target)}.")
    if device_target not in VALID_TARGETS:
        raise ValueError(f"The argument 'device_target' must be one of {list(VALID_TARGETS)}, "
                         f"but got {device_target}.")
    if device_target != "CPU":
        raise ValueError(f"{device_target} backend is not available for this MindSpore "
                         f"package.You can call hal.is_available to check the reason.")
    return device_target


def _check_device_id(device_id, device_target) -> None:
    _target(device_target)
    if not isinstance(device_id, int) or isinstance(device_id, bool):
        raise TypeError(f"The argument 'device_id' must be int, but got {device_id}, type is "
                        f"{type(device_id)}.")
    if device_id < 0:
        raise ValueError(f"The argument 'device_id' should not be negative, but got "
                         f"{device_id}.")
    if device_id >= 1:
        raise ValueError(f"The argument 'device_id' must be less than device count: 1, but "
                         f"got {device_id}.")


def _valid(device_target, fn: str) -> str:
    if device_target not in VALID_TARGETS:
        raise ValueError(f"For 'hal.{fn}', the argument 'device_target' must be one of "
                         f"{list(VALID_TARGETS)}, but got {device_target}.")
    return device_target


def is_initialized(device_target: str) -> bool:
    """Whether ``device_target`` is initialized: the host CPU always is."""
    return _valid(device_target, "is_initialized") == "CPU"


def is_available(device_target: str) -> bool:
    """Whether this package supports ``device_target``: only the CPU."""
    return _valid(device_target, "is_available") == "CPU"


def device_count(device_target: str | None = None) -> int:
    """The number of devices of ``device_target``: one CPU."""
    _target(device_target)
    return 1


def get_device_capability(device_id: int, device_target: str | None = None):
    """None: a CPU has no compute capability (as MindSpore CPU)."""
    _check_device_id(device_id, device_target)


def get_device_properties(device_id: int, device_target: str | None = None):
    """None: a CPU has no device properties (as MindSpore CPU)."""
    _check_device_id(device_id, device_target)


def get_device_name(device_id: int, device_target: str | None = None) -> str:
    """``"CPU"``."""
    _check_device_id(device_id, device_target)
    return "CPU"


def get_arch_list(device_target: str | None = None):
    """None: no architecture list for a CPU (as MindSpore CPU)."""
    _target(device_target)
