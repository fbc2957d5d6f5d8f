"""``graphkiln.ops``: functional ops, primitive classes (``ops.Add()``), composites."""
import importlib as _importlib

from . import (
    array_ops,
    composed_primitives,
    elementwise,
    functional,
    linalg_ops,
    losses,
    products,
)
from . import defs as _defs  # noqa: F401  (fills the registry)
from . import dynamic_shape as _dynamic_shape  # noqa: F401  (x.shape of unknown dims)
from . import functional as F  # noqa: F401
from . import inplace_methods as _inplace_methods  # noqa: F401  (x.add_(y)...)
from . import rules as _rules  # noqa: F401  (attaches backward rules)
from . import scalar_methods as _scalar_methods  # noqa: F401  (run-time scalar operators)
from . import sequence_methods as _sequence_methods  # noqa: F401  (dynamic length sequences)
from . import tensor_methods as _tensor_methods  # noqa: F401  (Tensor operators)
from . import tensor_methods_api as _tensor_methods_api  # noqa: F401  (x.cumprod(), x.logit()...)
from . import tensor_methods_ext as _tensor_methods_ext  # noqa: F401  (x.log2(), x.tril()...)
from . import tensor_methods_linalg as _tensor_methods_linalg  # noqa: F401  (x.det()...)
from . import tensor_methods_more as _tensor_methods_more  # noqa: F401  (x.histc()...)
from . import tensor_overloads as _tensor_overloads  # noqa: F401  (MindSpore's overload check)
from .activation_functions import *  # noqa: F401,F403
from .array_ops import *  # noqa: F401,F403
from .box_functions import *  # noqa: F401,F403
from .channel_dropout import dropout1d, dropout2d, dropout3d  # noqa: F401
from .clip_ops import (  # noqa: F401
    clamp,
    clip,
    clip_by_global_norm,
    clip_by_norm,
    clip_by_value,
    stop_gradient,
)
from .composed_api_primitives import *  # noqa: F401,F403
from .composed_inner_primitives import Cauchy, Dense, Median, SparseToDense  # noqa: F401
from .composed_primitives import *  # noqa: F401,F403
from .composed_primitives import index_add  # noqa: F401
from .composite import (
    ForiLoop,
    GradOperation,
    HyperMap,
    Map,
    Morph,
    MultitypeFuncGraph,
    Scan,
    WhileLoop,
    derivative,
    get_grad,
    grad,
    jacfwd,
    jacrev,
    jet,
    jvp,
    linearize,
    value_and_grad,
    vjp,
    vmap,
)
from .ctc import ctc_loss  # noqa: F401
from .custom_ops import Custom  # noqa: F401  (its own class, before the registry's)
from .custom_reg import CustomRegOp, DataType, custom_info_register  # noqa: F401
from .defs.collective import ReduceOp
from .diagonals import *  # noqa: F401,F403
from .distance import cdist, cosine_similarity, dist  # noqa: F401
from .dynamic_rnn import DynamicRNN  # noqa: F401
from .einsum_ops import einsum  # noqa: F401
from .elementwise import *  # noqa: F401,F403
from .fft_ops import *  # noqa: F401,F403
from .fft_with_size import FFTWithSize  # noqa: F401
from .fractional_pool import fractional_max_pool2d, fractional_max_pool3d  # noqa: F401
from .functional import *  # noqa: F401,F403
from .functional import print_ as print  # noqa: A001,F401
from .functional import reduce_all as all  # noqa: A001,F401
from .functional import reduce_any as any  # noqa: A001,F401
from .histogram import histc  # noqa: F401
from .init_arg_primitives import *  # noqa: F401,F403
from .interpolation import interpolate, interpolate_ext  # noqa: F401
from .linalg_ops import *  # noqa: F401,F403
from .losses import *  # noqa: F401,F403
from .lp_pool import lp_pool1d, lp_pool2d  # noqa: F401
from .nn_functions import *  # noqa: F401,F403
from .norms import matrix_norm, norm, vector_norm, vector_norm_ext  # noqa: F401
from .pixel_shuffle import channel_shuffle, pixel_shuffle, pixel_unshuffle  # noqa: F401
from .pooling import avg_pool3d, max_pool2d, max_pool3d  # noqa: F401
from .pooling_functions import *  # noqa: F401,F403
from .primitive import (
    REGISTRY,
    Primitive,
    PrimitiveWithCheck,
    PrimitiveWithInfer,
    constexpr,
    prim_attr_register,
    primitive_class,
)
from .products import *  # noqa: F401,F403
from .quantiles import *  # noqa: F401,F403
from .random_draws import *  # noqa: F401,F403  (ops.randint, ops.bernoulli, x.uniform_...)
from .random_draws import __all__ as _RANDOM_DRAWS
from .randperm import randperm  # noqa: F401
from .sampling import log_normal, multinomial  # noqa: F401
from .searching import *  # noqa: F401,F403
from .sparse_methods import *  # noqa: F401,F403  (and the COOTensor/CSRTensor methods)
from .sparse_unary import *  # noqa: F401,F403  (ops.csr_cos, ops.coo_relu...)
from .stacking import *  # noqa: F401,F403
from .transposed_conv3d import Conv3DTranspose, conv3d_transpose  # noqa: F401
from .unfold import col2im, fold, unfold  # noqa: F401
from .unpool import max_unpool1d, max_unpool2d, max_unpool3d  # noqa: F401
from .window_functions import *  # noqa: F401,F403

