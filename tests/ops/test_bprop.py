"""Backward rules (ops/rules/bprop.py), checked by walking the primitive registry.

Every differentiable, non-structural primitive must have a backward rule and a sample in
``SAMPLES`` here; on each sample ``ms.grad`` of a randomly weighted sum of the op's float64
outputs must equal central finite differences (GRAPH_MODE), PYNATIVE must give the same,
and float16 inputs must get float16 cotangents. A new primitive without a rule or without
a sample fails ``test_bprop_matches_finite_differences[<name>]`` with a message saying so.
"""
import sys
from pathlib import Path

import numpy as np
import pytest

import graphkiln as ms
from graphkiln import Tensor, ops
from graphkiln.ir.primitive import REGISTRY
from graphkiln.ops.defs.sequence import SEQUENCE_OPS

# Handled by the AD engine itself (transforms/autodiff.py), so they need no rule here.
STRUCTURAL = {
    "MakeTuple": "its cotangent is the tuple of its elements' cotangents",
    "TupleGetItem": "routes the cotangent to one element of the tuple",
    "Depend": "passes the cotangent to its value; the dependencies get none",
    "Load": "a weight's read: the cotangent goes to the weight",
    "UpdateState": "monad plumbing, carries no value",
    "Print": "an IO effect without a differentiable value",
    "Switch": "differentiated as a Switch of the branches' backward graphs",
    "While": "tensor while loops are not differentiable yet (a clear GradError)",
    "HyperMap": "the engine differentiates the traced element bodies",
    "NPUAllocFloatStatus": "reads the float-status register",
    "NPUClearFloatStatus": "resets the float-status register",
    "NPUGetFloatStatus": "reads the float-status register",
    **{f"Scatter{k}": "an in-place update of a weight, like Assign"
       for k in ("Add", "Sub", "Mul", "Div", "Max", "Min", "Update", "NdAdd", "NdSub",
                 "NdMul", "NdDiv", "NdMax", "NdMin", "NdUpdate")},
    "InplaceIndexAdd": "an in-place update, like the Scatter ones",
}

# Marked ``differentiable=False``: their outputs carry no gradient, so finite differences
# have nothing to check. A new op may only join with a reason a reader accepts.
NON_DIFFERENTIABLE = {
    "FusedElementwise": "made by the backend's fusion pass after autodiff has run",
    "SparseSoftmaxCrossEntropyWithLogitsGradAndLoss": "made by the backend's sibling merge "
                                                      "after autodiff has run",
    **{n: "scalar op on Python numbers: MindSpore gives a mutable number a zero gradient"
       for n in ("ScalarAdd", "ScalarSub", "ScalarMul", "ScalarDiv", "ScalarFloorDiv",
                 "ScalarMod", "ScalarPow", "ScalarEq", "ScalarNe", "ScalarLt", "ScalarLe",
                 "ScalarGt", "ScalarGe", "BoolAnd", "BoolOr", "BoolNot", "ScalarUsub",
                 "ScalarCast", "ScalarToTensor", "TupleToArray", "ScalarMax", "ScalarMin",
                 "MakeSlice")},
    **{n: "dynamic length sequence op with a number or bool result, or a piece of a "
          "sequence op's backward rule" for n in SEQUENCE_OPS
       if not REGISTRY[n].differentiable},
    "Argmax": "integer indices: piecewise constant in the input",
    "TensorDump": "an IO effect (a file written) without a differentiable value; gradients "
                  "flow around it (tests/ops/test_tensor_dump.py)",
    "Lstsq": "MindSpore 2.10 defines no gradient for it (\"Lstsq's bprop not defined\")",
    "LayerNormGradGrad": "MindSpore 2.10 defines no gradient for it (\"LayerNormGradGrad's "
                         "bprop not defined\")",
    "PSROIPoolingGrad": "MindSpore 2.10 defines no gradient for it (\"PSROIPoolingGrad's "
                        "bprop not defined\")",
    "Argmin": "integer indices: piecewise constant in the input",
    "Equal": "boolean output", "NotEqual": "boolean output",
    "Greater": "boolean output", "GreaterEqual": "boolean output",
    "Less": "boolean output", "LessEqual": "boolean output",
    "LogicalAnd": "boolean output", "LogicalOr": "boolean output",
    "LogicalXor": "boolean output", "LogicalNot": "boolean output",
    "BitwiseAnd": "integer or bool operands", "BitwiseOr": "integer or bool operands",
    "BitwiseXor": "integer or bool operands",
    "OneHot": "a function of integer indices; MindSpore gives zero cotangents",
    "OnesLike": "its value does not depend on the input's values",
    "ZerosLike": "its value does not depend on the input's values",
    "Range": "its values depend on the bounds only through a count (MindSpore has no "
             "backward rule either)",
    **{name: "random draws (MindSpore has no backward rule either)" for name in (
        "StandardNormal", "UniformReal", "StandardLaplace", "UniformInt", "RandomShuffle",
        "RandomPoisson", "RandomGamma", "RandomChoiceWithMask", "Multinomial", "Bernoulli")},
    "NPUAllocFloatStatus": "reads the float-status register",
    "NPUClearFloatStatus": "resets the float-status register",
    "NPUGetFloatStatus": "reads the float-status register",
    "Switch": "structural (see STRUCTURAL)",
    "WhileGrad": "created by autodiff itself as the backward of While",
    "BoundingBoxDecode": "box arithmetic for detection heads; MindSpore gives zero cotangents",
    "NMSWithMask": "a selection: sorted boxes, indices and a keep mask",
    "NonZero": "integer indices: piecewise constant in the input",
    "MapUniform": "integer ids mapped to integer ids",
    "PadAndShift": "integer ids placed into a padding of -1",
    "Unique": "a selection of distinct values and integer positions (MindSpore has no "
              "gradient for it)",
    "UniqueWithPad": "Unique padded to its input's size (MindSpore has no gradient for it)",
    **{n: "box arithmetic for detection heads; MindSpore gives zero cotangents"
       for n in ("IOU", "BoundingBoxEncode")},
    "CheckValid": "boolean output",
    "IgammaGradA": "the a-derivative of Igamma, used only by Igamma's backward rule (a "
                   "second derivative in a is not implemented)",
}

