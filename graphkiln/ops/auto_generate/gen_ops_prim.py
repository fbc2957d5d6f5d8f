"""``mindspore.ops.auto_generate.gen_ops_prim``: the primitive classes (``Add``,
``MatMul``...), the same ones ``graphkiln.ops`` exposes."""
import graphkiln.ops as _ops
from graphkiln.ops.composed_grad_primitives import (  # noqa: F401
    BatchNormGrad,
    CdistGrad,
    LayerNormGrad,
    PReLUGrad,
    SoftmaxBackward,
    UpsampleNearest1DGrad,
    UpsampleNearest2DGrad,
    UpsampleNearest3DGrad,
    UpsampleTrilinear3DGrad,
)
from graphkiln.ops.inplace_methods import InplaceAddExt, InplaceSubExt  # noqa: F401
from graphkiln.ops.primitive import REGISTRY as _REGISTRY

__all__ = sorted([name for name in _REGISTRY if hasattr(_ops, name)]
                 + _ops.composed_primitives.__all__ + _ops.composed_api_primitives.__all__
                 + ["InplaceAddExt", "InplaceSubExt", "BatchNormGrad", "CdistGrad", "LayerNormGrad",
                    "PReLUGrad", "SoftmaxBackward", "UpsampleTrilinear3DGrad",
                    "UpsampleNearest1DGrad", "UpsampleNearest2DGrad", "UpsampleNearest3DGrad"])
globals().update({name: getattr(_ops, name) for name in __all__ if hasattr(_ops, name)})


def __getattr__(name: str):
    """MindSpore's primitive instances (``tracev2_grad_op``): ``<op name>_op`` names the
    primitive whose name, lower-cased, is ``<op name>`` without underscores."""
    if name.endswith("_op") and not name.startswith("_"):
        key = name[:-3].replace("_", "").lower()
        match = [n for n in _REGISTRY if n.lower() == key and hasattr(_ops, n)]
        if match:
            return getattr(_ops, match[0])()
    raise AttributeError(f"module 'mindspore.ops.auto_generate' has no attribute '{name}'")
