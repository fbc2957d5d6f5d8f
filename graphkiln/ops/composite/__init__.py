"""Composite operations (``ops.composite`` / ``C``): autodiff front ends and mapping.
``ops.composite.base``, where MindSpore defines them, is this same module."""
import sys as _sys

from ..clip_ops import clip_by_global_norm, clip_by_value
from ..functional import partial
from .custom_vjp import custom_vjp
from .flags import add_flags
from .grad import GradOperation, get_grad, grad, value_and_grad
from .hypermap import HyperMap, Map, MultitypeFuncGraph
from .jacobian import jacfwd, jacrev
from .jvp import jvp
from .linearize import linearize
from .loops import ForiLoop, Scan, WhileLoop
from .morph import Morph
from .ones_like import ones_like
from .taylor import derivative, jet
from .vjp import vjp
from .vmap import vmap

__all__ = ["GradOperation", "grad", "value_and_grad", "HyperMap", "Map", "vmap",
           "MultitypeFuncGraph", "partial", "jvp", "vjp", "clip_by_value", "get_grad",
           "WhileLoop", "ForiLoop", "Scan", "clip_by_global_norm", "ones_like", "jacfwd",
           "jacrev", "jet", "derivative", "linearize",
           "custom_vjp", "add_flags", "Morph"]

_sys.modules[f"{__name__}.base"] = _sys.modules[__name__]

# functional ops MindSpore's ``ops.composite`` also exports (``C.multinomial``...): the
# ``ops`` package's own, looked up when first read
_FUNCTIONAL = ("normal", "laplace", "uniform", "gamma", "poisson", "multinomial", "matmul",
               "cummin", "mm", "count_nonzero", "tensor_dot", "vecdot", "dot", "batch_dot",
               "repeat_interleave", "repeat_elements", "sequence_mask")


def __getattr__(name: str):
    if name in _FUNCTIONAL:
        return getattr(_sys.modules[__name__.rsplit(".", 1)[0]], name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
