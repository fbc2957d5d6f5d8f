"""``graphkiln.common`` (``mindspore.common``): dtypes, Tensor, Parameter, initializers,
``mutable``, the seed, and the cell/class decorators.

``common.jit`` is the compile layer's ``jit`` (``graphkiln.compile.api``, which
``mindspore.common.api`` maps to); this package sits below that layer, so it reads such
names (``jit``, ``Generator``, ``set_dump``, ``save_mindir``...) from the already-imported
modules of the layers above on access (``import graphkiln`` imports them first).
"""
import sys

from . import dtype, initializer, parameter, seed, tensor  # noqa: F401
from .dtype import (  # noqa: F401  (mindspore.common.float32...)
    Int,
    TensorType,
    Type,
    bfloat16,
    bool_,
    byte,
    cdouble,
    cfloat,
    complex64,
    complex128,
    double,
    dtype_to_nptype,
    dtype_to_pytype,
    float16,
    float32,
    float64,
    float_,
    get_py_obj_dtype,
    half,
    int8,
    int16,
    int32,
    int64,
    int_,
    intc,
    intp,
    list_,
    long,
    pytype_to_dtype,
    short,
    single,
    string,
    tensor_type,
    tuple_,
    type_none,
    ubyte,
    uint,
    uint8,
    uint16,
    uint32,
    uint64,
    uintc,
    uintp,
    ushort,
)
from .jit_config import JitConfig  # noqa: F401
from .lazy_inline import lazy_inline  # noqa: F401
from .mutable import mutable  # noqa: F401
from .parameter import Parameter, ParameterTuple  # noqa: F401
from .seed import get_seed, set_seed  # noqa: F401
from .sparse_tensor import COOTensor, CSRTensor, RowTensor, RowTensorInner  # noqa: F401
from .symbol import Symbol  # noqa: F401
from .tensor import Tensor, from_numpy, is_tensor  # noqa: F401

# names of mindspore.common defined by the layers above -> their modules
_ABOVE = {
    **dict.fromkeys(("jit", "ms_function", "_no_grad"), "graphkiln.compile.api"),
    "set_dump": "graphkiln.compile.data_dump",
    "_Function": "graphkiln.ops.composite.grad_function",
    **dict.fromkeys(("Generator", "default_generator", "get_rng_state", "set_rng_state",
                     "initial_seed", "manual_seed"), "graphkiln.ops.generator"),
    **dict.fromkeys(("load_mindir", "save_mindir"), "graphkiln.train.mindir_file"),
    "set_recursion_limit": "graphkiln.context",
}


def __getattr__(name: str):
    module = sys.modules.get(_ABOVE.get(name, ""))
    if module is not None:
        return getattr(module, name)
    raise AttributeError(f"module 'mindspore.common' has no attribute '{name}'")
