"""``mindspore.device_context.cpu.op_tuning``: the CPU kernels' thread count, a setting made
once per process as in MindSpore (graphkiln's NumPy kernels keep NumPy's own threading;
the number is recorded for :func:`configured_threads_num`)."""
from __future__ import annotations

_THREADS: list[int] = []


def threads_num(num: int) -> None:
    """Set the number of threads of the CPU kernels; a second call raises RuntimeError."""
    if _THREADS:
        raise RuntimeError("The 'threads_num' can not be set repeatedly.")
    if isinstance(num, bool) or not isinstance(num, int):
        raise TypeError(f"The parameter 'num' must be {int}, but got {type(num)}")
    if num <= 0:
        raise ValueError(f"The 'num' must be int and must > 0, but got '{num}' with type 'int'.")
    _THREADS.append(num)


def configured_threads_num() -> int | None:
    """The number set by :func:`threads_num`, or None before it is called."""
    return _THREADS[0] if _THREADS else None
