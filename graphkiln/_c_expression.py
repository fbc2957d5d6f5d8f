"""The names MindSpore's tests and tools import from its C++ extension module
``mindspore._c_expression``: ``TensorPy`` (the Tensor class every Tensor is an instance of),
``get_code_extra`` (the record the bytecode JIT keeps on a code object, see
:mod:`graphkiln.compile.pijit`), ``update_pijit_default_config``, ``security`` (whether
this is a "security" build, one without graph dumps: never) and ``CreationType`` (how a
PyNative Tensor was made, which its view checks read), and the weight fillers
``_random_normal``/``_random_uniform`` that old model code calls with its own seeds.
"""
from __future__ import annotations

import enum
import types

import numpy as np

from .common import philox
from .common.tensor import Tensor
from .compile.pijit import record_of

TensorPy = Tensor

# the bytecode JIT's default options (MindSpore's GraphJitConfig); kept, none changes a result
PIJIT_DEFAULT_CONFIG: dict = {}


def _random_normal(seed: int, data: np.ndarray, mean: float, sigma: float) -> None:
    """Fill ``data`` in place with MindSpore's Philox N(mean, sigma^2) stream of ``seed``."""
    data[...] = philox.normal(seed, data.shape, mean, sigma)


def _random_uniform(seed: int, data: np.ndarray, a: float, b: float) -> None:
    """Fill ``data`` in place with MindSpore's Philox U(a, b) stream of ``seed``."""
    data[...] = philox.uniform(seed, data.shape, a, b)


def get_code_extra(code) -> dict | None:
    """The bytecode-JIT record of ``code`` (a function, method or code object): ``stat``,
    ``compile_count_``, ``break_count_`` and ``code`` (the current capture); None when
    the bytecode JIT never ran it."""
    record = record_of(code)
    return None if record is None else record.as_dict()


def update_pijit_default_config(**kwargs) -> None:
    """Set defaults of the bytecode JIT's options (``compile_with_try=False``...)."""
    PIJIT_DEFAULT_CONFIG.update(kwargs)


def function_id(obj) -> int:
    """An identity of the function ``obj`` runs, the same for a method and the function or
    descriptor it is bound from (``list.__getitem__`` and ``[].__getitem__``), as the
    bytecode JIT keys its tables of known functions."""
    for _ in range(10):
        if isinstance(obj, types.MethodType):
            obj = obj.__func__
            continue
        owner = getattr(obj, "__self__", None)
        if isinstance(obj, (types.BuiltinMethodType, types.MethodWrapperType)) and \
                owner is not None and not isinstance(owner, types.ModuleType):
            found = getattr(type(owner), obj.__name__, None)
            if found is not None and found is not obj:
                obj = found
                continue
        break
    return id(obj)


def jit_mode_pi_enable() -> bool:
    """MindSpore's switch that a bytecode-JIT call turns on while it runs (and off after),
    so calling it outside a call changes nothing: accepted."""
    return True


def jit_mode_pi_disable() -> bool:
    """The other half of :func:`jit_mode_pi_enable`: accepted, changes nothing."""
    return True


class CreationType(enum.IntEnum):
    """How a PyNative Tensor was made (MindSpore's values)."""
    DEFAULT = 0
    NO_GRAD_MODE = 1
    MULTI_OUTPUT = 2
    CUSTOM_BPROP = 3


security = types.SimpleNamespace(enable_security=lambda: False)

__all__ = ["CreationType", "TensorPy", "function_id", "get_code_extra", "jit_mode_pi_disable",
           "jit_mode_pi_enable", "security", "update_pijit_default_config"]