# MindSpore's kernels for these take float32/float64 only (float16 is a TypeError there
# and here), so there is no float16 cotangent to check.
NO_FLOAT16 = {"Igamma", "Igammac", "Betainc"}

# Optimizer steps and synchronisation: memory effects on weights (like Assign) or no value;
# autodiff never differentiates through them.
WEIGHT_UPDATES = {
    name: "an optimizer step: updates weights in place (a memory effect, like Assign)"
    for name in ("Adam", "AdamWeightDecay", "ApplyAdagrad", "ApplyAdamWithAmsgrad",
                 "ApplyAdamWithAmsgradV2",
                 "ApplyCenteredRMSProp", "ApplyMomentum", "ApplyRMSProp", "SGD",
                 "ApplyAdaMax", "ApplyAdadelta", "ApplyAdagradV2", "ApplyAddSign", "ApplyFtrl",
                 "ApplyGradientDescent", "ApplyPowerSign", "ApplyProximalAdagrad",
                 "ApplyProximalGradientDescent", "FusedSparseAdam", "FusedSparseFtrl",
                 "FusedSparseLazyAdam", "FusedSparseProximalAdagrad", "SparseApplyAdagrad",
                 "SparseApplyAdagradV2", "SparseApplyFtrl", "SparseApplyRMSProp")}
WEIGHT_UPDATES["Barrier"] = "a collective synchronisation point without a value"
WEIGHT_UPDATES["StopGradient"] = "its gradient is zero by definition"
for _meta in ("DType", "Rank", "Shape", "TensorShape", "Size", "TopTypeof", "ConcatOffset"):
    WEIGHT_UPDATES[_meta] = "returns the input's type or shape metadata, not its values"
WEIGHT_UPDATES["FloatStatus"] = "reads the float-status register"
WEIGHT_UPDATES["Raise"] = "raises the user's exception in a graph; no value to differentiate"
WEIGHT_UPDATES["Assert"] = "raises when its condition is False; no value to differentiate"
WEIGHT_UPDATES["PyExecute"] = "calls Python at run time (the fallback); its result is opaque"
WEIGHT_UPDATES["RunBackwardHook"] = "calls a backward hook inside a backward graph (never " \
    "differentiated again)"
for _kind in ("Scalar", "Tensor", "Image", "Histogram"):
    WEIGHT_UPDATES[f"{_kind}Summary"] = "an IO effect (a summary value) with a placeholder result"

# Rules whose finite-difference check needs what a sample of Tensors cannot give, so it is
# made elsewhere.
CHECKED_ELSEWHERE = {
    **{n: "float16/float32 only (no float64 sample here): checked against finite "
          "differences in float32 by tests/ops/test_activations_arith.py"
       for n in ("SoftShrink", "SoftShrinkGrad", "SquareSumAll", "PReLU")},
    **{n: "point-to-point transfers need a peer process: their gradients (Send's is a "
          "Receive, Receive's a Send) are checked on two processes by "
          "tests/communication/scripts/point_to_point.py" for n in ("Send", "Receive")},
    **{n: "takes or gives a dynamic length sequence, which exists only in graphs: checked "
          "by tests/frontend/test_sequence_grad.py"
       for n in SEQUENCE_OPS if REGISTRY[n].differentiable},
    **{n: "complex-valued: its gradient (df/da + i df/db for z = a + bi) is checked against "
          "finite differences of both parts in tests/ops/test_complex_grad.py"
       for n in ("Complex", "Real", "Imag", "Conj", "Angle")},
    "Assign": "MindSpore defines its rule other than as the derivative (the variable's "
              "cotangent passes on and the value gets none): "
              "tests/frontend/test_branch_writes.py compares with recorded gradients",
}

EPS, RTOL, ATOL = 1e-6, 1e-5, 1e-7


# ------------------------------------------------------------------ sample inputs
# Inputs whose cotangent MindSpore defines as zero rather than the derivative (checked against
# MindSpore's recorded gradients in tests/ops/test_census_nn_ops.py): left out of the FD check.
ZERO_BY_DEFINITION = {"SigmoidCrossEntropyWithLogits": (1,),
                      "SoftmaxCrossEntropyWithLogits": (1,),
                      "Betainc": (0, 1)}  # (checked against MindSpore in test_special_ops)
# Outputs whose cotangent MindSpore's backward rule ignores (SoftmaxCrossEntropyWithLogits'
# second output, the gradient it hands back): left out of the objective.
IGNORED_OUTPUTS = {"SoftmaxCrossEntropyWithLogits": (1,)}

# name -> list of samples; a sample is ``rng -> (args, attrs)``. NumPy float64 arrays are
# differentiated (also inside tuples), other arrays (indices, masks) become constant Tensors.
# Inputs stay away from kinks (ReLU/Abs at 0, ties of max, jumps of floor).

def n(*shape):
    return lambda r: r.standard_normal(shape)


def u(lo, hi, *shape):
    return lambda r: r.uniform(lo, hi, shape)


def away(*shape):
    """Normal values at least 0.1 away from zero (for |x|, ReLU, sign changes)."""
    def make(r):
        v = r.standard_normal(shape)
        return np.where(v >= 0, v + 0.1, v - 0.1)
    return make


def ints(values, dtype=np.int32):
    return lambda r: np.array(values, dtype)


def mask(values):
    return lambda r: np.array(values, np.bool_)


def const(v):
    return lambda r: v


def s(*args, **attrs):
    """A sample: each arg is a maker ``rng -> value``, a tuple of makers or a constant."""
    def make(r):
        def build(a):
            if isinstance(a, tuple):
                return tuple(build(e) for e in a)
            v = a(r) if callable(a) else a
            # indices and masks are constants (a traced bool index would be an error)
            return Tensor(v) if isinstance(v, np.ndarray) and v.dtype != np.float64 else v
        return build(args), attrs
    return make


