"""``mindspore.device_context.cpu.device``: the host CPU, always available, one device."""


def is_available() -> bool:
    """True: graphkiln runs on the CPU."""
    return True


def device_count() -> int:
    """1, as MindSpore reports for the CPU."""
    return 1
