"""Batching rules (ops/rules/batching.py), checked by walking the primitive registry.

Every primitive except the ones the transformation handles itself (``NOT_BATCHED``, each
with its reason) must have a batching rule and samples in ``SAMPLES`` here. On every
sample, ``ms.vmap`` of the op over a batch of 3 must equal stacking the op applied to each
example (eagerly), with the batch on axis 0, on axis 1 and on the last axis where the
inputs have one, and with some arguments unbatched (``in_axes`` None, or closed over).
A new primitive without a rule or without a sample fails with a message saying so.
"""
import sys
from pathlib import Path

import numpy as np
import pytest

import graphkiln as ms
from graphkiln import Tensor
from graphkiln.common import dtype as mstype
from graphkiln.ir.primitive import REGISTRY
from graphkiln.ops.rules.batching import NOT_BATCHED

N_BATCH = 3


class B:
    """A batched input: ``value`` holds all examples on axis 0."""

    def __init__(self, value, dtype=None):
        self.value = np.asarray(value)
        self.dtype = dtype


class U:
    """An unbatched Tensor passed to vmap with in_axes None."""

    def __init__(self, value, dtype=None):
        self.value = np.asarray(value)
        self.dtype = dtype


# ------------------------------------------------------------------ sample inputs
# name -> list of ``rng -> (args, attrs)``; an argument is B(...), U(...), a constant
# (closed over), or a tuple of those.

def f32(r, *shape, lo=None, hi=None):
    if lo is not None:
        return r.uniform(lo, hi, shape).astype(np.float32)
    return r.standard_normal(shape).astype(np.float32)


def bools(r, *shape):
    return r.random(shape) > 0.5


def _unary(lo=None, hi=None, dtype=np.float32):
    def make(r):
        return (B(f32(r, N_BATCH, 4, 5, lo=lo, hi=hi).astype(dtype)),), {}

    def scalar(r):
        return (B(f32(r, N_BATCH, lo=lo, hi=hi).astype(dtype)),), {}
    return [make, scalar]


def _binary(lo=None, hi=None, to=None):
    def conv(a):
        return a if to is None else to(a)
    return [
        lambda r: ((B(conv(f32(r, 3, 4, 5, lo=lo, hi=hi))),
                    B(conv(f32(r, 3, 4, 5, lo=lo, hi=hi)))), {}),
        lambda r: ((B(conv(f32(r, 3, 4, 5, lo=lo, hi=hi))), U(conv(f32(r, 5, lo=lo, hi=hi)))),
                   {}),
        lambda r: ((U(conv(f32(r, 4, 5, lo=lo, hi=hi))), B(conv(f32(r, 3, 5, lo=lo, hi=hi)))),
                   {}),
        lambda r: ((B(conv(f32(r, 3, 5, lo=lo, hi=hi))), B(conv(f32(r, 3, 4, 5, lo=lo, hi=hi)))),
                   {}),
        lambda r: ((B(conv(f32(r, 3, 4, lo=lo, hi=hi))),
                    conv(np.float32(1.5)).item() if to is None else 1), {}),
        lambda r: ((B(conv(f32(r, 3, lo=lo, hi=hi))), B(conv(f32(r, 3, 2, lo=lo, hi=hi)))), {}),
    ]


def _to_bool(a):
    return a > 0


SAMPLES: dict = {}
for _n in ("Neg", "Abs", "Square", "Exp", "Sin", "Cos", "Tanh", "Sigmoid", "ReLU", "HSwish",
           "Softplus", "Erf", "ZerosLike", "OnesLike", "TensorMove"):
    SAMPLES[_n] = _unary()
for _n in ("Log", "Sqrt", "Rsqrt"):
    SAMPLES[_n] = _unary(0.5, 3.0)
for _n in ("Reciprocal", "Sign", "Round", "Log1p", "Expm1", "Tan", "Atan", "Sinh",
           "Cosh", "Floor", "Ceil"):
    SAMPLES[_n] = _unary(0.1, 0.9)
for _n in ("Asin", "Acos"):
    SAMPLES[_n] = _unary(-0.9, 0.9)
for _n in ("RealDiv", "SquaredDifference", "Atan2"):
    SAMPLES[_n] = _binary(0.5, 3.0)
SAMPLES["Identity"] = _unary()
# a pyfunc (written for one example): two outputs, one of them a scalar, an unbatched input
SAMPLES["Custom"] = [
    lambda r: ((B(f32(r, N_BATCH, 4, 5)), U(f32(r, 5))),
               {"func": lambda x, y: (x * y, np.tanh(x).sum()),
                "out_shape": lambda a, b: (a, []), "out_dtype": lambda a, b: (a, a)}),
    lambda r: ((B(f32(r, N_BATCH, 2)),), {"func": np.exp, "out_shape": lambda a: a,
                                          "out_dtype": lambda t: t})]
for _n in ("Trunc", "Mish", "SeLU", "SoftShrink", "ReLU6", "BesselI0", "BesselI1"):
    SAMPLES[_n] = _unary()