for _name, _opdef in REGISTRY.items():
    if _name not in globals():  # composites (HyperMap) keep their user-facing class
        globals()[_name] = primitive_class(_opdef)
del _name, _opdef

from . import composite, operations  # noqa: E402
from . import composite as C  # noqa: E402,F401
from . import operations as P  # noqa: E402,F401
from .operations import Partial  # noqa: E402,F401  (ops.Partial, as P.Partial)

for _alias in operations.LEGACY:  # ops.TensorAdd... as MindSpore keeps them
    globals().setdefault(_alias, getattr(operations, _alias, None)) or globals().pop(_alias)

__all__ = [n for n in dir(functional) if not n.startswith("_")] + list(REGISTRY) + [
    *array_ops.__all__, *elementwise.__all__, *products.__all__,
    *losses.__all__, *linalg_ops.__all__, "ctc_loss", "matrix_norm",
    "clip_by_global_norm", "clip_by_value", "stop_gradient", "interpolate",
    "Primitive", "PrimitiveWithInfer", "PrimitiveWithCheck", "prim_attr_register",
    "functional", "composite", "GradOperation", "HyperMap", "Map", "Partial",
    "MultitypeFuncGraph", "Morph", "vmap", "operations", "constexpr", "grad", "value_and_grad",
    "get_grad", "jvp", "vjp", "jacfwd", "jacrev", "jet",
    "derivative", "linearize", "ReduceOp", "WhileLoop", "ForiLoop", "Scan",
    "pixel_shuffle", "pixel_unshuffle", "channel_shuffle", "dropout1d", "dropout2d",
    "dropout3d", "CustomRegOp", "DataType", "custom_info_register", "max_pool2d",
    "max_pool3d", "avg_pool3d", "max_unpool1d", "max_unpool2d", "max_unpool3d", "histc",
    "log_normal", "multinomial", "unfold", "index_add", "lp_pool1d", "lp_pool2d",
    "randperm", "fractional_max_pool2d", "fractional_max_pool3d", "Cauchy", "Dense", "Median",
    "Conv3DTranspose", "conv3d_transpose",
    "FFTWithSize",
    *composed_primitives.__all__, *_RANDOM_DRAWS]
__all__ += [  # the functional APIs of tests/ops/test_api_*
    "clamp", "clip", "clip_by_norm", "cdist", "dist", "cosine_similarity", "einsum", "fold",
    "col2im", "interpolate_ext"] + [
    n for m in ("pooling_functions", "box_functions", "window_functions", "activation_functions",
                "composed_api_primitives", "diagonals", "fft_ops", "nn_functions", "quantiles",
                "searching", "stacking", "sparse_methods", "sparse_unary")
    for n in _importlib.import_module(f"{__name__}.{m}").__all__]


def __getattr__(name: str):
    # ``ops.auto_generate``, ``ops.function`` without importing them here (they import this
    # package)
    if name in ("auto_generate", "function"):
        return _importlib.import_module(f"{__name__}.{name}")
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
