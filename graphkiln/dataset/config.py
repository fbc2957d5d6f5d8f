"""Global pipeline settings (``mindspore.dataset.config``): seed, worker count, prefetch size.

Values apply to pipelines whose iterator is created after the call.
"""
from __future__ import annotations

import os
import random

import numpy as np

from ..common import seed as global_seed

_DEFAULT_SEED = 5489

_state = {
    "seed": _DEFAULT_SEED,
    "seed_set": False,
    "num_parallel_workers": max(1, min(8, os.cpu_count() or 1)),
    "prefetch_size": 16,
    "enable_shared_mem": True,
    "numa_enable": False,
    "fast_recovery": True,
    "iterator_mode": {"do_copy": False, "parallel_convert": False},
    # recorded only (see _recorded): MindSpore's performance and device knobs
    "monitor_sampling_interval": 1000,
    "auto_num_workers": False,
    "callback_timeout": 60,
    "enable_autotune": False,
    "autotune_interval": 0,
    "enable_watchdog": True,
    "multiprocessing_timeout_interval": 300,
    "sending_batches": 0,
    "auto_offload": False,
    "dynamic_shape": False,
    "multiprocessing_start_method": "fork",
    "video_backend": "CPU",
}
_INT32_MAX = 2**31 - 1


def _check_int(name: str, value, low: int, high: int) -> None:
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"Argument {name} with value {value!r} is not of type [<class 'int'>], "
                        f"but got {type(value)}.")
    if not low <= value <= high:
        raise ValueError(f"Input {name} is not within the required interval of [{low}, {high}].")


def _check_type(name: str, value, kind: type) -> None:
    """MindSpore's ``type_check`` error."""
    if not isinstance(value, kind):
        raise TypeError(f"Argument {name} with value {value!s} is not of type [{kind!r}], "
                        f"but got {type(value)}.")


def set_seed(seed: int) -> None:
    """Seed every shuffle, sampler and random transform (MindSpore's streams, see
    ``randomness``), and, as MindSpore does, Python's ``random`` and ``numpy.random``."""
    _check_int("seed", seed, 0, 2**32 - 1)
    _state["seed"] = seed
    _state["seed_set"] = True
    random.seed(seed)
    np.random.seed(seed)


global_seed.add_listener(set_seed)  # ms.set_seed(s) sets the dataset seed too, as MindSpore's
if global_seed.get_seed() is not None:  # ms.set_seed ran before the dataset was imported
    _state.update(seed=global_seed.get_seed(), seed_set=True)


def get_seed() -> int:
    """The seed set by :func:`set_seed` (5489 by default)."""
    return _state["seed"]


def seed_was_set() -> bool:
    """Whether the user fixed the seed (otherwise each run draws fresh entropy)."""
    return _state["seed_set"]


def set_num_parallel_workers(num: int) -> None:
    """Default number of workers of ``map``, ``batch`` and sources."""
    _check_int("num_parallel_workers", num, 1, max(1, os.cpu_count() or 1) * 64)
    _state["num_parallel_workers"] = num


def get_num_parallel_workers() -> int:
    return _state["num_parallel_workers"]


def set_prefetch_size(size: int) -> None:
    """Rows (or batches) each stage may run ahead of its consumer."""
    _check_int("size", size, 1, 2**31 - 1)
    _state["prefetch_size"] = size


def get_prefetch_size() -> int:
    return _state["prefetch_size"]


def set_enable_shared_mem(enable: bool) -> None:
    """Recorded for MindSpore scripts; graphkiln's worker processes pass rows through pipes
    and never use shared memory, so there is nothing to switch."""
    if not isinstance(enable, bool):
        raise TypeError(f"Argument enable with value {enable!r} is not of type "
                        f"[<class 'bool'>].")
    _state["enable_shared_mem"] = enable


def get_enable_shared_mem() -> bool:
    return _state["enable_shared_mem"]


def set_numa_enable(numa_enable: bool) -> None:
    """Recorded for MindSpore scripts; graphkiln does not bind workers to NUMA nodes."""
    if not isinstance(numa_enable, bool):
        raise TypeError(f"Argument numa_enable with value {numa_enable!r} is not of type "
                        f"[<class 'bool'>].")
    _state["numa_enable"] = numa_enable


def get_numa_enable() -> bool:
    return _state["numa_enable"]


def set_fast_recovery(fast_recovery: bool) -> None:
    """How a pipeline resumed at a step (``Dataset.set_init_step``) treats random ``map``
    operations: True (the default) restarts their random streams at the resumed row, as
    MindSpore's fast recovery does; False continues them as an uninterrupted run would."""
    if not isinstance(fast_recovery, bool):
        raise TypeError("fast_recovery must be a boolean dtype.")
    _state["fast_recovery"] = fast_recovery


def get_fast_recovery() -> bool:
    return _state["fast_recovery"]


