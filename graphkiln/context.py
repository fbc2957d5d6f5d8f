"""Global context: ``set_context``/``get_context`` and the environment variables.

Precedence (as the spec states): a value set with ``set_context`` wins over the
environment variable, which wins over the default.
"""
from __future__ import annotations

import os
import warnings

from .parallel.context import (  # noqa: F401  (mindspore.context exports them too)
    ParallelMode,
    get_auto_parallel_context,
    reset_auto_parallel_context,
    set_auto_parallel_context,
)

GRAPH_MODE = 0
PYNATIVE_MODE = 1

_DEFAULTS = {
    "mode": PYNATIVE_MODE,
    "device_target": "CPU",
    "device_id": 0,
    "save_graphs": False,
    "save_graphs_path": ".",
    "enable_compile_cache": False,
    "compile_cache_path": "",
}
_ENV = {
    "save_graphs": "MS_DEV_SAVE_GRAPHS",
    "enable_compile_cache": "MS_COMPILER_CACHE_ENABLE",
    "compile_cache_path": "MS_COMPILER_CACHE_PATH",
    "save_graphs_path": "MS_DEV_SAVE_GRAPHS_PATH",
}
_DEVICES = ("CPU", "GPU", "Ascend")
# accepted for compatibility; they change nothing in graphkiln
_ACCEPTED_UNUSED = ("jit_config", "max_call_depth", "pynative_synchronize",
                    "jit_syntax_level")
_user: dict = {}
_warned_device = set()


def _env_value(key: str):
    name = _ENV.get(key)
    raw = os.environ.get(name) if name else None
    if raw is None or raw == "":
        return None
    if isinstance(_DEFAULTS[key], bool):
        return raw.strip() not in ("0", "false", "False")
    return raw


def set_context(**kwargs) -> None:
    """Set context options (``mode``, ``device_target``, ``save_graphs``...)."""
    for key, value in kwargs.items():
        if key not in _DEFAULTS and key not in _ACCEPTED_UNUSED:
            raise ValueError(f"For 'context.set_context', the keyword argument {key} is not "
                             f"recognized! For detailed usage of 'set_context', please refer "
                             f"to the MindSpore official website.")
        if key == "mode" and value not in (GRAPH_MODE, PYNATIVE_MODE):
            raise ValueError(f"For 'context.set_context', the argument 'mode' should be "
                             f"context.GRAPH_MODE (0) or context.PYNATIVE_MODE (1), but got "
                             f"{value}.")
        if key == "device_target":
            _check_device(value)
        if key == "save_graphs":
            value = bool(value) if not isinstance(value, int) else value
        _user[key] = value


def _check_device(value: str) -> None:
    if value not in _DEVICES:
        raise ValueError(f"For 'context.set_context', the argument 'device_target' must be "
                         f"one of {list(_DEVICES)}, but got {value}.")
    if value != "CPU" and value not in _warned_device:
        _warned_device.add(value)
        warnings.warn(f"graphkiln runs on the CPU with NumPy; device_target='{value}' is "
                      f"accepted and executed on the CPU.", stacklevel=3)


def set_device(device_target: str, device_id: int | None = None) -> None:
    """``ms.set_device('Ascend')``: accepted; graphkiln always computes on the CPU."""
    set_context(device_target=device_target)
    if device_id is not None:
        _user["device_id"] = device_id


def get_context(key: str):
    """The effective value of ``key``: set_context, else the environment, else default."""
    if key not in _DEFAULTS:
        raise ValueError(f"For 'context.get_context', the argument {key} is not recognized.")
    if key in _user:
        return _user[key]
    env = _env_value(key)
    return env if env is not None else _DEFAULTS[key]


def is_graph_mode() -> bool:
    return get_context("mode") == GRAPH_MODE


def load_elim_level() -> int:
    """``MS_DEV_SIDE_EFFECT_LOAD_ELIM`` (0..3, default 1)."""
    raw = os.environ.get("MS_DEV_SIDE_EFFECT_LOAD_ELIM", "")
    try:
        level = int(raw) if raw.strip() else 1
    except ValueError:
        level = 1
    return min(max(level, 0), 3)


def reset_context() -> None:
    """Forget every ``set_context`` value (tests use it)."""
    _user.clear()