for _n in ("TruncateDiv", "TruncateMod", "Xdivy"):
    SAMPLES[_n] = _binary(0.5, 3.0)
SAMPLES["SoftShrinkGrad"] = _binary(-1.0, 1.0)[:4]
SAMPLES["SquareSumAll"] = [lambda r: ((B(f32(r, 3, 4, 5)), B(f32(r, 3, 4, 5))), {}),
                           lambda r: ((B(f32(r, 3, 2)), U(f32(r, 2))), {})]
SAMPLES["MaskedFill"] = [lambda r: ((B(f32(r, 3, 2, 4)), U(bools(r, 4)), U(np.float32(7.0))), {}),
                         lambda r: ((U(f32(r, 4)), B(bools(r, 3, 4)), B(f32(r, 3))), {})]
SAMPLES["MaskedScatter"] = [
    lambda r: ((B(f32(r, 3, 2, 4)), B(bools(r, 3, 4)), B(f32(r, 3, 8))), {}),
    lambda r: ((U(f32(r, 2, 4)), B(bools(r, 3, 2, 4)), U(f32(r, 9))), {})]
SAMPLES["PReLU"] = [lambda r: ((B(f32(r, 3, 2, 4, 5)), U(f32(r, 4))), {}),
                    lambda r: ((B(f32(r, 3, 5)), B(f32(r, 3, 1))), {})]
SAMPLES["SpaceToDepth"] = [lambda r: ((B(f32(r, 3, 2, 1, 4, 4)),), {"block_size": 2})]
SAMPLES["ReverseSequence"] = [
    lambda r: ((B(f32(r, 3, 3, 4)), U(np.array([1, 2, 4], np.int32))),
               {"seq_dim": 1, "batch_dim": 0}),
    lambda r: ((B(f32(r, 3, 2, 3)), B(np.array([[1, 3], [0, 2], [3, 3]], np.int64))),
               {"seq_dim": 1, "batch_dim": 0})]
SAMPLES["ReverseV2"] = [lambda r: ((B(f32(r, 3, 2, 4)),), {"axis": (1,)}),
                       lambda r: ((B(f32(r, 3, 2, 4)),), {"axis": (-1, 0)})]
SAMPLES["Renorm"] = [lambda r: ((B(f32(r, 3, 3, 4)),), {"p": 2, "dim": 0, "maxnorm": 1.0})]


def _complex_unary():
    def make(r):
        z = f32(r, N_BATCH, 4, 5) + 1j * f32(r, N_BATCH, 4, 5)
        return (B(z.astype(np.complex64)),), {}
    return [make]


for _n in ("Real", "Imag", "Conj", "Angle"):
    SAMPLES[_n] = _complex_unary()
SAMPLES["Complex"] = [m for k, m in enumerate(_binary()) if k != 4]  # both parts Tensors
SAMPLES["Pad"] = [lambda r: ((B(f32(r, 3, 2, 4)),), {"paddings": ((1, 0), (0, 2))}),
                  lambda r: ((B(f32(r, 3, 5)),), {"paddings": ((2, 3),)})]
SAMPLES["Padding"] = [lambda r: ((B(f32(r, 3, 2, 1)),), {"pad_dim_size": 4})]
SAMPLES["MatrixSolve"] = [
    lambda r: ((B(f32(r, 3, 2, 2) + 3 * np.eye(2, dtype=np.float32)), B(f32(r, 3, 2, 4))), {}),
    lambda r: ((U(f32(r, 2, 2) + 3 * np.eye(2, dtype=np.float32)), B(f32(r, 3, 2, 1))),
               {"adjoint": True})]
SAMPLES["Meshgrid"] = [lambda r: (((B(f32(r, 3, 4)), U(f32(r, 2))),), {}),
                       lambda r: (((B(f32(r, 3, 4)), B(f32(r, 3, 2)), U(f32(r, 5))),),
                                  {"indexing": "ij"})]
_GATHER_D_INDEX = np.array([[[0, 3], [1, 1]], [[2, 2], [0, -1]], [[3, 0], [1, 2]]], np.int32)
SAMPLES["GatherD"] = [lambda r: ((B(f32(r, 3, 2, 4)), 1, B(_GATHER_D_INDEX)), {}),
                      lambda r: ((U(f32(r, 2, 4)), 1, B(_GATHER_D_INDEX)), {}),
                      lambda r: ((B(f32(r, 3, 3, 2)), 0, U(np.array([[0, 2], [1, 1]],
                                                                     np.int32))), {})]
SAMPLES["Sort"] = [lambda r: ((B(f32(r, 3, 4, 5)),), {}),
                   lambda r: ((B(f32(r, 3, 4, 5)),), {"axis": 0, "descending": True})]
SAMPLES["Unstack"] = [lambda r: ((B(f32(r, 3, 4, 5)),), {}),
                      lambda r: ((B(f32(r, 3, 4, 5)),), {"axis": -1})]
for _n in ("Lgamma", "Digamma"):
    SAMPLES[_n] = _unary(0.2, 5.0)
