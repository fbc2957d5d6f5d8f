"""``mindspore.device_context.cpu``: the host CPU, always available, one device."""
from .op_tuning import threads_num


def is_available() -> bool:
    """True: graphkiln runs on the CPU."""
    return True


def device_count() -> int:
    """1, as MindSpore reports for the CPU."""
    return 1


__all__ = ["device_count", "is_available", "threads_num"]
