"""``mindspore.parallel._utils``: the parallel-context readers model code imports."""
from __future__ import annotations

from .context import get_auto_parallel_context


def _get_parallel_mode() -> str:
    return get_auto_parallel_context("parallel_mode")


def _get_gradients_mean() -> bool:
    return get_auto_parallel_context("gradients_mean")


def _get_device_num() -> int:
    return get_auto_parallel_context("device_num")


def _get_global_rank() -> int:
    return get_auto_parallel_context("global_rank")