SAMPLES["Polygamma"] = [
    lambda r: ((U(np.array(2, np.int64)), B(f32(r, 3, 4, lo=0.2, hi=5.0))), {}),
    lambda r: ((B(np.array([0, 1, 3], np.int32)), B(f32(r, 3, 2, lo=0.2, hi=5.0))), {}),
    lambda r: ((B(np.array([1, 2, 4], np.int64)), U(f32(r, 2, lo=-2.8, hi=-2.2))), {})]
for _n in ("Igamma", "Igammac", "IgammaGradA"):  # tensors of one dtype (no Python number)
    SAMPLES[_n] = _binary(0.2, 6.0)[:4] + _binary(0.2, 6.0)[5:]
SAMPLES["MapUniform"] = [
    lambda r: ((B(r.integers(-20, 20, (3, 4)).astype(np.int32)), 4, 5), {})]
SAMPLES["Betainc"] = [
    lambda r: ((B(f32(r, 3, 4, lo=0.5, hi=5.0)), U(f32(r, 4, lo=0.5, hi=5.0)),
                B(f32(r, 3, 4, lo=0.05, hi=0.95))), {}),
    lambda r: ((U(f32(r, 4, lo=0.5, hi=5.0)), U(f32(r, 4, lo=0.5, hi=5.0)),
                B(f32(r, 3, 4, lo=0.05, hi=0.95))), {})]
for _n in ("Shape", "TensorShape", "DType", "Rank", "Size", "TopTypeof", "Flatten"):
    SAMPLES[_n] = [lambda r: ((B(f32(r, 3, 2, 4)),), {})]
SAMPLES["FloatStatus"] = [
    lambda r: ((B(np.where(bools(r, 3, 4), np.float32(np.inf), f32(r, 3, 4))),), {})]
SAMPLES["Slice"] = [lambda r: ((B(f32(r, 3, 4, 5)), (1, 2), (2, -1)), {})]
SAMPLES["ConcatOffset"] = [lambda r: (((B(f32(r, 3, 2, 4)), U(f32(r, 5, 4))),),
                                      {"N": 2, "axis": 0})]
SAMPLES["StridedSlice"] = [lambda r: ((B(f32(r, 3, 4, 5)), (1, 0), (3, 4), (1, 2)),
                                      {"shrink_axis_mask": 1})]
SAMPLES["TopK"] = [lambda r: ((B(f32(r, 3, 2, 5)), 2), {}),
                   lambda r: ((B(f32(r, 3, 5)), 5), {"sorted": True})]
_ND_INDEX = np.array([[[0], [2]], [[1], [1]], [[2], [0]]], np.int32)
SAMPLES["GatherNd"] = [lambda r: ((B(f32(r, 3, 4, 2)), B(_ND_INDEX)), {}),
                       lambda r: ((U(f32(r, 4, 2)), B(_ND_INDEX)), {})]
SAMPLES["ScatterNd"] = [lambda r: ((B(_ND_INDEX), B(f32(r, 3, 2, 5)), (4, 5)), {})]
for _n in ("Add", "Sub", "Mul", "Div", "Max", "Min", "Update"):
    SAMPLES[f"TensorScatter{_n}"] = [
        lambda r: ((B(f32(r, 3, 4, 2, lo=0.5, hi=2)), B(_ND_INDEX),
                    B(f32(r, 3, 2, 2, lo=0.5, hi=2))), {}),
        lambda r: ((U(f32(r, 4, 2, lo=0.5, hi=2)), B(_ND_INDEX),
                    B(f32(r, 3, 2, 2, lo=0.5, hi=2))), {})]
SAMPLES["GeLU"] = _unary() + [lambda r: ((B(f32(r, 3, 4)),), {"approximate": "none"})]
SAMPLES["ReluGrad"] = [lambda r: ((B(f32(r, 3, 4, 5)), B(f32(r, 3, 4, 5))), {}),
                       lambda r: ((U(f32(r, 4, 5)), B(f32(r, 3, 4, 5))), {}),
                       lambda r: ((B(f32(r, 3, 4, 5)), U(f32(r, 4, 5))), {})]
SAMPLES["ReLU6Grad"] = SAMPLES["ReluGrad"]
SAMPLES["Lstsq"] = [lambda r: ((B(f32(r, 3, 4, 3)), U(f32(r, 4, 2))), {}),
                    lambda r: ((U(f32(r, 4, 3)), B(f32(r, 3, 4))), {})]
SAMPLES["LogicalNot"] = [lambda r: ((B(bools(r, 3, 4)),), {})]
SAMPLES["LayerNormGradGrad"] = [
    lambda r: ((B(f32(r, 3, 2, 4)), B(f32(r, 3, 2, 4)), B(f32(r, 3, 2, 1, lo=0.5, hi=2)),
                B(f32(r, 3, 2, 1)), U(f32(r, 4)), B(f32(r, 3, 2, 4)), U(f32(r, 4)),
                B(f32(r, 3, 4))), {})]
_PS_ROIS = np.array([[[0.], [15.], [20.], [58.], [60.]], [[1.], [6.5], [3.1], [76.2], [56.8]]],
                    np.float32)
