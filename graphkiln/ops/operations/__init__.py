"""``mindspore.ops.operations`` (``P``): every primitive as a class, by its MindSpore name.

MindSpore spreads them over submodules (``math_ops``, ``nn_ops``...) that user code imports
from; those names are this same module, so every class has one definition.

The classes come from the primitive registry (:data:`graphkiln.ops.primitive.REGISTRY`), so
``P.Add is ops.Add`` and a primitive defined anywhere in ``ops.defs`` appears here too. Names
MindSpore kept for old code (``TensorAdd``) are aliases of the current primitive.
"""
from __future__ import annotations

import sys

import graphkiln.ops.composed_api_primitives as COMPOSED_API
import graphkiln.ops.composed_grad_primitives as COMPOSED_GRAD
import graphkiln.ops.composed_inner_primitives as COMPOSED_INNER
import graphkiln.ops.composed_primitives as COMPOSED
import graphkiln.ops.dynamic_rnn as DYNAMIC_RNN
import graphkiln.ops.fft_with_size as FFT_WITH_SIZE
import graphkiln.ops.gru_v2 as GRU_V2
import graphkiln.ops.transposed_conv3d as CONV3D_TRANSPOSE

from ..primitive import REGISTRY, primitive_class
from .partial import Partial  # noqa: F401  (P.Partial)

# the classes composed of primitives, by name
_COMPOSED = {n: getattr(m, n) for m in (COMPOSED, COMPOSED_API, COMPOSED_GRAD,
                                             COMPOSED_INNER, CONV3D_TRANSPOSE, DYNAMIC_RNN,
                                             FFT_WITH_SIZE, GRU_V2)
             for n in m.__all__}

# MindSpore's legacy spellings -> the primitive they name today
LEGACY = {
    "TensorAdd": "Add",
    "ControlDepend": "Depend",
    "Gelu": "GeLU",
    "GatherV2": "Gather",
    "FastGelu": "FastGeLU",
    "ScalarToArray": "ScalarToTensor",
    "Pack": "Stack",
    "Unpack": "Unstack",
    "ACos": "Acos",
    "Conv2DTranspose": "Conv2DBackpropInput",
}

# the submodules of MindSpore's package that user code imports primitives from
SUBMODULES = ("array_ops", "math_ops", "nn_ops", "other_ops", "comm_ops", "random_ops",
              "image_ops", "control_ops", "debug_ops", "inner_ops", "_inner_ops",
              "_grad_ops", "sparse_ops", "linalg_ops", "custom_ops", "_sequence_ops",
              "_embedding_cache_ops", "_rl_inner_ops")


def lookup(name: str) -> type:
    """The primitive class called ``name`` (or a legacy alias), else AttributeError."""
    opdef = REGISTRY.get(LEGACY.get(name, name))
    if opdef is None and name in _COMPOSED:
        return _COMPOSED[name]
    if opdef is None:
        raise AttributeError(f"module 'mindspore.ops.operations' has no primitive '{name}'")
    return primitive_class(opdef)


def __getattr__(name: str):
    # primitives registered after this module was imported resolve too
    if name.startswith("__"):
        raise AttributeError(name)
    return lookup(name)


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(REGISTRY) | {k for k, v in LEGACY.items() if v in REGISTRY})


for _name in list(REGISTRY) + [k for k, v in LEGACY.items() if v in REGISTRY] + list(
        _COMPOSED):
    globals()[_name] = lookup(_name)
del _name
from ..custom_ops import Custom  # noqa: E402,F401  (ops.Custom's own class)

for _sub in SUBMODULES:
    sys.modules[f"{__name__}.{_sub}"] = sys.modules[__name__]
    globals()[_sub] = sys.modules[__name__]
del _sub

from . import manually_defined  # noqa: E402,F401  (its own module: it adds ``rank``)

__all__ = sorted(set(REGISTRY) | {k for k, v in LEGACY.items() if v in REGISTRY} | {"Partial"}
                 | set(_COMPOSED))
