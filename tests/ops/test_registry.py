"""Walk the primitive registry: every non-structural op has a sample input here, and on it
the kernel's output dtype and shape equal what infer promised (graph mode runs kernels
without rechecking). A new op without a sample fails ``test_every_op_has_a_sample``."""
import sys
from pathlib import Path

import numpy as np
import pytest

import graphkiln as ms
from graphkiln import Tensor
from graphkiln.ir.abstract import AbstractScalar, AbstractTensor, AbstractTuple
from graphkiln.ir.primitive import REGISTRY, eager_abstract, eager_value
from graphkiln.ops.defs.sequence import SEQUENCE_OPS

pytestmark = pytest.mark.filterwarnings("error")

# Graph plumbing and effects: checked by the compiler's own tests.
STRUCTURAL = {
    "MakeTuple", "TupleGetItem", "Depend", "UpdateState", "Load", "Switch", "While", "Print",
    "Assign", "AssignAdd", "AssignSub", "HyperMap",
    # in-place updates of weights: tests/compat/test_ops_recorded.py (against MindSpore)
    "ScatterAdd", "ScatterSub", "ScatterMul", "ScatterDiv", "ScatterMax", "ScatterMin",
    "ScatterUpdate", "ScatterNdAdd", "ScatterNdSub", "ScatterNdMul", "ScatterNdDiv",
    "ScatterNdMax", "ScatterNdMin", "ScatterNdUpdate",
    # in-place writes of Tensors: tests/frontend/test_inplace_methods.py
    "InplaceCopy", "InplaceIndexAdd",
    "WhileGrad",  # applies traced graphs; made by autodiff (tests/transforms/test_autodiff.py)
    "Raise",  # a run-time raise (tests/frontend/test_ms_programs.py)
    "Assert",  # an IO effect that raises (tests/ops/test_wide_s15o10.py)
    # IO effects feeding SummaryRecord (tests/train/test_summary_record.py, against MindSpore)
    "ScalarSummary", "TensorSummary", "ImageSummary", "HistogramSummary",
    "TensorDump",  # writes files (tests/ops/test_tensor_dump.py, against MindSpore)
    # need a peer process (tests/communication/scripts/point_to_point.py)
    "Send", "Receive",
    "PyExecute",  # the run-time fallback (tests/frontend/test_fallback.py)
    # dynamic length sequences exist only in graphs (tests/frontend/test_mutable_sequences.py)
    *SEQUENCE_OPS,
}


def f32(*shape):
    return Tensor(np.linspace(-2.0, 2.0, int(np.prod(shape))).astype(np.float32).reshape(shape))


def i32(*shape, hi=3):
    return Tensor((np.arange(int(np.prod(shape))) % hi).astype(np.int32).reshape(shape))


def b(*shape):
    return Tensor(np.arange(int(np.prod(shape))).reshape(shape) % 2 == 0)


X, Y, V = f32(2, 3), f32(3), f32(4)
Z = Tensor((np.linspace(-2.0, 2.0, 6) + 1j * np.linspace(1.0, -1.0, 6)).astype(np.complex64)
           .reshape(2, 3))
_S = (f32(1, 3), f32(2, 3))

