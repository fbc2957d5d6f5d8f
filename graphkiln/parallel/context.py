"""The auto-parallel context: ``set_auto_parallel_context``, ``get_auto_parallel_context``,
``reset_auto_parallel_context`` and ``ParallelMode``.

graphkiln runs every parallel mode as data parallel: the model is replicated on every
rank and gradients are all-reduced (``DATA_PARALLEL`` and ``HYBRID_PARALLEL`` exactly as
MindSpore does; ``SEMI_AUTO_PARALLEL`` and ``AUTO_PARALLEL`` are accepted, their sharding
settings are stored and reported back, and the model is not sharded: it trains as data
parallel, with a one-time warning saying so).
"""
from __future__ import annotations

import copy
import warnings


class ParallelMode:
    """The parallel modes; graphkiln runs all of them as data parallel."""
    STAND_ALONE = "stand_alone"
    DATA_PARALLEL = "data_parallel"
    HYBRID_PARALLEL = "hybrid_parallel"
    SEMI_AUTO_PARALLEL = "semi_auto_parallel"
    AUTO_PARALLEL = "auto_parallel"
    MODE_LIST = [STAND_ALONE, DATA_PARALLEL, HYBRID_PARALLEL, SEMI_AUTO_PARALLEL, AUTO_PARALLEL]


_DEFAULTS: dict = {
    "device_num": 1,
    "global_rank": 0,
    "gradients_mean": False,
    "gradient_fp32_sync": True,
    "loss_repeated_mean": True,
    "pipeline_stages": 1,
    "parallel_mode": ParallelMode.STAND_ALONE,
    "search_mode": "recursive_programming",
    "auto_parallel_search_mode": "recursive_programming",
    "parameter_broadcast": False,
    "strategy_ckpt_load_file": "",
    "strategy_ckpt_save_file": "",
    "full_batch": False,
    "dataset_strategy": "data_parallel",
    "enable_parallel_optimizer": False,
    "grad_accumulation_step": 1,
    "all_reduce_fusion_config": [],
    "communi_parallel_mode": "all_group_parallel",
    "optimizer_weight_shard_size": -1,
    "optimizer_weight_shard_aggregated_save": False,
    "sharding_propagation": False,
    "enable_alltoall": False,
    "comm_fusion": {"openstate": True, "allreduce": {"mode": "auto", "config": None},
                    "allgather": {"mode": "auto", "config": None},
                    "reducescatter": {"mode": "auto", "config": None}},
    "strategy_ckpt_config": {"load_file": "", "save_file": "", "only_trainable_params": True},
    "parallel_optimizer_config": {},
    "pipeline_config": {},
    "force_fp32_communication": False,
}
_BOOL_KEYS = ("gradients_mean", "gradient_fp32_sync", "loss_repeated_mean",
              "parameter_broadcast", "full_batch", "enable_parallel_optimizer",
              "sharding_propagation", "enable_alltoall", "force_fp32_communication",
              "optimizer_weight_shard_aggregated_save")
_SHARDING_MODES = (ParallelMode.SEMI_AUTO_PARALLEL, ParallelMode.AUTO_PARALLEL)
_user: dict = {}
_world = {"device_num": 1, "global_rank": 0}  # bound by communication.init()
_warned: set = set()


def _check(key: str, value) -> None:
    if key in _BOOL_KEYS and not isinstance(value, bool):
        raise TypeError(f"The parameter '{key}' must be {bool}, but got {type(value)}")
    if key == "parallel_mode" and value not in ParallelMode.MODE_LIST:
        raise ValueError("The context configuration parameter 'parallel_mode' only support "
                         "'stand_alone', 'data_parallel', 'hybrid_parallel', "
                         f"'semi_auto_parallel' and 'auto_parallel', but got the value : "
                         f"{value}.")
    if key == "device_num" and (not isinstance(value, int) or isinstance(value, bool)
                                or not 1 <= value <= 4096):
        raise ValueError(f"The context configuration parameter 'device_num' must be a positive "
                         f"integer, but got the value of device_num : {value}.")
    if key == "global_rank" and (not isinstance(value, int) or not 0 <= value < 4096):
        raise ValueError(f"The context configuration parameter 'global_rank' must be in "
                         f"[0, 4096), but got the value of global_rank : {value}.")


def set_auto_parallel_context(**kwargs) -> None:
    """Set parallel options (``parallel_mode``, ``gradients_mean``, ``device_num``...)."""
    for key, value in kwargs.items():
        if key not in _DEFAULTS:
            raise ValueError(f"Set context keyword {key} is not recognized!")
        _check(key, value)
    for key, value in kwargs.items():
        if key == "search_mode":
            _user["auto_parallel_search_mode"] = value
        _user[key] = copy.deepcopy(value)
    mode = _user.get("parallel_mode")
    if mode in _SHARDING_MODES and mode not in _warned:
        _warned.add(mode)
        warnings.warn(f"graphkiln runs parallel_mode='{mode}' as data parallel: the model is "
                      f"replicated on every rank, gradients are all-reduced, and sharding "
                      f"strategies are not applied.", stacklevel=2)


def get_auto_parallel_context(attr_key: str):
    """The value of ``attr_key``; ``device_num`` and ``global_rank`` default to the
    size of the world ``init()`` joined and this process's rank in it."""
    if attr_key not in _DEFAULTS:
        raise ValueError(f"Get context keyword {attr_key} is not recognized!")
    if attr_key in _user:
        return copy.deepcopy(_user[attr_key])
    if attr_key in _world:
        return _world[attr_key]
    return copy.deepcopy(_DEFAULTS[attr_key])


def bind_world(device_num: int, global_rank: int) -> None:
    """The defaults of ``device_num`` and ``global_rank``: the world ``init()`` joined."""
    _world.update(device_num=device_num, global_rank=global_rank)


def reset_auto_parallel_context() -> None:
    """Forget every ``set_auto_parallel_context`` value."""
    _user.clear()


def is_data_parallel() -> bool:
    """True when gradients must be all-reduced: any mode but stand-alone."""
    return get_auto_parallel_context("parallel_mode") != ParallelMode.STAND_ALONE


def gradient_degree() -> int:
    """How many replicas contribute gradients: ``device_num`` or the world size."""
    return get_auto_parallel_context("device_num")
