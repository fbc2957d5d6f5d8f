"""``mindspore.runtime`` executor settings.

graphkiln runs a compiled step's kernels one after another on the calling thread (NumPy's
BLAS may use more threads), so every launch is already blocking and there is no dispatch
queue: the settings are checked as MindSpore checks them and recorded.
"""
from __future__ import annotations

_settings: dict = {}


def launch_blocking() -> None:
    """Run every kernel synchronously (graphkiln always does)."""
    _settings["launch_blocking"] = True


def dispatch_threads_num(threads_num: int) -> None:
    """The runtime's dispatch thread count (once per process, as in MindSpore)."""
    if "dispatch_threads_num" in _settings:
        raise RuntimeError("The 'dispatch_threads_num' can not be set repeatedly.")
    if not isinstance(threads_num, int) or isinstance(threads_num, bool):
        raise TypeError(f"The argument 'threads_num' must be int, but got "
                        f"{type(threads_num).__name__}.")
    if threads_num <= 0:
        raise ValueError(f"The 'threads_num' must be a positive int, but got {threads_num}.")
    _settings["dispatch_threads_num"] = threads_num


def set_cpu_affinity(enable_affinity: bool, affinity_cpu_list=None, module_to_cpu_dict=None,
                     bind_file=None) -> None:
    """Record whether runtime threads should be bound to CPUs."""
    if not isinstance(enable_affinity, bool):
        raise TypeError(f"The argument 'enable_affinity' must be bool, but got "
                        f"{type(enable_affinity).__name__}.")
    if affinity_cpu_list is not None and not isinstance(affinity_cpu_list, (list, dict)):
        raise TypeError(f"The argument 'affinity_cpu_list' must be list or dict, but got "
                        f"{type(affinity_cpu_list).__name__}.")
    _settings["cpu_affinity"] = (enable_affinity, affinity_cpu_list, module_to_cpu_dict,
                                 bind_file)


def synchronize() -> None:
    """Wait for every launched kernel (they have all finished when their call returned)."""


def executor_settings() -> dict:
    """What the functions above recorded."""
    return dict(_settings)


__all__ = ["launch_blocking", "dispatch_threads_num", "set_cpu_affinity", "synchronize",
           "executor_settings"]
