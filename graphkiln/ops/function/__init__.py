"""``mindspore.ops.function``: the functional ops under MindSpore's package path.

``import mindspore.ops.function as F`` gives :mod:`graphkiln.ops.functional`'s functions;
the per-topic modules (``math_func``, ``array_func``, ``nn_func``...) are that same module,
and ``grad`` (``grad.grad_func``) holds the autodiff front ends.
"""
import sys as _sys

from .. import functional as _functional
from ..functional import *  # noqa: F401,F403
from ..functional import __getattr__  # noqa: F401  (autodiff front ends resolve on access)
from . import grad  # noqa: F401
from .grad import *  # noqa: F401,F403

for _topic in ("array_func", "math_func", "nn_func", "clip_func", "debug_func", "image_func",
               "linalg_func", "other_func", "parameter_func", "random_func",
               "sparse_func", "sparse_unary_func", "spectral_func", "vmap_func", "fft_func"):
    _sys.modules[f"{__name__}.{_topic}"] = _functional
    globals()[_topic] = _functional
del _topic
# MindSpore's topic modules import this package as ``F`` (``from ...math_func import F``)
_functional.F = _sys.modules[__name__]
