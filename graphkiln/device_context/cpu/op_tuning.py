"""``mindspore.device_context.cpu.op_tuning``: the CPU kernels' thread count.

graphkiln's kernels are NumPy calls on the calling thread, so the number is checked as
MindSpore checks it (once per process) and recorded; it changes nothing else."""
from __future__ import annotations

_settings: dict = {}


def threads_num(num: int) -> None:
    """Set the CPU kernels' thread count (a positive int, once per process)."""
    if "threads_num" in _settings:
        raise RuntimeError("The 'threads_num' can not be set repeatedly.")
    if not isinstance(num, int) or isinstance(num, bool):
        raise TypeError(f"The argument 'num' must be int, but got {type(num).__name__}.")
    if num <= 0:
        raise ValueError(f"The 'num' must be positive int, but got {num}.")
    _settings["threads_num"] = num


def op_tuning_settings() -> dict:
    """What :func:`threads_num` recorded."""
    return dict(_settings)
