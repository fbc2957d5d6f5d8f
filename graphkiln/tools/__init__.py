"""``mindspore.tools``: ``set_dump`` (the data dump's selection, compile/data_dump.py) and
the Ascend hardware checks, which on a CPU behave as MindSpore 2.10's CPU build does."""
from __future__ import annotations

from ..compile.data_dump import set_dump


def stress_detect(detect_type: str = "aic") -> int:
    """AiCore/HCCS stress tests run on Ascend devices only: a RuntimeError here, as in
    MindSpore's CPU build."""
    raise RuntimeError(f"Stress detection is not supported: the '{detect_type}' stress test "
                       f"runs on Ascend devices only, and graphkiln runs on the CPU.")


def sdc_detect_start() -> None:
    """Silent data corruption detection checks Ascend MatMul kernels; the CPU has none to
    check (MindSpore's CPU build accepts the call and does nothing)."""


def sdc_detect_stop() -> None:
    """Stop :func:`sdc_detect_start`'s detection (nothing runs on the CPU)."""


def get_sdc_detect_result() -> bool:
    """Whether silent data corruption was detected: never on the CPU."""
    return False


__all__ = ["stress_detect", "sdc_detect_start", "sdc_detect_stop", "get_sdc_detect_result",
           "set_dump"]
