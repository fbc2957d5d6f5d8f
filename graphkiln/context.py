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
from .parallel.ps_context import (  # noqa: F401  (mindspore.context exports them too)
    get_ps_context,
    reset_ps_context,
    set_ps_context,
)

GRAPH_MODE = 0
PYNATIVE_MODE = 1

STRICT = 0
COMPATIBLE = 1
LAX = 2
RELEASE = 0
DEBUG = 1

_DEFAULTS = {
    "mode": PYNATIVE_MODE,
    "device_target": "CPU",
    "device_id": 0,
    "save_graphs": False,
    "save_graphs_path": ".",
    "enable_compile_cache": False,
    "compile_cache_path": "",
    "compile_cache_max_size": "",  # MB (graphkiln's own option; 512 when unset)
    "max_call_depth": 1000,  # nested calls while compiling (see set_recursion_limit)
}
# MindSpore's other options with its defaults: accepted, validated where MindSpore validates
# them, readable with get_context; they change nothing in graphkiln (one CPU backend, one
# optimisation level, no device memory to size)
_ACCEPTED = {
    "jit_level": "", "jit_config": {}, "jit_syntax_level": LAX,
    "pynative_synchronize": False, "enable_graph_kernel": False, "graph_kernel_flags": "",
    "memory_optimize_level": 0, "max_device_memory": 1024.0, "print_file_path": "",
    "runtime_num_threads": 2, "inter_op_parallel_num": 0, "deterministic": "OFF",
    "check_bprop": False, "enable_profiling": False, "reserve_class_name_in_scope": True,
    "mempool_block_size": 1.0, "op_timeout": 900, "debug_level": RELEASE,
    "enable_reduce_precision": True, "variable_memory_max_size": "0", "ascend_config": {},
    "gpu_config": {}, "aoe_tune_mode": "", "aoe_config": {}, "env_config_path": "",
    "support_binary": False, "disable_format_transform": False, "exec_order": "bfs",
    "enable_dump": False, "save_dump_path": ".", "grad_for_scalar": False,
    "precompile_only": False,
}
_JIT_CONFIG = {"jit_level": ["O0", "O1", "O2"], "infer_boost": ["on", "off"]}
_ENV = {
    "save_graphs": "MS_DEV_SAVE_GRAPHS",
    "enable_compile_cache": "MS_COMPILER_CACHE_ENABLE",
    "compile_cache_path": "MS_COMPILER_CACHE_PATH",
    "compile_cache_max_size": "GRAPHKILN_COMPILE_CACHE_MAX_SIZE",
    "save_graphs_path": "MS_DEV_SAVE_GRAPHS_PATH",
}
_DEVICES = ("CPU", "GPU", "Ascend")
_user: dict = {}
_warned_device = set()
_recursion_limit: list = []  # set_recursion_limit's value, once called


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
        if key not in _DEFAULTS and key not in _ACCEPTED:
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
        if key == "jit_config":
            _check_jit_config(value)
            if "jit_level" in value:
                _user["jit_level"] = value["jit_level"]
        if key == "jit_syntax_level" and value not in (STRICT, COMPATIBLE, LAX):
            raise ValueError(f"For 'jit_syntax_level', the value should be context.STRICT or "
                             f"context.LAX, but got {value}.")
        _user[key] = value


def _check_jit_config(config) -> None:
    if not isinstance(config, dict):
        raise TypeError(f"For 'context.set_context', the argument 'jit_config' must be a "
                        f"dict, but got {type(config).__name__}.")
    for key, value in config.items():
        if key not in _JIT_CONFIG:
            raise ValueError(f"For 'context.set_context', the key of argument 'jit_config' "
                             f"must be one of {_JIT_CONFIG}, but got {key}.")
        if value not in _JIT_CONFIG[key]:
            raise ValueError(f"For 'jit_config', the value of argument {key} must be one of "
                             f"{_JIT_CONFIG[key]}, but got {value}.")


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


