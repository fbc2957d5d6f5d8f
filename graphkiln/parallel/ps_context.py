"""The parameter-server context (``set_ps_context``, ``get_ps_context``,
``reset_ps_context``), with MindSpore's keys and defaults. graphkiln has no parameter server:
``enable_ps=True`` is kept and warned about, and training runs in this process (the result of
one worker with its own server)."""
from __future__ import annotations

import warnings

_DEFAULTS = {"server_mode": "", "ms_role": "MS_WORKER", "enable_ps": False, "worker_num": 0,
             "server_num": 0, "scheduler_ip": "", "scheduler_port": 0, "enable_ssl": False,
             "config_file_path": ""}
_SET_ONLY = ("client_password", "server_password")  # accepted, never read back
_values = dict(_DEFAULTS)


def set_ps_context(**kwargs) -> None:
    """Set parameter-server context values (``enable_ps``, ``config_file_path``, ...)."""
    for key in kwargs:
        if key not in _DEFAULTS and key not in _SET_ONLY:
            raise ValueError(f"Set PS context keyword {key} is not recognized!")
    for key, value in kwargs.items():
        if key in _DEFAULTS:
            _values[key] = value
    if kwargs.get("enable_ps"):
        warnings.warn("graphkiln has no parameter server: enable_ps=True is recorded and "
                      "training runs in this process.", stacklevel=2)


def get_ps_context(attr_key: str):
    """The value of one parameter-server context key."""
    if attr_key not in _DEFAULTS:
        raise ValueError(f"Get PS context keyword {attr_key} is not recognized!")
    return _values[attr_key]


def reset_ps_context() -> None:
    """Every key back to its default."""
    _values.clear()
    _values.update(_DEFAULTS)