# one-hot weights: every draw is certain, so a batched call and a loop of calls agree
SAMPLES["Multinomial"] = [
    lambda r: ((B(np.eye(3, dtype=np.float32)[r.integers(0, 3, (3, 2))]), 4), {"seed": 1}),
    lambda r: ((B(np.eye(4)[r.integers(0, 4, 3)]), 2), {"dtype": mstype.int64})]
SAMPLES["PSROIPooling"] = [
    lambda r: ((B(f32(r, 3, 2, 8, 5, 4)), U(_PS_ROIS)),
               {"spatial_scale": 0.0625, "group_size": 2, "output_dim": 2})]
SAMPLES["PSROIPoolingGrad"] = [
    lambda r: ((B(f32(r, 3, 2, 2, 2, 2)), U(_PS_ROIS)),
               {"input_size": (5, 4), "spatial_scale": 0.0625, "group_size": 2,
                "output_dim": 2})]
SAMPLES["SparseReshape"] = [
    lambda r: ((B(np.stack([r.integers(0, 2, 4), r.integers(0, 3, 4), r.integers(0, 6, 4)],
                           -1).reshape(1, 4, 3).repeat(3, 0).astype(np.int64)),
                U(np.array([2, 3, 6], np.int64)), U(np.array([9, -1], np.int64))), {})]
SAMPLES["UniqueWithPad"] = [
    lambda r: ((B(r.integers(0, 3, (3, 5)).astype(np.int32)), U(-1)), {})]
for _n in ("Add", "Sub", "Mul", "Maximum", "Minimum", "Less", "LessEqual", "Greater",
           "GreaterEqual", "Equal", "NotEqual"):
    SAMPLES[_n] = _binary()
for _n in ("Div", "FloorDiv", "FloorMod", "Mod", "Pow"):
    SAMPLES[_n] = _binary(0.5, 3.0)
for _n in ("LogicalAnd", "LogicalOr", "LogicalXor", "BitwiseAnd", "BitwiseOr", "BitwiseXor"):
    SAMPLES[_n] = _binary(to=_to_bool)
SAMPLES["Select"] = [
    lambda r: ((B(bools(r, 3, 4)), B(f32(r, 3, 4)), B(f32(r, 3, 4))), {}),
    lambda r: ((B(bools(r, 3, 4)), U(f32(r, 4)), 0.0), {}),
    lambda r: ((U(bools(r, 2, 4)), B(f32(r, 3, 4)), U(f32(r, 2, 4))), {}),
    lambda r: ((B(bools(r, 3)), B(f32(r, 3, 2, 4)), B(f32(r, 3, 4))), {}),
]
SAMPLES["Cast"] = [lambda r: ((B(f32(r, 3, 4)), mstype.int32), {}),
                   lambda r: ((B(f32(r, 3)), mstype.float16), {})]
SAMPLES["Fill"] = [lambda r: ((mstype.float32, (2, 3), B(f32(r, 3))), {}),
                   lambda r: ((mstype.int32, (4,), B(f32(r, 3, 1) * 5)), {})]
SAMPLES["Reshape"] = [lambda r: ((B(f32(r, 3, 4, 6)), (2, -1, 3)), {}),
                      lambda r: ((B(f32(r, 3, 4)), (4, 1)), {})]
SAMPLES["Transpose"] = [lambda r: ((B(f32(r, 3, 2, 4, 5)), (2, 0, 1)), {}),
                        lambda r: ((B(f32(r, 3, 2, 4)), (-1, 0)), {})]
SAMPLES["ExpandDims"] = [lambda r: ((B(f32(r, 3, 2, 4)), 1), {}),
                         lambda r: ((B(f32(r, 3, 2, 4)), -1), {}),
                         lambda r: ((B(f32(r, 3)), 0), {})]
SAMPLES["Squeeze"] = [lambda r: ((B(f32(r, 3, 1, 4, 1)),), {}),
                      lambda r: ((B(f32(r, 3, 1, 4, 1)),), {"axis": (-1,)}),
                      lambda r: ((B(f32(r, 3, 4)),), {})]
SAMPLES["Tile"] = [lambda r: ((B(f32(r, 3, 2, 4)), (2, 1)), {}),
                   lambda r: ((B(f32(r, 3, 2)), (3, 2)), {}),
                   lambda r: ((B(f32(r, 3, 2, 4)), (2,)), {})]
SAMPLES["BroadcastTo"] = [lambda r: ((B(f32(r, 3, 1, 4)),), {"shape": (2, 5, 4)}),
                          lambda r: ((B(f32(r, 3, 1, 4)),), {"shape": (5, -1)})]
SAMPLES["Stack"] = [lambda r: (((B(f32(r, 3, 2, 4)), U(f32(r, 2, 4)), B(f32(r, 3, 2, 4))),),
                               {"axis": 1}),
                    lambda r: (((B(f32(r, 3, 2)), B(f32(r, 3, 2))),), {"axis": -1})]