# op name -> list of (positional inputs, attributes)
SAMPLES = {
    **{n: [((X, Y), {}), ((i32(2, 3), 2.5), {}), ((X, i32(3)), {})] for n in (
        "Add", "Sub", "Mul", "Div", "FloorDiv", "FloorMod", "Mod", "Pow", "Maximum", "Minimum",
        "Less", "LessEqual", "Greater", "GreaterEqual", "Equal", "NotEqual")},
    **{n: [((X, Y), {}), ((b(2, 3), b(3)), {})] for n in (
        "LogicalAnd", "LogicalOr", "LogicalXor")},
    **{n: [((i32(2, 3), i32(3)), {}), ((b(2, 3), b(3)), {}), ((i32(3), 5), {})] for n in (
        "BitwiseAnd", "BitwiseOr", "BitwiseXor")},
    **{n: [((X,), {}), ((Tensor(np.ones(3, np.float16)),), {})] for n in (
        "Exp", "Log", "Rsqrt", "Sin", "Cos", "Tanh", "Sigmoid", "Softplus", "Erf")},
    **{n: [((X,), {}), ((i32(2, 3),), {})] for n in ("Neg", "Abs", "Square", "ReLU", "HSwish")},
    **{n: [((Z,), {}), ((X,), {})] for n in ("Real", "Imag", "Conj", "Angle")},
    "Complex": [((X, Y), {}), ((f32(3).astype(ms.float64), f32(2, 3).astype(ms.float64)), {})],
    "Sqrt": [((X,), {}), ((i32(4),), {})],
    "GeLU": [((X,), {"approximate": "tanh"}), ((X,), {"approximate": "none"})],
    "LogicalNot": [((X,), {}), ((b(3),), {})],
    "MatMul": [((X, f32(3, 4)), {}), ((X, f32(4, 3)), {"transpose_b": True})],
    "BatchMatMul": [((f32(5, 2, 3), f32(3, 4)), {}), ((f32(2, 3, 2), f32(2, 4, 3)),
                                                    {"transpose_a": True, "transpose_b": True})],
    "Cast": [((X, ms.int8), {}), ((i32(3), ms.bool_), {})],
    "Fill": [((ms.float16, (2, 3), 1.5), {}), ((ms.int32, (), Tensor(np.float32(2))), {})],
    "Zeros": [(((2, 3), ms.float32), {}), ((4, ms.int64), {})],
    "Ones": [(((2, 0), ms.bool_), {})],
    "ZerosLike": [((X,), {})],
    "OnesLike": [((i32(2),), {})],
    "Reshape": [((X, (3, -1)), {}), ((X, (6,)), {})],
    "Transpose": [((f32(2, 3, 4), (2, 0, 1)), {})],
    "ExpandDims": [((X, -1), {}), ((Y, 0), {})],
    "Squeeze": [((f32(1, 3, 1),), {}), ((f32(1, 3, 1),), {"axis": 0})],
    "Tile": [((X, (2, 1, 2)), {}), ((X, (2,)), {})],
    "BroadcastTo": [((Y,), {"shape": (2, 3)}), ((f32(2, 1),), {"shape": (4, -1, 3)})],
    "FusedElementwise": [((X, Y, 0.5), {"program": "t0 = multiply(x0, x2); t1 = tanh(t0); "
                                                   "t2 = add(t1, x1)"}),
                         ((i32(2, 3), X), {"program": "t0 = greater(x0, x1)"})],
    "Select": [((b(2, 3), X, Y), {}), ((b(3), X, 2), {}), ((b(3), i32(3), 2.5), {})],
    "Stack": [(((X, X),), {"axis": 1})],
    "Concat": [((_S,), {"axis": 0}), (((X, f32(2, 1)),), {"axis": -1})],
    "Split": [((f32(6, 2),), {"axis": 0, "output_num": 3})],
    "ConcatOffset": [(((f32(2, 3), f32(4, 3), f32(1, 3)),), {"N": 3, "axis": 0})],
    "SplitV": [((f32(6, 2),), {"size_splits": (1, -1), "split_dim": 0, "num_split": 2})],
    "AddN": [(((X, X, X),), {})],
    "Gather": [((X, i32(4), 1), {}), ((f32(2, 3, 4), i32(2, 2), 2), {"batch_dims": 1})],
    "Getitem": [((X, 1), {}), ((X, (slice(None), None, i32(2, 2))), {}), ((X, b(2)), {})],
    "Setitem": [((X, 1, 2.5), {}), ((X, (slice(None), i32(2)), f32(2, 2)), {}),
                ((X, b(2, 3), Y), {}), ((i32(2, 3), 0, f32(3)), {})],
    "ReluGrad": [((f32(2, 3), f32(2, 3)), {}), ((i32(2, 3), i32(2, 3)), {})],
    "Lstsq": [((f32(4, 3), f32(4, 2)), {}), ((f32(3, 3), f32(3)), {"l2_regularizer": 0.5})],
    "LayerNormGradGrad": [((X, X, Tensor(np.array([[0.5], [1.5]], np.float32)), f32(2, 1), Y, X,
                            Y, Y), {})],
    "ReLU6Grad": [((f32(2, 3), f32(2, 3)), {}), ((i32(2, 3), i32(2, 3)), {})],
    "GetitemGrad": [((f32(2, 2), (i32(2), slice(None, None, 2))), {"shape": (3, 3)}),
                    ((f32(3), 1), {"shape": (2, 3)}), ((f32(3), 1, f32(2, 3)), {})],
    "ConcatGrad": [((f32(5, 3), (f32(2, 3), f32(3, 3))), {"axis": 0}),
                   ((f32(2, 5), [f32(2, 1), f32(2, 4)]), {"axis": 1})],
    "SumToLike": [((f32(2, 3), f32(1, 3)), {}), ((f32(4, 2, 3), f32(3)), {})],
    **{n: [((X, ()), {}), ((X, 1), {"keep_dims": True}), ((i32(2, 3), (0, 1)), {})] for n in (
        "ReduceSum", "ReduceMean", "ReduceMax", "ReduceMin", "ReduceProd")},
    "Argmax": [((X,), {}), ((X,), {"axis": 0, "output_type": ms.int64})],
    "Argmin": [((X,), {}), ((b(2, 3),), {"axis": 1})],
    "ArgMaxWithValue": [((X,), {"axis": 1, "keep_dims": True}), ((f32(3),), {})],
    "ArgMinWithValue": [((X,), {"axis": 0})],
    "Softmax": [((X,), {"axis": -1}), ((X,), {"axis": (0, 1)})],
    "LogSoftmax": [((X,), {"axis": 0})],
    "BiasAdd": [((X, f32(3)), {}), ((f32(2, 3, 4), f32(4)), {"data_format": "NHWC"})],
    "LayerNorm": [((f32(2, 3, 4), f32(3, 4), f32(3, 4)), {}),
                  ((Tensor(np.ones((2, 3), np.float16)), f32(3), f32(3)),
                   {"begin_norm_axis": -1, "begin_params_axis": -1})],
    "OneHot": [((i32(2, 3), 4, Tensor(np.float32(1)), Tensor(np.float32(0))), {"axis": 1})],
    "Dropout": [((X,), {"keep_prob": 0.5}), ((X, 3), {"keep_prob": 0.9})],
    "TensorMove": [((X,), {})],
    "NPUAllocFloatStatus": [((), {})],
    "StandardNormal": [(((2, 3),), {"seed": 1}), ((Tensor(np.array([4], np.int32)),), {})],
    "UniformReal": [(((3,),), {"seed": 2, "seed2": 1})],
    "Bernoulli": [((X, Tensor(np.array([0.3], np.float32))), {"seed": 5})],
    "StandardLaplace": [(((2, 2),), {})],
    "UniformInt": [(((3,), Tensor(np.int32(1)), Tensor(np.int32(5))), {"seed": 1})],
    "RandomShuffle": [((X,), {"seed": 1}), ((Tensor(np.float32(2.0)),), {})],
    "RandomPoisson": [((Tensor(np.array([2], np.int32)), Y), {"dtype": ms.int32}),
                      ((Tensor(np.array([2, 1], np.int64)), i32(3)), {"dtype": ms.float64})],
    "RandomGamma": [((Tensor(np.array([2], np.int32)), Tensor(np.array([1.5, 3.0], np.float32))),
                     {"seed": 3})],
    "RandomChoiceWithMask": [((b(2, 3),), {"count": 4, "seed": 1}), ((b(5),), {"count": 2})],
    "Multinomial": [((X, 3), {"seed": 1}), ((Tensor(np.array([0.5, 2.0])), 4),
                                            {"dtype": ms.int64})],
    "NPUClearFloatStatus": [((f32(8),), {})],
    "NPUGetFloatStatus": [((f32(8),), {})],
    **{n: [((X, Y), {}), ((i32(2, 3), i32(3, hi=2) + 1), {})] for n in ("RealDiv",)},
    **{n: [((X,), {})] for n in (
        "Reciprocal", "Sign", "Floor", "Ceil", "Round", "Log1p", "Expm1", "Tan", "Atan", "Sinh",
        "Cosh", "Asin", "Acos", "Shape", "DType", "Rank", "Size", "TopTypeof",
        "Flatten", "TensorShape")},
    # data-dependent output sizes: infer promises -1 for the size the kernel computes
    "NonZero": [((X,), {}), ((b(2, 3),), {})],
    "MapUniform": [((Tensor(np.arange(8, dtype=np.int32)), 4, 2), {}),
                   ((Tensor(np.arange(-3, 3).reshape(2, 3)), Tensor(3), Tensor(2)), {})],
    "PadAndShift": [((Tensor(np.array([9, 13, -1, -1, -1], np.int32)),
                      Tensor(np.array([0, 3, 5], np.int32)), 1), {})],
    "MaskedSelect": [((X, b(2, 3)), {}), ((X, b(3)), {})],
    "MaskedSelectGrad": [((X, b(2, 3), f32(3)), {}), ((X, b(3), f32(4)), {})],
    "Unique": [((i32(2, 3),), {}), ((X,), {})],
    "SquaredDifference": [((X, Y), {})],
    "FloatStatus": [((X,), {}), ((Tensor(np.array([1.0, np.inf], np.float32)),), {})],
    "Atan2": [((X, Y), {})],
    "Trunc": [((X,), {}), ((i32(3),), {}), ((b(3),), {})],
    "TruncateDiv": [((X, Y), {}), ((i32(2, 3), i32(3, hi=2) + 1), {})],
    "TruncateMod": [((X, Y), {}), ((i32(2, 3), 2), {})],
    "Xdivy": [((X, Y), {}), ((Z, Z), {})],
    "SquareSumAll": [((X, X), {}), ((Tensor(np.ones(3, np.float16)),) * 2, {})],
    "Mish": [((X,), {}), ((Tensor(np.ones(3, np.float16)),), {})],
    "ReLU6": [((f32(2, 5) * 4,), {}), ((i32(2, 3, hi=9),), {})],
    **{n: [((X,), {}), ((Tensor(np.ones(3, np.float16)),), {})] for n in ("BesselI0", "BesselI1")},
    "SeLU": [((X,), {}), ((i32(3),), {})],
    "SoftShrink": [((X,), {"lambd": 1.0}), ((Tensor(np.ones(3, np.float16)),), {})],
    "SoftShrinkGrad": [((X, X), {"lambd": 1.0})],
    "MaskedFill": [((X, b(3), Tensor(np.float32(9.0))), {}), ((i32(3), b(2, 3), 4), {})],
    "MaskedScatter": [((X, b(3), V), {}), ((i32(2, 3), b(2, 3), i32(3)), {})],
    "PReLU": [((f32(2, 3, 2), f32(3)), {}), ((Y, Tensor(np.float32([0.5]))), {})],
    "SpaceToDepth": [((f32(1, 2, 4, 6),), {"block_size": 2}),
                     ((i32(2, 1, 3, 3),), {"block_size": 3})],
    "ReverseSequence": [((f32(3, 4), Tensor(np.array([1, 2, 4], np.int32))),
                         {"seq_dim": 1, "batch_dim": 0}),
                        ((i32(2, 3, 2), Tensor(np.array([3, 0], np.int64))),
                         {"seq_dim": 1, "batch_dim": 0})],
    "Renorm": [((f32(3, 4),), {"p": 2, "dim": 0, "maxnorm": 1.0}),
               ((Tensor(np.ones((2, 2), np.float16)),), {"p": 1, "dim": -1, "maxnorm": 1.0})],
    "Range": [((Tensor(np.int32(2)), Tensor(np.int32(9)), Tensor(np.int32(3))), {}),
              ((Tensor(np.float64(1.0)), 0.0, Tensor(np.float32(-0.25))), {"maxlen": 10})],
    "Sort": [((f32(3, 4), ), {}), ((i32(2, 5), ), {"axis": 0, "descending": True})],
    "Unstack": [((f32(3, 4), ), {}), ((i32(2, 5), ), {"axis": -1})],
    "Identity": [((X,), {}), ((i32(4),), {})],
    "HookBackward": [((X,), {"hook_fn": print}), ((X, Y), {"hook_fn": print})],
    # a pyfunc: one output declared by functions, two declared by values, a scalar input
    "Custom": [((X,), {"func": np.tanh, "out_shape": lambda s: s, "out_dtype": lambda t: t}),
               ((X, Y), {"func": lambda x, y: (x + y, x * y > 0),
                         "out_shape": ((2, 3), (2, 3)), "out_dtype": (ms.float32, ms.bool_)}),
               ((i32(2, 3), 2), {"func": lambda x, k: (x * k).sum(dtype=np.int32), "out_shape": [],
                                 "out_dtype": ms.int32})],
    "RunBackwardHook": [((X,), {"hook_fn": lambda grads: None}),
                        ((X, Y), {"hook_fn": lambda grads: (grads[0] * 2, grads[1])})],
    "Eye": [((3, 2, ms.float32), {}), ((2, 2, ms.bool_), {})],
    "Pad": [((X,), {"paddings": ((1, 0), (0, 2))}), ((i32(4),), {"paddings": ((0, 0),)})],
    "Padding": [((f32(2, 1),), {"pad_dim_size": 4}), ((b(3, 2, 1),), {"pad_dim_size": 1})],
    "MatrixSolve": [((Tensor(np.eye(3, dtype=np.float32) * 2), f32(3, 2)), {}),
                    ((Tensor(np.eye(2, dtype=np.complex64)[None]), Z[None, :, :2]),
                     {"adjoint": True})],
    "Meshgrid": [(((V, Y, f32(2)),), {"indexing": "xy"}), (((i32(3), i32(2)),), {"indexing": "ij"}),
                 (((V,),), {})],
    "GatherD": [((f32(3, 4), 1, i32(3, 2)), {}), ((f32(3, 4), 0, i32(2, 4)), {})],
    **{n: [((X + 2.5, Y + 2.1), {}), ((Tensor(np.ones(3)), Tensor(np.arange(3.0))), {})]
       for n in ("Igamma", "Igammac", "IgammaGradA")},
    "Betainc": [((X + 2.5, X + 3.0, Tensor(np.linspace(0.1, 0.9, 6).astype(np.float32)
                                         .reshape(2, 3))), {})],
    **{n: [((X,), {}), ((Tensor(np.ones(3, np.float16)),), {})] for n in ("Lgamma", "Digamma")},
    "Polygamma": [((Tensor(np.int64(1)), X), {}),
                  ((Tensor(np.int32(2)), Tensor(np.ones(3, np.float16))), {})],
    "Slice": [((f32(3, 4), (1, 1), (2, -1)), {})],
    "StridedSlice": [((f32(3, 4), (1, 0), (3, 4), (1, 2)), {"shrink_axis_mask": 2})],
    "TopK": [((f32(2, 5), 3), {}), ((i32(4), 2), {"sorted": True})],
    "GatherNd": [((f32(3, 4), i32(2, 2)), {}), ((f32(3, 4), i32(2, 1)), {})],
    "ScatterNd": [((i32(2, 1), f32(2, 4), (3, 4)), {})],
    **{f"TensorScatter{k}": [((f32(3, 4), i32(2, 1) + Tensor(np.array([[0], [1]], np.int32)),
                               f32(2, 4)), {})]
       for k in ("Add", "Sub", "Mul", "Div", "Max", "Min", "Update")},
    # collectives in a world of one process (2-process checks: tests/communication)
    "AllReduce": [((X,), {"op": "sum", "group": "hccl_world_group"}),
                  ((i32(2, 3),), {"op": "max", "group": "hccl_world_group"})],
    "AllGather": [((X,), {"group": "hccl_world_group"})],
    "ReduceScatter": [((X,), {"op": "sum", "group": "hccl_world_group"})],
    "Broadcast": [(((X, i32(3)),), {"root_rank": 0, "group": "hccl_world_group"})],
    "AlltoAll": [((X,), {"split_count": 1, "split_dim": 1, "concat_dim": 0,
                         "group": "hccl_world_group"})],
    "Barrier": [((), {"group": "hccl_world_group"})],
    "AlltoAllV": [((X, (6,), (6,)), {"group": "hccl_world_group", "block_size": 1})],
    "Reduce": [((X,), {"dest_rank": 0, "op": "sum", "group": "hccl_world_group"})],
    "CollectiveGather": [((X,), {"dest_rank": 0, "group": "hccl_world_group"})],
    "CollectiveScatter": [((X,), {"src_rank": 0, "group": "hccl_world_group"})],
    **{n: [((7, 2), {}), ((2.5, 4), {}), ((True, 3.0), {})] for n in (
        "ScalarAdd", "ScalarSub", "ScalarMul", "ScalarDiv", "ScalarFloorDiv", "ScalarMod",
        "ScalarPow", "ScalarEq", "ScalarNe", "ScalarLt", "ScalarLe", "ScalarGt", "ScalarGe",
        "BoolAnd", "BoolOr", "ScalarMax", "ScalarMin")},
    **{n: [((3,), {}), ((-2.5,), {}), ((False,), {})] for n in ("BoolNot", "ScalarUsub")},
    "ScalarCast": [((2.7,), {"to": "int"}), ((0,), {"to": "bool"}), ((3,), {"to": "float"})],
    "ScalarToTensor": [((3,), {"dtype": ms.float32}), ((2.5,), {"dtype": ms.int32})],
    "TupleToArray": [(((1, 2, 3),), {}), (((0.5, -2.0),), {})],
    "ReverseV2": [((f32(3, 4),), {"axis": (1,)}), ((i32(2, 3, 2),), {"axis": (-1, 0)})],
    "MakeSlice": [((1, 5, 2), {}), ((None, -1, None), {})],
}

