"""Cells of MindSpore's ``nn.layer.math``: the special functions ``IGamma``, ``LGamma``,
``DiGamma`` (each calls its primitive), ``LBeta``, ``Moments``, ``MatDet``, ``MatInverse``,
``ReduceLogSumExp`` and the deprecated ``MatMul``."""
from __future__ import annotations

import graphkiln.ops as ops

from ..common import dtype as mstype
from ..common.tensor import Tensor
from .cell import Cell


class IGamma(Cell):
    """The regularized lower incomplete gamma function P(a, x), elementwise."""

    def __init__(self):
        super().__init__()
        self.igamma = ops.Igamma()

    def construct(self, a, x):
        return self.igamma(a, x)


class LGamma(Cell):
    """log |Gamma(x)|, elementwise."""

    def __init__(self):
        super().__init__()
        self.lgamma = ops.Lgamma()

    def construct(self, x):
        return self.lgamma(x)


class DiGamma(Cell):
    """The digamma function, the derivative of log Gamma, elementwise."""

    def __init__(self):
        super().__init__()
        self.digamma = ops.Digamma()

    def construct(self, x):
        return self.digamma(x)


class MatMul(Cell):
    """``ops.matmul`` (NumPy's broadcasting rules) after optionally swapping the last two
    axes of either operand; MindSpore deprecates it for ``ops.matmul``."""

    def __init__(self, transpose_x1: bool = False, transpose_x2: bool = False):
        super().__init__()
        for name, value in (("transpose_x1", transpose_x1), ("transpose_x2", transpose_x2)):
            if not isinstance(value, bool):
                raise TypeError(f"For 'MatMul', the type of '{name}' must be bool, "
                                f"but got {type(value).__name__}.")
        self.transpose_x1 = transpose_x1
        self.transpose_x2 = transpose_x2

    def construct(self, x1, x2):
        if self.transpose_x1 and x1.ndim > 1:
            x1 = ops.swapaxes(x1, -1, -2)
        if self.transpose_x2 and x2.ndim > 1:
            x2 = ops.swapaxes(x2, -1, -2)
        return ops.matmul(x1, x2)


def _check_float_dtype(owner: str, arg: str, x, types=("float16", "float32")) -> None:
    if not isinstance(x, Tensor):
        raise TypeError(f"For '{owner}', the '{arg}' must be a Tensor, but got "
                        f"{type(x).__name__}.")
    if str(x.dtype).lower() not in types:
        raise TypeError(f"For '{owner}', the '{arg}' should be one of "
                        f"{[f'Float{t[5:]}' for t in types]}, but got {x.dtype}.")


class Moments(Cell):
    """``(mean, variance)`` of ``x`` over ``axis`` (every axis for None); float16 inputs
    are reduced in float32."""

    def __init__(self, axis=None, keep_dims=None):
        super().__init__()
        axis = () if axis is None else axis
        if isinstance(axis, bool) or not isinstance(axis, (int, tuple)) or \
                isinstance(axis, tuple) and not all(isinstance(a, int) for a in axis):
            raise TypeError(f"For 'Moments', the 'axis' must be int or tuple of int, but got "
                            f"{axis!r}.")
        keep_dims = False if keep_dims is None else keep_dims
        if not isinstance(keep_dims, bool):
            raise TypeError(f"For 'Moments', the 'keep_dims' must be bool, but got "
                            f"{type(keep_dims).__name__}.")
        self.axis, self.keep_dims = axis, keep_dims

    def construct(self, x):
        _check_float_dtype("Moments", "input x", x)
        dtype = x.dtype
        x = ops.cast(x, mstype.float32)
        mean = ops.reduce_mean(x, self.axis, keep_dims=True)
        diff = ops.sub(x, ops.stop_gradient(mean))
        variance = ops.reduce_mean(ops.mul(diff, diff), self.axis, keep_dims=self.keep_dims)
        if not self.keep_dims:
            mean = ops.reduce_mean(x, self.axis, keep_dims=False)
        return ops.cast(mean, dtype), ops.cast(variance, dtype)


class MatDet(Cell):
    """The determinant of each symmetric positive-definite matrix of the batch."""

    def construct(self, a):
        _check_float_dtype("MatDet", "input_a", a)
        return ops.det(a)


class MatInverse(Cell):
    """The inverse of each symmetric positive-definite matrix of the batch."""

    def construct(self, a):
        _check_float_dtype("MatInverse", "input_a", a)
        return ops.inverse(a)


class ReduceLogSumExp(Cell):
    """``log(sum(exp(x)))`` over ``axis``, computed stably."""

    def __init__(self, axis, keep_dims: bool = False):
        super().__init__()
        if isinstance(axis, bool) or not isinstance(axis, (int, list, tuple)):
            raise TypeError(f"For 'ReduceLogSumExp', the 'axis' must be int, list or tuple, "
                            f"but got {type(axis).__name__}.")
        if not isinstance(keep_dims, bool):
            raise TypeError(f"For 'ReduceLogSumExp', the 'keep_dims' must be bool, but got "
                            f"{type(keep_dims).__name__}.")
        self.axis = tuple(axis) if isinstance(axis, list) else axis
        self.keep_dims = keep_dims

    def construct(self, x):
        axis = self.axis if self.axis != () else tuple(range(x.ndim))
        return ops.logsumexp(x, axis, self.keep_dims)


class LBeta(Cell):
    """``log|Beta(x, y)| = lgamma(x) + lgamma(y) - lgamma(x + y)``, evaluated in float64 to
    keep the cancellation between large terms exact to the input precision."""

    def construct(self, x, y):
        _check_float_dtype("LBeta", "x", x)
        if y.dtype != x.dtype:
            raise TypeError(f"For 'LBeta', the 'y' should have the dtype of 'x' ({x.dtype}), "
                            f"but got {y.dtype}.")
        dtype = x.dtype
        x, y = ops.cast(x, mstype.float64), ops.cast(y, mstype.float64)
        out = ops.sub(ops.add(ops.lgamma(x), ops.lgamma(y)), ops.lgamma(ops.add(x, y)))
        return ops.cast(out, dtype)