SAMPLES["Concat"] = [lambda r: (((B(f32(r, 3, 2, 4)), U(f32(r, 1, 4)), B(f32(r, 3, 3, 4))),),
                                {"axis": 0}),
                     lambda r: (((B(f32(r, 3, 2, 4)), B(f32(r, 3, 2, 1))),), {"axis": -1})]
SAMPLES["AddN"] = [lambda r: (((B(f32(r, 3, 2, 4)), U(f32(r, 2, 4)), B(f32(r, 3, 2, 4))),), {})]
SAMPLES["Split"] = [lambda r: ((B(f32(r, 3, 4, 6)),), {"axis": 1, "output_num": 3}),
                    lambda r: ((B(f32(r, 3, 4)),), {"axis": -1, "output_num": 2})]
SAMPLES["SplitV"] = [lambda r: ((B(f32(r, 3, 4, 6)),),
                                {"size_splits": (1, -1, 2), "split_dim": 1, "num_split": 3})]
SAMPLES["Gather"] = [
    lambda r: ((B(f32(r, 3, 5, 4)), Tensor(np.array([4, 0, 2], np.int32)), 0), {}),
    lambda r: ((B(f32(r, 3, 5, 4)), U(np.array([[3, 1], [0, 0]], np.int32)), 1), {}),
    lambda r: ((U(f32(r, 5, 4)), B(np.array([[1, 2], [4, 0], [3, 3]], np.int32)), 0), {}),
    lambda r: ((U(f32(r, 5, 4)), B(np.array([[1, 2], [3, 0], [3, 3]], np.int32)), 1), {}),
    lambda r: ((B(f32(r, 3, 5, 4)), B(np.array([[1, 2], [4, 0], [3, 3]], np.int32)), 0), {}),
    lambda r: ((B(f32(r, 3, 2, 5, 4)), B(r.integers(0, 4, (3, 6)).astype(np.int32)), 2), {}),
    lambda r: ((B(f32(r, 3, 2, 5)), B(r.integers(0, 5, (3, 2, 3)).astype(np.int32)), 1),
               {"batch_dims": 1}),
]
_IDX = np.array([[0, 2], [1, 1], [3, 0]], np.int64)
SAMPLES["Getitem"] = [
    lambda r: ((B(f32(r, 3, 4, 5)), (1, slice(None))), {}),
    lambda r: ((B(f32(r, 3, 4, 5)), (slice(1, None, 2), -1)), {}),
    lambda r: ((B(f32(r, 3, 4, 5)), Tensor(np.array([0, 2, 2]))), {}),
    lambda r: ((B(f32(r, 3, 4, 5, 6)), (Tensor(np.array([0, 2])), slice(None),
                                       Tensor(np.array([1, 5])))), {}),
    lambda r: ((B(f32(r, 3, 4, 5)), (None, Ellipsis, 0)), {}),
    lambda r: ((B(f32(r, 3, 4, 5)), (slice(None), Tensor(np.array([True, False, True, True,
                                                                   False])))), {}),
    lambda r: ((B(f32(r, 3, 4, 5)), B(_IDX)), {}),
    lambda r: ((U(f32(r, 4, 5)), B(_IDX)), {}),
    lambda r: ((U(f32(r, 4, 5)), (slice(None), B(_IDX))), {}),
    lambda r: ((B(f32(r, 3, 4, 5)), (slice(None), B(_IDX))), {}),
    lambda r: ((B(f32(r, 3, 4, 5, 6)), (B(_IDX), slice(None), Tensor(np.array([1, 5])))),
               {}),
    lambda r: ((U(f32(r, 4, 5, 6)), (B(_IDX), slice(None), Tensor(np.array([1, 5])))), {}),
    lambda r: ((B(f32(r, 3, 4, 5, 6)), (slice(None), B(_IDX), Tensor(np.array([1, 4])))), {}),
]
SAMPLES["Setitem"] = [
    lambda r: ((B(f32(r, 3, 4, 5)), (1, slice(None)), U(f32(r, 5))), {}),
    lambda r: ((B(f32(r, 3, 4, 5)), (1, slice(1, 4)), B(f32(r, 3, 3))), {}),
    lambda r: ((U(f32(r, 4, 5)), (slice(None), Tensor(np.array([0, 3]))), B(f32(r, 3, 4, 2))),
               {}),
    lambda r: ((B(f32(r, 3, 4, 5, 6)), (Tensor(np.array([0, 2])), slice(None),
                                       Tensor(np.array([1, 5]))), B(f32(r, 3, 2, 5))), {}),
    lambda r: ((B(f32(r, 3, 4, 5)), Tensor(np.eye(4, 5) > 0), 0.5), {}),
]
SAMPLES["ConcatGrad"] = [
    lambda r: ((B(f32(r, 3, 5, 3)), (U(f32(r, 2, 3)), U(f32(r, 3, 3)))), {"axis": 0}),
    lambda r: ((U(f32(r, 2, 5)), (B(f32(r, 3, 2, 1)), U(f32(r, 2, 4)))), {"axis": 1})]
