"""The names MindSpore's tests and tools import from its C++ extension module
``mindspore._c_expression``: ``TensorPy`` (the Tensor class every Tensor is an instance of)
``get_code_extra`` (the record its bytecode JIT keeps on a compiled function) and
``security`` (whether this is a "security" build, one without graph dumps: never) and
``CreationType`` (how a PyNative Tensor was made, which its view checks read).

graphkiln compiles every ``jit`` function from its source (``capture_mode='bytecode'``
included) and keeps no per-code record, so ``get_code_extra`` finds none.
"""
from __future__ import annotations

import enum
import types

from .common.tensor import Tensor

TensorPy = Tensor


def get_code_extra(code) -> None:
    """The bytecode-JIT record of ``code`` (a function or code object): always None."""
    return None


class CreationType(enum.IntEnum):
    """How a PyNative Tensor was made (MindSpore's values)."""
    DEFAULT = 0
    NO_GRAD_MODE = 1
    MULTI_OUTPUT = 2
    CUSTOM_BPROP = 3


security = types.SimpleNamespace(enable_security=lambda: False)

__all__ = ["CreationType", "TensorPy", "get_code_extra", "security"]
