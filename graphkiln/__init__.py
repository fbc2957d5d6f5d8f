"""graphkiln: a static-graph compiler for MindSpore-style Python, on NumPy."""
from .common.comm_scheduler import quiet_rerun as _quiet_rerun
_quiet_rerun()  # a scheduler-launched worker rerun under mpiexec: quiet until init()
from . import context, ops
from . import nn
from .common import dtype
from .common.dtype import uint16, uint32, uint64  # noqa: F401
from .common.dtype import string  # noqa: F401 - mindspore.string (dataset schemas)
from .common.dtype import bfloat16, complex64, complex128  # noqa: F401
from .common.dtype import (  # noqa: F401
    bool_, float16, float32, float64, int8, int16, int32, int64, uint8,
)
from .common.jit_config import JitConfig
from .common.parameter import Parameter, ParameterTuple
from .common.tensor import Tensor, is_tensor, tensor
from .context import (
    GRAPH_MODE, PYNATIVE_MODE, get_context, set_context, set_device,
)
from .context import set_recursion_limit
from .context import COMPATIBLE, LAX, STRICT  # noqa: F401
from .common.seed import get_seed, set_seed
from .compile.api import jit
from .compile.api import NoGrad as _no_grad  # noqa: F401  (mindspore._no_grad)
from .compile.call_cache import compile_info
from .compile.data_dump import set_dump
from .ops.composite import grad, value_and_grad
from .ops.composite import get_grad, jacfwd, jacrev, jvp, vjp  # noqa: F401
from .common.jit_class import jit_class
from .common.recompute import recompute
from .common.lazy_inline import lazy_inline
from .ops.composite.vmap import vmap
from .ops.composite.grad_function import Function as _Function  # noqa: F401
from . import common  # noqa: F401  (ms.common.lazy_inline)
from .version import MINDSPORE_VERSION as __version__
from . import dataset, mindrecord  # noqa: F401  (ms.dataset, as `import mindspore` gives)
from . import train
from . import amp
from . import boost  # noqa: F401  (ms.boost)
from .train import (
    async_ckpt_thread_status, ckpt_to_safetensors, export, load, load_checkpoint,
    load_checkpoint_async, load_param_into_net, safetensors_to_ckpt, save_checkpoint,
    Callback, CheckpointConfig, DynamicLossScaleManager, EarlyStopping, FixedLossScaleManager,
    History, LossMonitor, LossScaleManager, Model, ModelCheckpoint, RunContext,
    SummaryCollector, TimeMonitor,
)
from .train import SummaryRecord
from . import communication, device_context, parallel, profiler, runtime  # noqa: F401
from . import mint  # noqa: F401  (ms.mint, the PyTorch-style API)
from . import experimental  # noqa: F401  (ms.experimental.optim)
from . import numpy  # noqa: F401  (ms.numpy, as `import mindspore` gives)
from .profiler import Profiler
from .parallel import (
    ParallelMode, get_algo_parameters, get_auto_parallel_context, reset_algo_parameters,
    reset_auto_parallel_context, set_algo_parameters, set_auto_parallel_context,
)
from .common.mutable import mutable
from .common.sparse_tensor import COOTensor, CSRTensor, RowTensor, RowTensorInner
from .parallel.ps_context import get_ps_context, reset_ps_context, set_ps_context
from .run_check import run_check
from .ops.primitive import constexpr
from .common.module_alias import alias_modules
from .ops import generator  # noqa: E402  (mindspore.common.generator)
from .ops.generator import (  # noqa: F401
    Generator, default_generator, get_rng_state, initial_seed, manual_seed, set_rng_state,
)

alias_modules("graphkiln.common", {"generator": generator})

__all__ = [
    "Tensor", "tensor", "Parameter", "ParameterTuple", "dtype", "context", "ops",
    "set_context", "get_context", "set_device", "GRAPH_MODE", "PYNATIVE_MODE",
    "nn", "set_seed", "get_seed", "jit", "compile_info", "set_dump", "grad", "value_and_grad",
    "jit_class",
    "lazy_inline", "vmap", "__version__", "amp", "mutable", "constexpr",
    "train", "save_checkpoint", "load_checkpoint", "load_param_into_net",
    "load_checkpoint_async", "ckpt_to_safetensors", "safetensors_to_ckpt",
    "async_ckpt_thread_status", "export", "load", "Model", "Callback", "RunContext", "LossMonitor",
    "TimeMonitor",
    "ModelCheckpoint", "CheckpointConfig", "EarlyStopping", "History", "SummaryCollector",
    "LossScaleManager", "FixedLossScaleManager", "DynamicLossScaleManager",
    "communication", "parallel", "ParallelMode", "set_auto_parallel_context",
    "get_auto_parallel_context", "reset_auto_parallel_context", "set_algo_parameters",
    "get_algo_parameters", "reset_algo_parameters", "Profiler",
    "bool_", "int8", "int16", "int32", "int64", "uint8", "float16", "float32", "float64",
    "uint16", "uint32", "uint64", "string",
    "SummaryRecord", "set_recursion_limit", "set_ps_context", "get_ps_context",
    "reset_ps_context", "run_check", "RowTensor", "RowTensorInner", "COOTensor", "CSRTensor",
    "Generator", "default_generator", "get_rng_state", "set_rng_state", "manual_seed",
    "initial_seed", "recompute",
]