SAMPLES["SumToLike"] = [
    lambda r: ((B(f32(r, 3, 2, 3)), U(f32(r, 1, 3))), {}),
    lambda r: ((B(f32(r, 3, 4, 2, 3)), B(f32(r, 3, 3))), {}),
    lambda r: ((U(f32(r, 2, 3)), B(f32(r, 3, 1, 3))), {})]
SAMPLES["GetitemGrad"] = [
    lambda r: ((B(f32(r, 3, 5)), (1, slice(None))), {"shape": (4, 5)}),
    lambda r: ((B(f32(r, 3, 2, 5)), Tensor(np.array([3, 3]))), {"shape": (4, 5)}),
    lambda r: ((B(f32(r, 3, 2, 4)), (Tensor(np.array([0, 2])), slice(None),
                                    Tensor(np.array([1, 5])))), {"shape": (4, 4, 6)}),
    lambda r: ((B(f32(r, 3, 2, 5)), B(_IDX)), {"shape": (4, 5)}),
    lambda r: ((U(f32(r, 2, 5)), B(_IDX)), {"shape": (4, 5)}),
    lambda r: ((B(f32(r, 3, 4, 2)), (slice(None), B(_IDX))), {"shape": (4, 5)}),
]
_REDUCE = [
    lambda r: ((B(f32(r, 3, 4, 5)), ()), {}),
    lambda r: ((B(f32(r, 3, 4, 5)), 1), {}),
    lambda r: ((B(f32(r, 3, 4, 5, 2)), (0, -1)), {"keep_dims": True}),
    lambda r: ((B(f32(r, 3, 4)), ()), {"skip_mode": True}),
    lambda r: ((B(f32(r, 3)), ()), {}),
]
for _n in ("ReduceSum", "ReduceMean", "ReduceMax", "ReduceMin", "ReduceProd"):
    SAMPLES[_n] = _REDUCE
for _n in ("Argmax", "Argmin"):
    SAMPLES[_n] = [lambda r: ((B(f32(r, 3, 4, 5)),), {}),
                   lambda r: ((B(f32(r, 3, 4, 5)),), {"axis": 0, "output_type": mstype.int64}),
                   lambda r: ((B(f32(r, 3)),), {})]
for _n in ("ArgMaxWithValue", "ArgMinWithValue"):
    SAMPLES[_n] = [lambda r: ((B(f32(r, 3, 4, 5)),), {}),
                   lambda r: ((B(f32(r, 3, 4, 5)),), {"axis": -1, "keep_dims": True}),
                   lambda r: ((B(f32(r, 3)),), {})]
SAMPLES["MatMul"] = [
    lambda r: ((B(f32(r, 3, 2, 4)), U(f32(r, 4, 5))), {}),
    lambda r: ((U(f32(r, 2, 4)), B(f32(r, 3, 4, 5))), {}),
    lambda r: ((B(f32(r, 3, 4, 2)), B(f32(r, 3, 5, 4))), {"transpose_a": True,
                                                           "transpose_b": True}),
]
SAMPLES["BatchMatMul"] = [
    lambda r: ((B(f32(r, 3, 2, 2, 4)), U(f32(r, 2, 4, 5))), {}),
    lambda r: ((B(f32(r, 3, 2, 4)), U(f32(r, 6, 4, 5))), {}),
    lambda r: ((U(f32(r, 6, 2, 4)), B(f32(r, 3, 5, 4))), {"transpose_b": True}),
    lambda r: ((B(f32(r, 3, 6, 2, 4)), B(f32(r, 3, 4, 5))), {}),
]
SAMPLES["Softmax"] = [lambda r: ((B(f32(r, 3, 4, 5)),), {}),
                      lambda r: ((B(f32(r, 3, 4, 5)),), {"axis": (0, -1)}),
                      lambda r: ((B(f32(r, 3)),), {})]
SAMPLES["BiasAdd"] = [lambda r: ((B(f32(r, 3, 2, 4, 5)), B(f32(r, 3, 4))), {}),
                      lambda r: ((B(f32(r, 3, 2, 5, 4)), U(f32(r, 4))), {"data_format": "NHWC"})]
SAMPLES["LogSoftmax"] = [lambda r: ((B(f32(r, 3, 4, 5)),), {"axis": 0}),
                         lambda r: ((B(f32(r, 3)),), {})]