def set_iterator_mode(do_copy: bool = False, parallel_convert: bool = False) -> None:
    """Recorded for MindSpore scripts: ``Model`` copies each batch into its Tensors whatever
    ``do_copy`` says, and rows always become Tensors on the prefetch thread, which is what
    ``parallel_convert`` asks MindSpore for."""
    _check_type("do_copy", do_copy, bool)
    _check_type("parallel_convert", parallel_convert, bool)
    _state["iterator_mode"] = {"do_copy": do_copy, "parallel_convert": parallel_convert}


def get_iterator_mode() -> dict:
    return dict(_state["iterator_mode"])


# ---------------------------------------------------------------- recorded-only settings
# MindSpore's profiling monitor, AutoTune, offload, watchdog, device-sending and video knobs
# tune or guard its C++ engine; graphkiln's engine has nothing to tune with them, so they are
# checked as MindSpore checks them and kept for the getters.


def _flag(name: str, value, message: str) -> None:
    if not isinstance(value, bool):
        raise TypeError(message)
    _state[name] = value


def _interval(name: str, value, type_message: str, low: int, range_message: str) -> None:
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(type_message)
    if not low <= value <= _INT32_MAX:
        raise ValueError(range_message)
    _state[name] = value


def _choice(name: str, value, valid: list[str]) -> None:
    _check_type(name, value, str)
    if value not in valid:
        raise ValueError(f"Input {name} is not within the valid set of {valid}.")


def set_monitor_sampling_interval(interval: int) -> None:
    _interval("monitor_sampling_interval", interval, "interval isn't of type int.", 1,
              "Interval given is not within the required range (0, INT32_MAX(2147483647)].")


def get_monitor_sampling_interval() -> int:
    return _state["monitor_sampling_interval"]


def set_auto_num_workers(enable: bool) -> None:
    _flag("auto_num_workers", enable, "enable must be of type bool.")


def get_auto_num_workers() -> bool:
    return _state["auto_num_workers"]


def set_callback_timeout(timeout: int) -> None:
    _interval("callback_timeout", timeout, "timeout isn't of type int.", 1,
              "Timeout given is not within the required range.")


def get_callback_timeout() -> int:
    return _state["callback_timeout"]


def set_enable_autotune(enable: bool, filepath_prefix: str | None = None) -> None:
    if not isinstance(enable, bool):
        raise TypeError("enable must be of type bool.")
    if filepath_prefix and not isinstance(filepath_prefix, str):
        raise TypeError(f"json_filepath must be a str value but was: {filepath_prefix}.")
    if enable and filepath_prefix == "":
        raise RuntimeError("The value of json_filepath cannot be the empty string.")
    if enable and filepath_prefix:  # where the tuned configuration would be written
        folder = os.path.dirname(filepath_prefix) or "."
        if os.path.isdir(filepath_prefix):
            raise RuntimeError(f"Invalid json_filepath parameter. <{filepath_prefix}> is a "
                               f"directory, not filename.")
        if not os.path.isdir(folder):
            raise RuntimeError(f"Invalid json_filepath parameter. Directory <{folder}> does "
                               f"not exist.")
    _state["enable_autotune"] = enable


def get_enable_autotune() -> bool:
    return _state["enable_autotune"]


def set_autotune_interval(interval: int) -> None:
    _interval("autotune_interval", interval, "interval must be of type int.", 0,
              "Interval given is not within the required range [0, INT32_MAX(2147483647)].")


def get_autotune_interval() -> int:
    return _state["autotune_interval"]


def set_enable_watchdog(enable: bool) -> None:
    _flag("enable_watchdog", enable, "enable must be a boolean dtype.")


def get_enable_watchdog() -> bool:
    return _state["enable_watchdog"]


def set_multiprocessing_timeout_interval(interval: int) -> None:
    _interval("multiprocessing_timeout_interval", interval, "interval isn't of type int.", 1,
              "Interval given is not within the required range (0, INT32_MAX(2147483647)).")


def get_multiprocessing_timeout_interval() -> int:
    return _state["multiprocessing_timeout_interval"]


def set_sending_batches(batch_num: int) -> None:
    if isinstance(batch_num, bool) or not isinstance(batch_num, int):
        raise TypeError("batch_num must be an int dtype.")
    _state["sending_batches"] = batch_num


def set_auto_offload(offload: bool) -> None:
    _flag("auto_offload", offload, "offload must be a bool dtype")


def get_auto_offload() -> bool:
    return _state["auto_offload"]


def set_dynamic_shape(is_dynamic: bool) -> None:
    _flag("dynamic_shape", is_dynamic, "is_dynamic must be a boolean dtype.")


def get_dynamic_shape() -> bool:
    return _state["dynamic_shape"]


def set_multiprocessing_start_method(start_method: str = "fork") -> None:
    """Recorded: graphkiln's worker processes are always forked."""
    _choice("start_method", start_method, ["fork", "spawn"])
    _state["multiprocessing_start_method"] = start_method


def get_multiprocessing_start_method() -> str:
    return _state["multiprocessing_start_method"]


def set_video_backend(backend: str) -> None:
    _choice("backend", backend, ["CPU", "Ascend"])
    _state["video_backend"] = backend


def get_video_backend() -> str:
    return _state["video_backend"]