def set_deterministic(deterministic: bool) -> None:
    """``ms.set_deterministic``: once per process, as MindSpore's. graphkiln's kernels are
    deterministic either way; the setting is kept as the context's ``deterministic``."""
    if not isinstance(deterministic, bool):
        raise TypeError(f"The parameter 'deterministic' must be {bool}, but got "
                        f"{type(deterministic)}.")
    if _deterministic_set:
        raise RuntimeError("The 'mindspore.set_deterministic' can not be set repeatedly.")
    _deterministic_set.append(deterministic)
    set_context(deterministic="ON" if deterministic else "OFF")


_deterministic_set: list = []


def get_context(attr_key: str):
    """The effective value of ``attr_key``: set_context, else the environment, else
    default."""
    key = attr_key
    if key not in _DEFAULTS and key not in _ACCEPTED:
        raise ValueError(f"For 'context.get_context', the argument {key} is not recognized! "
                         f"For detailed usage of 'get_context', please refer to the MindSpore "
                         f"official website.")
    if key in _user:
        return _user[key]
    if key in _ACCEPTED:
        return _ACCEPTED[key]
    env = _env_value(key)
    return env if env is not None else _DEFAULTS[key]


def is_graph_mode() -> bool:
    return get_context("mode") == GRAPH_MODE


_LOAD_ELIM = "MS_DEV_SIDE_EFFECT_LOAD_ELIM"
# Every compiled call reads the level (it is part of the call key). os.environ keeps its
# values in ``_data`` under the encoded name: one dict lookup instead of encode, lookup and
# decode (a fifth of a small call's cost); the parsed level is kept while the value is.
_ENV_STORE = getattr(os.environ, "_data", None)
_ENV_KEY = os.environ.encodekey(_LOAD_ELIM) if _ENV_STORE is not None else None
_parsed_level: list = [None, 1]  # the raw value last parsed, its level
_SYNTAX_LEVEL = "MS_DEV_JIT_SYNTAX_LEVEL"
_SYNTAX_KEY = os.environ.encodekey(_SYNTAX_LEVEL) if _ENV_STORE is not None else None


def strict_syntax() -> bool:
    """MindSpore's STRICT graph syntax (``MS_DEV_JIT_SYNTAX_LEVEL=0`` or
    ``jit_syntax_level=STRICT``): among other limits, a graph returns a dict as the tuple
    of its values. Read at every call (part of the call key), as cheaply as the level."""
    raw = _ENV_STORE.get(_SYNTAX_KEY) if _ENV_STORE is not None else \
        os.environ.get(_SYNTAX_LEVEL)
    if raw:
        return raw.strip() in (b"0", "0")
    return _user.get("jit_syntax_level") == STRICT


def load_elim_level() -> int:
    """``MS_DEV_SIDE_EFFECT_LOAD_ELIM`` (0..3, default 1), read at every call."""
    raw = _ENV_STORE.get(_ENV_KEY) if _ENV_STORE is not None else os.environ.get(_LOAD_ELIM)
    if raw is not _parsed_level[0]:
        _parsed_level[:] = [raw, _parse_level(raw)]
    return _parsed_level[1]


def _parse_level(raw) -> int:
    try:
        level = int(raw) if raw is not None and raw.strip() else 1
    except ValueError:
        level = 1
    return min(max(level, 0), 3)


def set_recursion_limit(recursion_limit: int = 1000) -> None:
    """How deep calls may nest while compiling a graph (a recursion that Python values
    unroll included); once set, it takes the place of ``max_call_depth``, as in
    MindSpore."""
    if not isinstance(recursion_limit, int) or isinstance(recursion_limit, bool):
        raise TypeError(f"The input value must be int, but got "
                        f"'{type(recursion_limit).__name__}'")
    if recursion_limit <= 0:
        raise ValueError(f"The input value must be int and must > 0, but got "
                         f"'{recursion_limit}' with type 'int'.")
    _recursion_limit[:] = [recursion_limit]


def call_depth_limit() -> int:
    """The nesting depth of calls that compiling may reach."""
    return _recursion_limit[0] if _recursion_limit else get_context("max_call_depth")


def reset_context() -> None:
    """Forget every ``set_context`` value (tests use it)."""
    _user.clear()
    _recursion_limit.clear()
    _deterministic_set.clear()