SAMPLES["LayerNorm"] = [
    lambda r: ((B(f32(r, 3, 2, 4)), U(f32(r, 4)), U(f32(r, 4))),
               {"begin_norm_axis": -1, "begin_params_axis": -1}),
    lambda r: ((B(f32(r, 3, 2, 4)), B(f32(r, 3, 4)), U(f32(r, 4))),
               {"begin_norm_axis": -1, "begin_params_axis": -1}),
    lambda r: ((U(f32(r, 2, 4)), B(f32(r, 3, 2, 4)), B(f32(r, 3, 2, 4))),
               {"begin_norm_axis": 0, "begin_params_axis": 0}),
]
SAMPLES["OneHot"] = [
    lambda r: ((B(np.array([[0, 2], [1, 1], [3, 0]], np.int32)), 4, Tensor(1.0), Tensor(0.0)),
               {}),
    lambda r: ((B(np.array([[0, 2], [1, 1], [3, 0]], np.int32)), 4, Tensor(1.0), Tensor(0.0)),
               {"axis": 0}),
    lambda r: ((B(np.array([[0, 2], [1, 1], [3, 0]], np.int32)), 4, B(f32(r, 3)), Tensor(0.0)),
               {}),
]
SAMPLES["Dropout"] = [
    lambda r: ((B(f32(r, 3, 4, 5)), 7), {"keep_prob": 0.6}),
    lambda r: ((B(f32(r, 3, 4, 5)),), {"keep_prob": 0.8, "Seed0": 1, "Seed1": 2}),
    lambda r: ((B(f32(r, 3, 4)), B(np.array([3, 4, 5], np.int64))), {"keep_prob": 0.5}),
]
# collectives in a world of one process (2 processes against a loop of per-example calls:
# tests/communication/scripts/collectives.py)
_W = "hccl_world_group"
SAMPLES["AllReduce"] = [lambda r: ((B(f32(r, 3, 2, 4)),), {"op": "sum", "group": _W})]
SAMPLES["AllGather"] = [lambda r: ((B(f32(r, 3, 2, 4)),), {"group": _W})]
SAMPLES["ReduceScatter"] = [lambda r: ((B(f32(r, 3, 2, 4)),), {"op": "sum", "group": _W})]
SAMPLES["Broadcast"] = [lambda r: (((B(f32(r, 3, 2, 4)), U(f32(r, 5))),),
                                   {"root_rank": 0, "group": _W})]
SAMPLES["AlltoAll"] = [lambda r: ((B(f32(r, 3, 2, 4)),), {"split_count": 1, "split_dim": 1,
                                                          "concat_dim": 0, "group": _W})]
SAMPLES["Reduce"] = [lambda r: ((B(f32(r, 3, 2, 4)),),
                                {"dest_rank": 0, "op": "sum", "group": _W})]
SAMPLES["CollectiveGather"] = [lambda r: ((B(f32(r, 3, 2, 4)),), {"dest_rank": 0, "group": _W})]
SAMPLES["CollectiveScatter"] = [lambda r: ((B(f32(r, 3, 2, 4)),), {"src_rank": 0, "group": _W})]
SAMPLES["NPUClearFloatStatus"] = [lambda r: ((B(np.zeros((3, 8), np.float32)),), {})]
SAMPLES["NPUGetFloatStatus"] = [lambda r: ((B(np.zeros((3, 8), np.float32)),), {})]

# Primitives whose inputs are all constants: nothing of theirs can be batched, so the rule
# only has to give the shared, unbatched result.
CONSTANT_INPUTS = {
    "Zeros": ((3, 2), mstype.float32),
    "Ones": ((2,), mstype.int32),
    "Eye": (3, 2, mstype.float32),
    "NPUAllocFloatStatus": (),
    "StandardNormal": ((2, 3),),
    "UniformReal": ((4,),),
    "StandardLaplace": ((2, 1),),
    "Barrier": (),
}
# read and advance the dropout seed stream (the random draws without seeds do too)
STATEFUL = {"StandardNormal", "UniformReal", "StandardLaplace"}


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

SAMPLES.update(nn_samples.vmap_samples(B, U, f32))
SAMPLES.update(st_ops_samples.vmap_samples(B, U, f32))
SAMPLES.update(ops27_samples.vmap_samples(B, U, f32))
SAMPLES.update(api_breadth_samples.vmap_samples(B, U, f32))
SAMPLES.update(opswide_samples.vmap_samples(B, U, f32))
SAMPLES.update(scipy_samples.vmap_samples(B, U, f32))
SAMPLES.update(opsb_samples.vmap_samples(B, U, f32))
SAMPLES.update(opsf_samples.vmap_samples(B, U, f32))
SAMPLES.update(opsg_samples.vmap_samples(B, U, f32))
SAMPLES.update(opsh_samples.vmap_samples(B, U, f32))
SAMPLES.update(opsj_samples.vmap_samples(B, U, f32))
SAMPLES.update(leftover_samples.vmap_samples(B, U, f32))
SAMPLES.update(opsk_samples.vmap_samples(B, U, f32))
SAMPLES.update(opsi_samples.vmap_samples(B, U, f32))
SAMPLES.update(fractional_max_pool_samples.vmap_samples(B, U, f32))
SAMPLES.update(opsl_samples.vmap_samples(B, U, f32))
SAMPLES.update(opsn_samples.vmap_samples(B, U, f32))
SAMPLES.update(opsm_samples.vmap_samples(B, U, f32))


# ------------------------------------------------------------------ harness

def _example(a, k: int):
    if isinstance(a, B):
        return Tensor(a.value[k], a.dtype)
    if isinstance(a, U):
        return Tensor(a.value, a.dtype)
    if isinstance(a, tuple):
        return tuple(_example(e, k) for e in a)
    return a


def _leaves(a, out: list) -> None:
    if isinstance(a, (B, U)):
        out.append(a)
    elif isinstance(a, tuple):
        for e in a:
            _leaves(e, out)