# ``mindspore.*`` re-exports of the train names, the same objects as ``graphkiln.train``'s
from .train import (  # noqa: E402
    F1, MAE, MSE, ROC, Accuracy, BleuScore, ConfusionMatrix, ConfusionMatrixMetric,
    CosineSimilarity, Dice, Fbeta, HausdorffDistance, LambdaCallback, LearningRateScheduler,
    Loss, MeanSurfaceDistance, Metric, OcclusionSensitivity, OnRequestExit, Perplexity,
    Precision, Recall, ReduceLROnPlateau, RootMeanSquareDistance, Top1CategoricalAccuracy,
    Top5CategoricalAccuracy, TopKCategoricalAccuracy, auc, get_metric_fn, names,
    rearrange_inputs,
)
# MindSpore's dtype aliases and helpers at the top level
from .common.dtype import (  # noqa: E402
    Int, TensorType, Type, byte, cdouble, cfloat, double, dtype_to_nptype, dtype_to_pytype,
    float_, get_py_obj_dtype, half, int_, intc, intp, list_, long, pytype_to_dtype, short,
    single, tensor_type, tuple_, type_none, ubyte, uint, uintc, uintp, ushort,
)
from .common.dtype import float32 as float  # noqa: E402,A001  (mindspore.float)
from .common.tensor import from_numpy, frombuffer  # noqa: E402
from .ops.generator import seed  # noqa: E402  (mindspore.seed)
from .amp import build_train_network  # noqa: E402
from .train import BackupAndRestore, DatasetHelper, connect_network_with_dataset  # noqa: E402
from .train import data_sink  # noqa: E402
from .train.mindir_file import load_mindir, save_mindir  # noqa: E402
# ``mindspore.*`` re-exports of mindspore.runtime, .parallel, .mindrecord and .log names
from . import log  # noqa: E402
from .log import get_level, get_log_config  # noqa: E402
from .mindrecord import FileWriter  # noqa: E402
from .parallel import Layout  # noqa: E402
from .context import set_deterministic  # noqa: E402
from .runtime import (  # noqa: E402
    dispatch_threads_num, empty_cache, launch_blocking, max_memory_allocated,
    max_memory_reserved, memory_allocated, memory_reserved, memory_stats, memory_summary,
    reset_max_memory_allocated, reset_max_memory_reserved, reset_peak_memory_stats,
    set_cpu_affinity, set_memory, synchronize,
)

__all__ += [
    "Accuracy", "BleuScore", "ConfusionMatrix", "ConfusionMatrixMetric", "CosineSimilarity",
    "Dice", "F1", "Fbeta", "LambdaCallback", "LearningRateScheduler", "Loss", "MAE", "MSE",
    "HausdorffDistance", "MeanSurfaceDistance", "RootMeanSquareDistance", "OcclusionSensitivity",
    "Metric", "OnRequestExit", "Perplexity", "Precision", "Recall", "ReduceLROnPlateau", "ROC",
    "Top1CategoricalAccuracy", "Top5CategoricalAccuracy", "TopKCategoricalAccuracy", "auc",
    "get_metric_fn", "names", "rearrange_inputs",
    "Int", "TensorType", "Type", "byte", "cdouble", "cfloat", "double", "dtype_to_nptype",
    "dtype_to_pytype", "float", "float_", "get_py_obj_dtype", "half", "int_", "intc", "intp",
    "list_", "long", "pytype_to_dtype", "short", "single", "tensor_type", "tuple_",
    "type_none", "ubyte", "uint", "uintc", "uintp", "ushort", "from_numpy", "frombuffer",
    "seed", "build_train_network", "BackupAndRestore", "DatasetHelper",
    "connect_network_with_dataset", "data_sink", "load_mindir", "save_mindir",
    "log", "get_level", "get_log_config", "FileWriter", "Layout", "set_deterministic",
    "dispatch_threads_num", "empty_cache", "launch_blocking", "max_memory_allocated",
    "max_memory_reserved", "memory_allocated", "memory_reserved", "memory_stats",
    "memory_summary", "reset_max_memory_allocated", "reset_max_memory_reserved",
    "reset_peak_memory_stats", "set_cpu_affinity", "set_memory", "synchronize",
]

from .common.symbol import Symbol  # noqa: E402

__all__ += ["Symbol"]
