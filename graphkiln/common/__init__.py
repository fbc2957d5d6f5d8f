"""``graphkiln.common`` (``mindspore.common``): dtypes, Tensor, Parameter, initializers,
``mutable``, the seed, and the cell/class decorators.

``common.jit`` is the compile layer's ``jit`` (``graphkiln.compile.api``, which
``mindspore.common.api`` maps to); this package sits below that layer, so it reads the name
from the already-imported module on access (``import graphkiln`` imports it first).
"""
import sys

from . import dtype, initializer, parameter, seed, tensor  # noqa: F401
from .dtype import dtype_to_nptype  # noqa: F401
from .jit_config import JitConfig  # noqa: F401
from .lazy_inline import lazy_inline  # noqa: F401
from .mutable import mutable  # noqa: F401
from .parameter import Parameter, ParameterTuple  # noqa: F401
from .seed import set_seed  # noqa: F401
from .sparse_tensor import COOTensor, CSRTensor, RowTensor, RowTensorInner  # noqa: F401
from .tensor import Tensor  # noqa: F401

_API_MODULE = "graphkiln.compile.api"
_API_NAMES = ("jit", "ms_function", "_no_grad")


def __getattr__(name: str):
    api = sys.modules.get(_API_MODULE)
    if name in _API_NAMES and api is not None:
        return getattr(api, name)
    raise AttributeError(f"module 'mindspore.common' has no attribute '{name}'")
