"""``set_algo_parameters``: the knobs of MindSpore's sharding-strategy search.

graphkiln parallelises by data only (every rank holds the whole model; see
parallel/context.py), so no strategy search reads these. They are checked and kept as
MindSpore checks and keeps them, so scripts that tune them run unchanged and read back
what they set.
"""
from __future__ import annotations

import numpy as np

_DEFAULTS = {"fully_use_devices": False, "elementwise_op_strategy_follow": False,
             "tensor_slice_align_enable": False, "tensor_slice_align_size": 16,
             "enable_algo_approxi": False,
             "algo_approxi_epsilon": float(np.float32(0.1))}  # MindSpore's C float default
_TYPES = {"fully_use_devices": bool, "elementwise_op_strategy_follow": bool,
          "tensor_slice_align_enable": bool, "tensor_slice_align_size": int,
          "enable_algo_approxi": bool, "algo_approxi_epsilon": float}
_values = dict(_DEFAULTS)


def _check(key: str, value):
    if key not in _TYPES:
        raise ValueError(f"Set context keyword {key} is not recognized!")
    kind = _TYPES[key]
    if type(value) is not kind:
        raise TypeError(f"The parameter '{key}' must be {kind}, but got {type(value)}")
    if key == "tensor_slice_align_size" and not 1 <= value <= 1024:
        raise ValueError(f"Align_size must be in [1, 1024], but got {value}")
    if key == "algo_approxi_epsilon":
        if not 0 < value <= 1:
            raise RuntimeError("'epsilon' must be in (0, 1]")
    return value


def set_algo_parameters(**kwargs) -> None:
    """Set the strategy-search parameters (all checked before any is set)."""
    checked = {key: _check(key, value) for key, value in kwargs.items()}
    _values.update(checked)


def get_algo_parameters(attr_key: str):
    """The value of one strategy-search parameter."""
    if attr_key not in _values:
        raise ValueError(f"Get context keyword {attr_key} is not recognized!")
    return _values[attr_key]


def reset_algo_parameters() -> None:
    """Every strategy-search parameter back to its default."""
    _values.clear()
    _values.update(_DEFAULTS)


__all__ = ["set_algo_parameters", "get_algo_parameters", "reset_algo_parameters"]
