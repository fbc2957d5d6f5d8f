"""graphkiln: a static-graph compiler for MindSpore-style Python, on NumPy."""
from . import context, ops
from . import nn
from .common import dtype
from .common.dtype import (  # noqa: F401
    bool_, float16, float32, float64, int8, int16, int32, int64, uint8,
)
from .common.parameter import Parameter, ParameterTuple
from .common.tensor import Tensor, tensor
from .context import (
    GRAPH_MODE, PYNATIVE_MODE, get_context, set_context, set_device,
)
from .common.seed import get_seed, set_seed
from .compile.api import jit
from .compile.call_cache import compile_info
from .ops.composite import grad, value_and_grad
from .common.jit_class import jit_class
from .common.lazy_inline import lazy_inline
from .ops.composite.vmap import vmap
from . import common  # noqa: F401  (ms.common.lazy_inline)
from .version import __version__
from .common.mutable import mutable
from .ops.primitive import constexpr
from .common.dtype import uint16, uint32, uint64  # noqa: F401

__all__ = [
    "Tensor", "tensor", "Parameter", "ParameterTuple", "dtype", "context", "ops",
    "set_context", "get_context", "set_device", "GRAPH_MODE", "PYNATIVE_MODE",
    "nn", "set_seed", "get_seed", "jit", "compile_info", "grad", "value_and_grad", "jit_class",
    "lazy_inline", "vmap", "__version__", "mutable", "constexpr",
    "bool_", "int8", "int16", "int32", "int64", "uint8", "float16", "float32", "float64",
]