sys.path.insert(0, str(Path(__file__).resolve().parent))
import api_breadth_samples  # noqa: E402
import fractional_max_pool_samples  # noqa: E402
import leftover_samples  # noqa: E402
import nn_samples  # noqa: E402
import ops27_samples  # noqa: E402
import opsb_samples  # noqa: E402
import opsf_samples  # noqa: E402
import opsg_samples  # noqa: E402
import opsh_samples  # noqa: E402
import opsi_samples  # noqa: E402
import opsj_samples  # noqa: E402
import opsk_samples  # noqa: E402
import opsl_samples  # noqa: E402
import opsm_samples  # noqa: E402
import opsn_samples  # noqa: E402
import opswide_samples  # noqa: E402
import scipy_samples  # noqa: E402
import st_ops_samples  # noqa: E402

SAMPLES.update(nn_samples.registry_samples(f32))
SAMPLES.update(st_ops_samples.registry_samples(f32))
SAMPLES.update(ops27_samples.registry_samples(f32))
SAMPLES.update(opsi_samples.registry_samples(f32))
SAMPLES.update(api_breadth_samples.registry_samples(f32))
SAMPLES.update(opswide_samples.registry_samples(f32))
SAMPLES.update(scipy_samples.registry_samples(f32))
SAMPLES.update(opsb_samples.registry_samples(f32))
SAMPLES.update(opsf_samples.registry_samples(f32))
SAMPLES.update(opsg_samples.registry_samples(f32))
SAMPLES.update(opsh_samples.registry_samples(f32))
SAMPLES.update(opsj_samples.registry_samples(f32))
SAMPLES.update(leftover_samples.registry_samples(f32))
SAMPLES.update(leftover_samples.random_registry_samples(f32))
SAMPLES.update(opsk_samples.registry_samples(f32))
SAMPLES.update(fractional_max_pool_samples.registry_samples(f32))
SAMPLES.update(opsl_samples.registry_samples(f32))
SAMPLES.update(opsn_samples.registry_samples(f32))
SAMPLES.update(opsm_samples.registry_samples(f32))


