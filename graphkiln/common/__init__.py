"""``graphkiln.common`` (``mindspore.common``): dtypes, Tensor, Parameter, initializers,
``mutable``, the seed, and the cell/class decorators.

``common.jit`` is the jit layer's ``jit`` (:mod:`.api` names it); this package sits below
that layer, so it reads the name from the already-imported ``common.api`` module on access.
"""
import sys

from . import dtype, initializer, parameter, seed, tensor  # noqa: F401
from .dtype import dtype_to_nptype  # noqa: F401
from .initializer import set_seed  # noqa: F401
from .lazy_inline import lazy_inline  # noqa: F401
from .mutable import mutable  # noqa: F401
from .parameter import Parameter, ParameterTuple  # noqa: F401
from .tensor import Tensor  # noqa: F401

_API_NAMES = ("jit", "ms_function")


def __getattr__(name: str):
    api = sys.modules.get(f"{__name__}.api")
    if name in _API_NAMES and api is not None:
        return getattr(api, name)
    raise AttributeError(f"module 'mindspore.common' has no attribute '{name}'")