def _rebuild(a, it):
    if isinstance(a, (B, U)):
        return next(it)
    if isinstance(a, tuple):
        return tuple(_rebuild(e, it) for e in a)
    return a


class _Apply:
    """``op`` on the sample's arguments with the vmapped leaves put back in place (an
    object, so it is traced as it is rather than AST-converted)."""

    def __init__(self, op, args, attrs):
        self.op, self.args, self.attrs = op, args, attrs

    def __call__(self, *xs):
        it = iter(xs)
        return self.op(*[_rebuild(a, it) for a in self.args], **self.attrs)


def _stack(outs):
    if not isinstance(outs[0], (tuple, Tensor)):  # a static description: the same per example
        assert all(o == outs[0] for o in outs), outs
        return outs[0]
    if isinstance(outs[0], tuple) and not isinstance(outs[0][0], (tuple, Tensor)):
        assert all(o == outs[0] for o in outs), outs
        return outs[0]
    if isinstance(outs[0], tuple):
        return tuple(_stack([o[i] for o in outs]) for i in range(len(outs[0])))
    return np.stack([o.asnumpy() for o in outs])


def _static(got, want, where: str) -> None:
    """A static description (Shape, DType...): vmap broadcasts an unbatched Python number
    over the batch as a Tensor."""
    if isinstance(want, tuple):
        assert isinstance(got, tuple) and len(got) == len(want), where
        for g, w in zip(got, want):
            _static(g, w, where)
        return
    g = got.asnumpy() if isinstance(got, Tensor) else np.asarray(got, dtype=object)
    assert np.all(g == want), f"{where}: {got} != {want}"


def _compare(got, want, where: str) -> None:
    if not isinstance(want, (tuple, np.ndarray)) or isinstance(want, tuple) and want and \
            not isinstance(want[0], (tuple, np.ndarray)):
        _static(got, want, where)
        return
    if isinstance(want, tuple):
        assert isinstance(got, tuple) and len(got) == len(want), where
        for i, (g, w) in enumerate(zip(got, want)):
            _compare(g, w, f"{where} output {i}")
        return
    g = got.asnumpy()
    assert g.dtype == want.dtype, f"{where}: dtype {g.dtype} != {want.dtype}"
    assert g.shape == want.shape, f"{where}: shape {g.shape} != {want.shape}"
    if g.dtype.kind == "f":
        np.testing.assert_allclose(g, want, rtol=2e-6, atol=2e-6, err_msg=where)
    else:
        np.testing.assert_array_equal(g, want, err_msg=where)


def _check_sample(name: str, args, attrs) -> None:
    op = REGISTRY[name]
    want = _stack([op(*[_example(a, k) for a in args], **attrs)
                   for k in range(N_BATCH)])
    leaves: list = []
    for a in args:
        _leaves(a, leaves)

    fn = _Apply(op, args, attrs)

    variants = [("axis 0", 0)]
    if all(x.value.ndim >= 3 for x in leaves if isinstance(x, B)):
        variants.append(("axis 1", 1))
    if all(x.value.ndim >= 2 for x in leaves if isinstance(x, B)):
        variants.append(("last axis", -1))
    for label, ax in variants:
        values, axes = [], []
        for x in leaves:
            if isinstance(x, B):
                values.append(Tensor(np.moveaxis(x.value, 0, ax), x.dtype))
                axes.append(ax)
            else:
                values.append(Tensor(x.value, x.dtype))
                axes.append(None)
        got = ms.vmap(fn, in_axes=tuple(axes))(*values)
        _compare(got, want, f"{name} ({label}, attrs {attrs})")


# ------------------------------------------------------------------ tests

def test_every_primitive_has_a_rule_or_a_reason():
    missing = [n for n, op in REGISTRY.items() if n not in NOT_BATCHED and op.vmap is None]
    assert not missing, f"primitives without a batching rule: {missing}"
    stale = [n for n in NOT_BATCHED if n not in REGISTRY]
    assert not stale, f"NOT_BATCHED names unknown primitives: {stale}"


@pytest.mark.parametrize("name", sorted(n for n in REGISTRY if n not in NOT_BATCHED))
def test_vmap_rule_matches_stacked_loop(name):
    if name in CONSTANT_INPUTS:
        op = REGISTRY[name]
        args = CONSTANT_INPUTS[name]
        out, d = op.vmap(*args, dims=(None,) * len(args))
        assert d is None
        if name in STATEFUL:  # each call draws anew: compare types, not values
            ref = op(*args)
            assert (out.dtype, out.shape) == (ref.dtype, ref.shape)
            return
        np.testing.assert_array_equal(out.asnumpy(), op(*args).asnumpy())
        return
    samples = SAMPLES.get(name)
    assert samples, (f"no vmap sample for primitive '{name}': add inputs for it to SAMPLES "
                     f"in tests/ops/test_batching_rules.py")
    rng = np.random.default_rng(0)
    for make in samples:
        args, attrs = make(rng)
        _check_sample(name, args, attrs)