def _ops():
    return sorted(n for n in REGISTRY if n not in STRUCTURAL)


def test_every_op_has_a_sample():
    missing = [n for n in _ops() if n not in SAMPLES]
    assert not missing, (f"ops without a sample input in tests/ops/test_registry.py SAMPLES: "
                         f"{missing}; add one so their kernel is checked against infer")
    unknown = sorted(set(SAMPLES) - set(REGISTRY))
    assert not unknown, f"SAMPLES names ops that are not registered: {unknown}"


def _agree(value, abstract, where: str):
    if isinstance(abstract, AbstractScalar) and not abstract.is_known:  # a run-time number
        assert isinstance(value, abstract.kind), (where, value, abstract.kind)
        return
    if isinstance(abstract, AbstractScalar):  # a static description (Shape, DType...)
        assert value == abstract.value, (where, value, abstract.value)
        return
    if isinstance(abstract, AbstractTuple):
        assert isinstance(value, tuple) and len(value) == len(abstract.elements), where
        for i, (v, a) in enumerate(zip(value, abstract.elements)):
            _agree(v, a, f"{where}[{i}]")
        return
    assert isinstance(abstract, AbstractTensor), where
    assert isinstance(value, np.ndarray), (where, type(value))
    got = np.asarray(value)
    assert got.dtype == abstract.dtype.np_dtype, (where, got.dtype, abstract.dtype)
    assert len(got.shape) == len(abstract.shape) and all(
        want in (got_dim, -1) for got_dim, want in zip(got.shape, abstract.shape)), (
        where, got.shape, abstract.shape)  # -1: a size known only when the kernel runs


def _symbolic(a):
    """The abstract a tracer would see: no constant value for tensors."""
    if isinstance(a, AbstractTensor) and type(a) is AbstractTensor:
        return AbstractTensor(a.dtype, a.shape)
    if isinstance(a, AbstractTuple):
        return AbstractTuple([_symbolic(e) for e in a.elements], a.is_list)
    return a


@pytest.mark.parametrize("name", [n for n in _ops() if n in SAMPLES])
def test_kernel_agrees_with_infer(name):
    opdef = REGISTRY[name]
    for k, (args, attrs) in enumerate(SAMPLES[name]):
        abstracts = [eager_abstract(a) for a in args]
        out_abs = opdef.infer(*abstracts, **attrs)
        value = opdef.kernel(*[eager_value(a) for a in args], **attrs)
        _agree(value, out_abs, f"{name} sample {k}")
        # the same inference without constant values (what tracing sees) gives the same type,
        # unless the op needs a value (a bool mask index)
        if name == "Getitem" and k == 2:
            continue
        sym = opdef.infer(*[_symbolic(a) for a in abstracts], **attrs)
        _agree(value, sym, f"{name} sample {k} (symbolic)")