def _rows_summing_to_one(r, *shape):
    v = r.uniform(0.1, 1.0, shape)
    return v / v.sum(axis=-1, keepdims=True)


def _binary_samples(x=None, y=None):
    x, y = x or n, y or n
    return [s(x(2, 3), y(3)), s(x(2, 1), y(1, 3)), s(x(3), 1.5), s(x(2, 3), y(2, 3))]


SAMPLES = {
    "Add": _binary_samples() + [s(2.0, n(3))],
    "Sub": _binary_samples() + [s(2.0, n(3))],
    "Mul": _binary_samples() + [s(-0.5, n(2, 3))],
    "Div": _binary_samples(y=lambda *sh: u(0.5, 2.0, *sh)) + [s(2.0, u(0.5, 2.0, 3))],
    "FloorDiv": [s(u(0.1, 0.9, 2, 3), u(1.1, 2.0, 3)), s(n(3), 0.7)],
    "FloorMod": [s(u(0.1, 0.9, 2, 3), u(1.1, 2.0, 3)), s(u(2.1, 2.9, 3), u(1.1, 1.4, 3)),
                 s(u(0.1, 0.9, 3), 1.5)],
    # x / y > 0 only: there MindSpore's Mod rule (floor) is the derivative (trunc == floor)
    "Mod": [s(u(0.1, 0.9, 2, 3), u(1.1, 2.0, 3)), s(u(2.1, 2.9, 3), u(1.1, 1.4, 3)),
            s(u(-2.9, -2.1, 3), u(-1.4, -1.1, 3)), s(u(0.1, 0.9, 3), 1.5)],
    "Pow": [s(u(0.5, 2.0, 2, 3), n(3)), s(u(0.5, 2.0, 3), 2.5), s(n(3), 2),
            s(2.0, n(2, 3)), s(u(-2.0, -0.5, 3), 3.0)],
    "Maximum": [s(n(2, 3), n(3)), s(away(3), 0.0)],
    "Minimum": [s(n(2, 3), n(1, 3)), s(away(3), 0.0)],
    "Neg": [s(n(2, 3))],
    "Abs": [s(away(2, 3))],
    "Square": [s(n(2, 3))],
    "Exp": [s(n(2, 3))],
    "Log": [s(u(0.5, 2.0, 2, 3))],
    "Sqrt": [s(u(0.5, 2.0, 2, 3))],
    "Rsqrt": [s(u(0.5, 2.0, 2, 3))],
    "Sin": [s(n(2, 3))],
    "Cos": [s(n(2, 3))],
    "Tanh": [s(n(2, 3))],
    "Sigmoid": [s(n(2, 3)), s(u(-30, -20, 3))],
    "ReLU": [s(away(2, 3))],
    "ReluGrad": [s(n(2, 3), away(2, 3))],
    "ReLU6Grad": [s(n(2, 3), u(0.5, 5.5, 2, 3)), s(n(2, 3), u(-3.0, -0.5, 2, 3))],
    "GeLU": [s(n(2, 3) , approximate="tanh"), s(n(2, 3), approximate="none"),
             s(u(-4, 4, 8), approximate="tanh")],
    "HSwish": [s(lambda r: np.array([-4.0, -2.5, -0.3, 0.7, 2.9, 3.4]))],
    "Softplus": [s(n(2, 3)), s(u(-30, 30, 6))],
    "Erf": [s(n(2, 3)), s(u(-3, 3, 6))],
    "MatMul": [s(n(2, 3), n(3, 4)), s(n(3, 2), n(3, 4), transpose_a=True),
               s(n(2, 3), n(4, 3), transpose_b=True),
               s(n(3, 2), n(4, 3), transpose_a=True, transpose_b=True)],
    "BatchMatMul": [s(n(2, 2, 3), n(2, 3, 4)), s(n(2, 2, 3), n(3, 4)),
                    s(n(1, 3, 2), n(3, 4, 3), transpose_a=True, transpose_b=True),
                    s(n(2, 1, 2, 3), n(3, 4, 3), transpose_b=True),
                    s(n(2, 3), n(2, 3, 4), ), s(n(2, 3, 2), n(2, 3, 4), transpose_a=True)],
    "Cast": [s(n(2, 3), ms.float64)],
    "Fill": [s(ms.float64, (2, 3), 1.5)],
    "Zeros": [s((2, 3), ms.float64)],
    "Ones": [s((2, 3), ms.float64)],
    "TensorMove": [s(n(2, 3))],
    "AssignAdd": [s(n(2, 3), n(2, 3))],
    "AssignSub": [s(n(2, 3), n(2, 3))],
    "InplaceCopy": [s(n(2, 3), n(2, 3))],
    "Reshape": [s(n(2, 3), (3, -1)), s(n(2, 3), (6,))],
    "Transpose": [s(n(2, 3, 4), (2, 0, 1)), s(n(2, 3), (-1, 0))],
    "ExpandDims": [s(n(2, 3), -1), s(n(3), 0)],
    "Squeeze": [s(n(1, 3, 1)), s(n(1, 3, 1), axis=0), s(n(1, 3, 1), axis=(0, 2))],
    "Tile": [s(n(2, 3), (2, 1, 2)), s(n(2, 3), (2,)), s(n(2, 1), (1, 3))],
    "BroadcastTo": [s(n(3), shape=(2, 3)), s(n(2, 1), shape=(4, -1, 3))],
    "Select": [s(mask([[True, False, True], [False, False, True]]), n(2, 3), n(3)),
               s(mask([True, False, True]), n(2, 3), 2.0),
               s(mask([True, False]), 0.5, n(2))],
    "AddN": [s((n(2, 3), n(2, 3), n(2, 3)))],
    "Stack": [s((n(2, 3), n(2, 3)), axis=1), s((n(3),), axis=-1)],
    "Concat": [s((n(1, 3), n(2, 3)), axis=0), s((n(2, 3), n(2, 1)), axis=-1)],
    "Split": [s(n(6, 2), axis=0, output_num=3), s(n(2, 4), axis=-1, output_num=2)],
    "SplitV": [s(n(6, 2), size_splits=(1, -1), split_dim=0, num_split=2),
               s(n(2, 5), size_splits=(2, 0, 3), split_dim=1, num_split=3)],
    "Gather": [s(n(2, 3), ints([0, 2, 2, -1]), 1), s(n(4, 2), ints([[3, 0], [3, 3]]), 0),
               s(n(2, 3, 4), ints([[1, 1], [0, 3]]), 2, batch_dims=1),
               s(n(2, 3, 4), ints([[1, 1, 0], [0, 2, 2]], np.int64), 1, batch_dims=1),
               s(n(2, 3, 4, 2), ints([[[0, 3], [1, 1], [2, 0]], [[3, 3], [0, 0], [1, 2]]]), 2,
                 batch_dims=2)],
    "Getitem": [s(n(2, 3), 1), s(n(2, 3), -1), s(n(4, 3), slice(None, None, 2)),
                s(n(2, 3), (slice(None), None, ints([[0, 0], [2, 1]]))),
                s(n(2, 3), (Ellipsis, 1)), s(n(3, 3), ints([2, 0, 2])),
                s(n(2, 3), mask([True, False])), s(n(2, 3, 4), (ints([1, 0, 1]), 0, slice(1, 3))),
                s(n(3, 4), (ints([0, 2]), slice(None), None))],
    "Setitem": [s(n(3, 4), 1, n(4)), s(n(3, 4), (slice(None), ints([0, 2])), n(3, 1)),
                s(n(2, 3), mask([[True, False, True], [False, True, False]]), n(1)),
                s(n(3, 4), (ints([2, 0]), slice(1, 3)), n(2)), s(n(2, 3), 0, 2.0)],
    "MaskedSelect": [s(n(2, 3), mask([[True, False, True], [False, True, False]])),
                     s(n(2, 3), mask([True, False, True]))],
    "MaskedSelectGrad": [s(n(2, 3), mask([True, False, True]), n(4))],
    "MaskedScatter": [s(n(2, 3), mask([True, False, True]), n(2, 3)),
                      s(n(2, 3), mask([[False, True, True], [True, False, False]]), n(5))],
    "GetitemGrad": [s(n(2, 2), (ints([0, 0]), slice(None, None, 2)), shape=(3, 3)),
                    s(n(3), 1, shape=(2, 3)), s(n(3), 1, n(2, 3))],
    "ConcatGrad": [s(n(5, 3), (n(2, 3), n(3, 3)), axis=0),
                   s(n(2, 5), (n(2, 1), n(2, 4)), axis=-1)],
    "SumToLike": [s(n(2, 3), n(1, 3)), s(n(4, 2, 3), n(3)), s(n(2, 3), n(2, 3))],
    "ReduceSum": [s(n(2, 3), ()), s(n(2, 3), 1, keep_dims=True), s(n(2, 3, 2), (0, 2)),
                  s(n(2, 3), (), skip_mode=True), s(n(2, 3), -1)],
    "ReduceMean": [s(n(2, 3), ()), s(n(2, 3), 1, keep_dims=True), s(n(2, 3, 2), (0, -1)),
                   s(n(2, 3), (), skip_mode=True)],
    "ReduceMax": [s(n(2, 3), ()), s(n(2, 3), 1, keep_dims=True), s(n(2, 3, 2), (0, 2))],
    "ReduceMin": [s(n(2, 3), ()), s(n(2, 3), 0, keep_dims=True), s(n(2, 3, 2), (1,))],
    "ReduceProd": [s(u(0.5, 2.0, 2, 3), ()), s(n(2, 3), 1, keep_dims=True),
                   s(lambda r: np.array([[0.0, 1.5, -2.0], [0.5, 0.0, 0.0]]), 1),
                   s(lambda r: np.array([[0.0, 1.5], [0.5, 3.0], [1.0, 0.0]]), ())],
    "ArgMaxWithValue": [s(n(2, 3), axis=1, keep_dims=True), s(n(3)), s(n(2, 3), axis=0)],
    "ArgMinWithValue": [s(n(2, 3), axis=0), s(n(2, 3, 2), axis=-1, keep_dims=True)],
    "Softmax": [s(n(2, 3), axis=-1), s(n(2, 3), axis=(0, 1)), s(n(2, 3), axis=0)],
    "LogSoftmax": [s(n(2, 3), axis=0), s(n(2, 3), axis=-1)],
    "BiasAdd": [s(n(2, 3, 4), n(3)), s(n(2, 4, 3), n(3), data_format="NHWC")],
    "LayerNorm": [s(n(2, 3, 4), n(3, 4), n(3, 4)),
                  s(n(2, 3), n(3), n(3), begin_norm_axis=-1, begin_params_axis=-1),
                  s(n(2, 3, 4), n(3, 4), n(3, 4), begin_norm_axis=2, begin_params_axis=1),
                  s(n(2, 3), n(2, 3), n(2, 3), begin_norm_axis=1, begin_params_axis=0)],
    "Dropout": [s(n(2, 3), keep_prob=0.5, Seed0=1), s(n(4, 3), 3, keep_prob=0.9)],
    "RealDiv": _binary_samples(y=lambda *sh: u(0.5, 2.0, *sh)),
    "Reciprocal": [s(u(0.5, 2.0, 2, 3))],
    **{k: [s(u(0.1, 0.4, 2, 3))] for k in ("Sign", "Floor", "Ceil", "Round")},
    "Trunc": [s(u(0.1, 0.9, 2, 3))],
    "TruncateDiv": [s(u(2.1, 2.9, 2, 3), u(1.0, 1.1, 3))],
    "TruncateMod": [s(u(2.1, 2.9, 2, 3), u(1.0, 1.1, 3)), s(u(-2.9, -2.1, 3), 1.0)],
    "Xdivy": [s(n(2, 3), u(0.5, 2.0, 3)), s(n(3), u(0.5, 2.0, 2, 3))],
    "Mish": [s(n(2, 3)), s(u(-8.0, 8.0, 5))],
    "ReLU6": [s(u(-3.0, 2.5, 2, 3)), s(u(3.5, 9.0, 4))],
    "BesselI0": [s(u(-4.0, 4.0, 2, 3))],
    "BesselI1": [s(u(-4.0, 4.0, 2, 3)), s(u(11.0, 12.0, 2))],
    "SeLU": [s(away(2, 3))],
    "MaskedFill": [s(n(2, 3), mask([True, False, True]), n()), s(n(3), mask([[1, 0, 0]]), 2.5)],
    "SpaceToDepth": [s(n(1, 2, 4, 4), block_size=2), s(n(2, 1, 3, 6), block_size=3)],
    "ReverseV2": [s(n(3, 4), axis=(1,)), s(n(2, 3, 2), axis=(0, -1))],
    "ReverseSequence": [s(n(3, 4), ints([1, 2, 4]), seq_dim=1, batch_dim=0),
                        s(n(2, 3, 2), ints([3, 0], np.int64), seq_dim=1, batch_dim=2)],
    "Renorm": [s(away(3, 4), p=2, dim=0, maxnorm=0.05), s(away(3, 4), p=1, dim=1, maxnorm=0.1),
               s(u(0.5, 1.0, 2, 3), p=3, dim=-1, maxnorm=50.0)],
    **{k: [s(u(-0.8, 0.8, 2, 3))] for k in ("Log1p", "Expm1", "Tan", "Atan", "Sinh", "Cosh",
                                             "Asin", "Acos")},
    "SquaredDifference": _binary_samples(),
    "Atan2": _binary_samples(y=lambda *sh: u(0.5, 2.0, *sh)),
    # both the series (x < a + 1) and the continued-fraction (x >= a + 1) regions
    **{k: [s(u(0.3, 4.0, 2, 3), u(0.2, 8.0, 3)), s(u(1.5, 3.0, 4), u(4.0, 9.0, 4)),
           s(u(2.0, 6.0, 3, 1), u(0.1, 1.0, 1, 2))] for k in ("Igamma", "Igammac")},
    # MindSpore's rule gives a and b zeros (ZERO_BY_DEFINITION): x's gradient is checked
    "Betainc": [s(u(0.5, 5.0, 2, 3), u(0.5, 5.0, 2, 3), u(0.05, 0.95, 2, 3))],
    "Lgamma": [s(u(0.2, 6.0, 2, 3)), s(u(-2.8, -2.2, 4))],
    "Digamma": [s(u(0.2, 6.0, 2, 3)), s(u(-2.8, -2.2, 4))],
    "Polygamma": [s(Tensor(np.int64(1)), u(0.2, 6.0, 2, 3)),
                  s(Tensor(np.int64(3)), u(-2.8, -2.2, 4)),
                  s(Tensor(np.int32(0)), u(1.0, 3.0, 3))],
    "Sort": [s(n(3, 4)), s(n(3, 4), axis=0, descending=True), s(n(2, 3, 2), axis=1)],
    "Unstack": [s(n(3, 4)), s(n(2, 3, 2), axis=-1)],
    "Identity": [s(n(2, 3))],
    # a pyfunc with the user's bprop (tanh; a two-output product whose y is broadcast, so
    # its gradient is reduced back to y's shape)
    "Custom": [s(n(2, 3), func=np.tanh, out_shape=lambda sh: sh, out_dtype=lambda t: t,
                 bprop=lambda x, out, dout: (dout * (1 - out * out),)),
               s(n(2, 3), n(3), func=lambda x, y: (x * y, x + y),
                 out_shape=lambda a, b: (a, a), out_dtype=lambda a, b: (a, a),
                 bprop=lambda x, y, out, dout: (dout[0] * y + dout[1], dout[0] * x + dout[1]))],
    # a hook that keeps the gradients (None) or gives them back: the rule must pass them on
    "HookBackward": [s(n(2, 3), hook_fn=lambda grads: None),
                     s(n(2, 3), n(3,), hook_fn=lambda grads: tuple(g * 1 for g in grads))],
    "Eye": [s(3, 2, ms.float64)],
    "Pad": [s(n(2, 3), paddings=((1, 0), (0, 2))),
            s(n(2, 1, 2), paddings=((0, 0), (2, 1), (0, 1)))],
    "Padding": [s(n(3, 1), pad_dim_size=4), s(n(2, 2, 1), pad_dim_size=1)],
    "MatrixSolve": [s(lambda r: r.standard_normal((3, 3)) + 4 * np.eye(3), n(3, 2)),
                    s(lambda r: r.standard_normal((2, 2, 2)) + 3 * np.eye(2), n(2, 2, 1),
                      adjoint=True)],
    "Meshgrid": [s((n(3), n(4), n(2))), s((n(3), n(2)), indexing="ij")],
    # repeated indices accumulate; a negative one wraps
    "GatherD": [s(n(3, 4), 1, ints([[0, 0, 3], [1, -1, 2], [2, 2, 2]])),
                s(n(3, 4), 0, ints([[0, 2, 2, 1], [0, 0, 1, 1]], np.int64))],
    # labels are distributions (rows summing to 1), as the backward rule assumes
    "SoftmaxCrossEntropyWithLogits": [s(n(3, 4), lambda r: _rows_summing_to_one(r, 3, 4))],
    "SparseSoftmaxCrossEntropyWithLogits": [s(n(3, 4), ints([2, 0, 3])),
                                            s(n(3, 4), ints([1, 1, 0]), is_grad=True)],
    "Slice": [s(n(3, 4), (1, 1), (2, -1)), s(n(2, 3, 2), (0, 1, 0), (2, 2, 1))],
    "StridedSlice": [s(n(3, 4, 5), (1, 0, 4), (3, 4, 0), (1, 2, -2)),
                     s(n(3, 4), (1, 0), (2, 4), (1, 1), shrink_axis_mask=1)],
    "Flatten": [s(n(2, 3, 2))],
    "TopK": [s(n(2, 5), 3), s(n(4), 2)],
    "GatherNd": [s(n(3, 4), ints([[0, 1], [2, 3], [0, 1]])), s(n(3, 4), ints([[2], [0]]))],
    "ScatterNd": [s(ints([[1], [2], [1]]), n(3, 4), (4, 4))],
    **{f"TensorScatter{k}": [s(u(0.5, 1.5, 3, 4), ints([[0], [2]]), u(2.0, 3.0, 2, 4))]
       for k in ("Add", "Sub", "Mul", "Div", "Max", "Update")},
    "TensorScatterMin": [s(u(0.5, 1.5, 3, 4), ints([[0], [2]]), n(2, 4))],
    # collectives in a world of one process (2-process checks: tests/communication)
    "AllReduce": [s(n(2, 3), op="sum", group="hccl_world_group"),
                  s(away(3), op="max", group="hccl_world_group"),
                  s(away(3), op="prod", group="hccl_world_group")],
    "AllGather": [s(n(2, 3), group="hccl_world_group")],
    "ReduceScatter": [s(n(2, 3), op="sum", group="hccl_world_group")],
    "Broadcast": [s((n(2, 3), n(3)), root_rank=0, group="hccl_world_group")],
    "AlltoAll": [s(n(2, 3), split_count=1, split_dim=0, concat_dim=1,
                   group="hccl_world_group")],
    "AlltoAllV": [s(n(2, 3), (6,), (6,), group="hccl_world_group", block_size=1)],
    "Reduce": [s(n(2, 3), dest_rank=0, op="sum", group="hccl_world_group")],
    "CollectiveGather": [s(n(2, 3), dest_rank=0, group="hccl_world_group")],
    "CollectiveScatter": [s(n(2, 3), src_rank=0, group="hccl_world_group")],
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

SAMPLES.update(nn_samples.bprop_samples(n, s, u))
SAMPLES.update(st_ops_samples.bprop_samples(n, s, u))
SAMPLES.update(ops27_samples.bprop_samples(n, s, u))
SAMPLES.update(api_breadth_samples.bprop_samples(n, s, u))
SAMPLES.update(opswide_samples.bprop_samples(n, s, u))
NON_DIFFERENTIABLE.update(opswide_samples.NON_DIFFERENTIABLE)
CHECKED_ELSEWHERE.update(opswide_samples.CHECKED_ELSEWHERE)
ZERO_BY_DEFINITION.update(opswide_samples.ZERO_BY_DEFINITION)
NO_FLOAT16.update(opswide_samples.NO_FLOAT16)
IGNORED_OUTPUTS.update(opswide_samples.IGNORED_OUTPUTS)
SAMPLES.update(scipy_samples.bprop_samples(n, s, u))
SAMPLES.update(fractional_max_pool_samples.bprop_samples(n, s, u))
NON_DIFFERENTIABLE.update(fractional_max_pool_samples.NON_DIFFERENTIABLE)
NO_FLOAT16.update(fractional_max_pool_samples.NO_FLOAT16)
NON_DIFFERENTIABLE.update(scipy_samples.NON_DIFFERENTIABLE)
NO_FLOAT16.update(scipy_samples.NO_FLOAT16)
NON_DIFFERENTIABLE.update(st_ops_samples.NON_DIFFERENTIABLE)
NON_DIFFERENTIABLE.update(ops27_samples.NON_DIFFERENTIABLE)
NON_DIFFERENTIABLE.update(api_breadth_samples.NON_DIFFERENTIABLE)
NO_FLOAT16.update(api_breadth_samples.NO_FLOAT16)
CHECKED_ELSEWHERE.update(st_ops_samples.CHECKED_ELSEWHERE)
CHECKED_ELSEWHERE.update(ops27_samples.CHECKED_ELSEWHERE)
CHECKED_ELSEWHERE.update(api_breadth_samples.CHECKED_ELSEWHERE)
IGNORED_OUTPUTS.update(ops27_samples.IGNORED_OUTPUTS)
NO_FLOAT16.update(ops27_samples.NO_FLOAT16)
ZERO_BY_DEFINITION.update(st_ops_samples.ZERO_BY_DEFINITION)
SAMPLES.update(opsb_samples.bprop_samples(n, s, u))
SAMPLES.update(opsf_samples.bprop_samples(n, s, u))
SAMPLES.update(opsg_samples.bprop_samples(n, s, u))
SAMPLES.update(opsi_samples.bprop_samples(n, s, u))
NON_DIFFERENTIABLE.update(opsg_samples.NON_DIFFERENTIABLE)
NON_DIFFERENTIABLE.update(opsh_samples.NON_DIFFERENTIABLE)
SAMPLES.update(opsj_samples.bprop_samples(n, s, u))
SAMPLES.update(leftover_samples.bprop_samples(n, s, u))
NON_DIFFERENTIABLE.update(leftover_samples.NON_DIFFERENTIABLE)
NO_FLOAT16.update(leftover_samples.NO_FLOAT16)
ZERO_BY_DEFINITION.update(leftover_samples.ZERO_BY_DEFINITION)
NON_DIFFERENTIABLE.update(opsj_samples.NON_DIFFERENTIABLE)
SAMPLES.update(opsk_samples.bprop_samples(n, s, u))
NON_DIFFERENTIABLE.update(opsk_samples.NON_DIFFERENTIABLE)
CHECKED_ELSEWHERE.update(opsh_samples.CHECKED_ELSEWHERE)
CHECKED_ELSEWHERE.update(opsg_samples.CHECKED_ELSEWHERE)
NON_DIFFERENTIABLE.update(opsf_samples.NON_DIFFERENTIABLE)
NON_DIFFERENTIABLE.update(opsb_samples.NON_DIFFERENTIABLE)
SAMPLES.update(opsl_samples.bprop_samples(n, s, u))
SAMPLES.update(opsn_samples.bprop_samples(n, s, u))
NON_DIFFERENTIABLE.update(opsn_samples.NON_DIFFERENTIABLE)
NON_DIFFERENTIABLE.update(opsl_samples.NON_DIFFERENTIABLE)
SAMPLES.update(opsm_samples.bprop_samples(n, s, u))
NON_DIFFERENTIABLE.update(opsm_samples.NON_DIFFERENTIABLE)


# ------------------------------------------------------------------ harness

def _leaves(args) -> list:
    """The arrays of ``args`` (top level or one tuple deep), in order."""
    out = []
    for a in args:
        for e in (a if isinstance(a, tuple) else (a,)):
            if isinstance(e, np.ndarray):
                out.append(e)
    return out


def _rebuild(args, leaves) -> tuple:
    """``args`` with its arrays replaced by ``leaves`` (no recursion: this runs inside
    traced code)."""
    it = iter(leaves)
    out = []
    for a in args:
        if isinstance(a, tuple):
            a = tuple(next(it) if isinstance(e, np.ndarray) else e for e in a)
        elif isinstance(a, np.ndarray):
            a = next(it)
        out.append(a)
    return tuple(out)


def _objective(name, args, attrs, weights=None):
    """``fn(*leaf tensors)``: the op's float64 outputs, each summed with fixed random weights."""
    opdef = REGISTRY[name]

    def fn(*leaves):
        out = opdef(*_rebuild(args, leaves), **attrs)
        outs = out if isinstance(out, tuple) else (out,)
        total = None
        for o, w in zip(outs, weights):
            if w is None:
                continue
            term = ops.reduce_sum(ops.mul(o, w))
            total = term if total is None else ops.add(total, term)
        return total
    return fn


def _weights(name, args, attrs, rng, dtype=np.float64):
    """Random weights for the float64 outputs (None: the output is left out)."""
    out = REGISTRY[name](*_rebuild(args, [Tensor(a) for a in _leaves(args)]), **attrs)
    outs = out if isinstance(out, tuple) else (out,)
    ignored = IGNORED_OUTPUTS.get(name, ())
    return [Tensor(rng.standard_normal(o.shape).astype(dtype))
            if o.dtype is ms.float64 and k not in ignored else None for k, o in enumerate(outs)]


def _grad(fn, leaves, positions):
    g = ms.grad(fn, grad_position=tuple(positions))(*[Tensor(a) for a in leaves])
    return [g] if isinstance(g, Tensor) else list(g)


def _numeric(fn, leaves, i):
    base = [a.copy() for a in leaves]
    g = np.zeros(base[i].shape)
    for idx in np.ndindex(base[i].shape):
        vals = []
        for sign in (1, -1):
            pert = [b.copy() for b in base]
            pert[i][idx] += sign * EPS
            vals.append(float(fn(*[Tensor(p) for p in pert]).asnumpy()))
        g[idx] = (vals[0] - vals[1]) / (2 * EPS)
    return g


def _differentiable_ops():
    return sorted(n for n, d in REGISTRY.items() if d.differentiable and n not in STRUCTURAL
                  and n not in CHECKED_ELSEWHERE)


def test_structural_names_are_registered():
    unknown = sorted(set(STRUCTURAL) - set(REGISTRY))
    assert not unknown, f"STRUCTURAL names ops that are not registered: {unknown}"
    stale = sorted(set(SAMPLES) - set(_differentiable_ops()))
    assert not stale, f"SAMPLES names ops that are not differentiable primitives: {stale}"


def test_every_primitive_is_checked_or_exempt_with_a_reason():
    """Each registered op is FD-checked (a SAMPLES entry), structural, or non-differentiable
    with a reason; an op with a backward rule is always FD-checked."""
    unaccounted = sorted(n for n, d in REGISTRY.items() if n not in SAMPLES
                         and n not in STRUCTURAL and n not in NON_DIFFERENTIABLE
                         and n not in WEIGHT_UPDATES and n not in CHECKED_ELSEWHERE)
    assert not unaccounted, (
        f"primitives without a finite-difference check or a reasoned exemption: "
        f"{unaccounted}; add a sample to SAMPLES (or a reason to NON_DIFFERENTIABLE)")
    silent = sorted(n for n, d in REGISTRY.items() if not d.differentiable
                    and n not in NON_DIFFERENTIABLE and n not in WEIGHT_UPDATES)
    assert not silent, f"differentiable=False without a reason in NON_DIFFERENTIABLE: {silent}"
    stale = sorted(n for n in NON_DIFFERENTIABLE if n not in REGISTRY
                   or REGISTRY[n].differentiable and n not in STRUCTURAL)
    assert not stale, f"NON_DIFFERENTIABLE names ops that are differentiable: {stale}"
    unchecked = sorted(n for n, d in REGISTRY.items() if d.bprop is not None
                       and n not in SAMPLES and n not in CHECKED_ELSEWHERE)
    assert not unchecked, f"backward rules without a finite-difference sample: {unchecked}"


@pytest.mark.parametrize("name", sorted(NON_DIFFERENTIABLE.keys() - STRUCTURAL.keys()))
def test_non_differentiable_ops_have_no_backward_rule(name):
    assert REGISTRY[name].bprop is None, (
        f"'{name}' has a backward rule but is marked differentiable=False, so the rule is "
        f"never checked against finite differences")


@pytest.mark.parametrize("name", _differentiable_ops())
def test_bprop_matches_finite_differences(name):
    opdef = REGISTRY[name]
    assert opdef.bprop is not None, (
        f"primitive '{name}' is differentiable but has no backward rule: add one with "
        f"@bprop('{name}') in graphkiln/ops/rules/bprop.py (or mark the OpDef "
        f"differentiable=False)")
    assert name in SAMPLES, (
        f"primitive '{name}' has no sample input in tests/ops/test_bprop.py SAMPLES, so its "
        f"backward rule is not checked against finite differences; add one")
    rng = np.random.default_rng(sum(map(ord, name)))
    for k, make in enumerate(SAMPLES[name]):
        args, attrs = make(rng)
        leaves = _leaves(args)
        positions = [i for i in range(len(leaves)) if i not in ZERO_BY_DEFINITION.get(name, ())]
        where = f"{name} sample {k} ({attrs})"
        if not positions:  # creation ops: the rule gives no cotangent for any input
            ins = _rebuild(args, [Tensor(a) for a in leaves])
            out = opdef(*ins, **attrs)
            cts = opdef.bprop(*ins, out, ops.ones_like(out), **attrs)
            assert len(cts) == len(ins) and all(c is None for c in cts), where
            continue
        weights = _weights(name, args, attrs, rng)
        fn = _objective(name, args, attrs, weights)
        ms.set_context(mode=ms.GRAPH_MODE)
        graph = _grad(fn, leaves, positions)
        ms.set_context(mode=ms.PYNATIVE_MODE)
        eager = _grad(fn, leaves, positions)
        for j, (i, g, e) in enumerate(zip(positions, graph, eager)):
            assert g.dtype is ms.float64 and g.shape == leaves[i].shape, (where, j, g)
            np.testing.assert_allclose(e.asnumpy(), g.asnumpy(), rtol=1e-12, atol=1e-14,
                                       err_msg=f"{where}: PYNATIVE != GRAPH for input {i}")
            np.testing.assert_allclose(g.asnumpy(), _numeric(fn, leaves, i), rtol=RTOL,
                                       atol=ATOL, err_msg=f"{where}: input {i}")


@pytest.mark.parametrize("name", sorted(set(SAMPLES) - NO_FLOAT16))
def test_float16_inputs_get_float16_cotangents(name):
    rng = np.random.default_rng(0)
    for k, make in enumerate(SAMPLES[name]):
        args, attrs = make(rng)
        leaves = _leaves(args)
        if not leaves:
            continue
        positions = list(range(len(leaves)))
        leaves = [a.astype(np.float16) for a in leaves]
        args = _rebuild(args, leaves)
        out = REGISTRY[name](*_rebuild(args, [Tensor(a) for a in leaves]), **attrs)
        outs = out if isinstance(out, tuple) else (out,)
        weights = [Tensor(np.ones(o.shape, o.dtype.np_dtype)) if o.dtype.is_float else None
                   for o in outs]
        grads = _grad(_objective(name, args, attrs, weights), leaves, positions)
        for i, g in zip(positions, grads):
            assert g.dtype is ms.float16 and g.shape == leaves[i].shape, (name, k, i, g)
            assert np.isfinite(g.asnumpy()).all(), (name, k, i, g)


# ------------------------------------------------------------------ specific behaviour

def test_integer_mul_gets_integer_cotangents():
    x = Tensor(np.array([1, 2, 3], np.int32))
    y = Tensor(np.array([4, 5, 6], np.int32))
    gx, gy = ms.grad(lambda a, b: a * b, grad_position=(0, 1))(x, y)
    assert gx.dtype is ms.int32 and gy.dtype is ms.int32
    assert gx.asnumpy().tolist() == [4, 5, 6] and gy.asnumpy().tolist() == [1, 2, 3]


def test_getitem_with_repeated_indices_accumulates():
    x = Tensor(np.arange(4.0))
    g = ms.grad(lambda a: a[Tensor(np.array([1, 1, 3, 1], np.int32))].sum())(x)
    assert g.asnumpy().tolist() == [0.0, 3.0, 0.0, 1.0]


def test_gather_of_embedding_rows_accumulates():
    table = Tensor(np.ones((5, 2)))
    idx = Tensor(np.array([[0, 4], [4, 4]], np.int32))
    g = ms.grad(lambda t: ops.gather(t, idx, 0).sum())(table)
    assert g.asnumpy()[:, 0].tolist() == [1.0, 0.0, 0.0, 0.0, 3.0]


def test_reduce_max_ties_share_the_cotangent():
    x = Tensor(np.array([1.0, 3.0, 3.0]))
    g = ms.grad(lambda a: ops.amax(a))(x)
    assert g.asnumpy().tolist() == [0.0, 0.5, 0.5]


def test_second_order_through_getitem():
    x = Tensor(np.array([1.0, 2.0, 3.0]))
    inner = ms.grad(lambda a: (a[Tensor(np.array([0, 2, 2], np.int32))] ** 3).sum())
    g2 = ms.grad(lambda a: ops.reduce_sum(inner(a)))(x)
    np.testing.assert_allclose(g2.asnumpy(), [6.0, 0.0, 36.0])


def test_concat_of_a_whole_split_tuple():
    # the tracer passes Split's tuple node itself to Concat: the rule sees no Python tuple
    x = Tensor(np.arange(6.0).reshape(2, 3))
    w = Tensor(np.arange(6.0).reshape(6, 1))
    g = ms.grad(lambda a: ops.mul(ops.concat(ops.split(a, 1, axis=1), 0), w).sum())(x)
    np.testing.assert_allclose(g.asnumpy(), [[0.0, 2.0, 4.0], [1.0, 3.0, 5.0]])


def test_dropout_mask_is_not_drawn_twice():
    fn = ms.jit(lambda a: ms.grad(lambda b: ops.dropout(b, 0.5, seed=3).sum())(a))
    ms.set_seed(1)
    g = fn(Tensor(np.ones((4, 4), np.float32))).asnumpy()
    ms.set_seed(1)
    out = ops.dropout(Tensor(np.ones((4, 4), np.float32)), 0.5, seed=3).asnumpy()
    np.testing.assert_array_equal(g, out)  # dx = mask / keep_prob = the forward of ones
    assert ms.compile_info(fn).count("Dropout") == 1
