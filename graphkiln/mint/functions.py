"""``mindspore.mint`` functions whose arguments differ from ``mindspore.ops``' (PyTorch's
names: ``dim``, ``keepdim``, ``indexing="ij"``...): the running reductions, ``linspace``,
``meshgrid``, ``softmax``, ``unique``, ``kthvalue``, ``norm``, ``conv2d``, ``item``..."""
from __future__ import annotations

import graphkiln.ops as ops

from ..common import dtype as mstype
from ..common.tensor import Tensor
from ..ops import linalg_ops as LA
from ..ops import quantiles as Q
from ..ops import searching as SE

__all__ = ["cumsum", "cumprod", "cummax", "cummin", "linspace", "meshgrid", "softmax",
           "unique", "kthvalue", "norm", "conv2d", "item", "histc", "floor_divide",
           "searchsorted", "unique_consecutive", "bincount", "triangular_solve", "addcdiv",
           "addcmul", "bitwise_not", "index_add"]

searchsorted = SE.searchsorted
unique_consecutive = SE.unique_consecutive


def cumsum(input, dim, dtype=None) -> Tensor:  # noqa: A002 - MindSpore's names
    """The running sum along ``dim``."""
    return ops.cumsum(input, dim, dtype)


def cumprod(input, dim, dtype=None) -> Tensor:  # noqa: A002
    """The running product along ``dim``."""
    return ops.cumprod(input, dim, dtype)


def cummax(input, dim) -> tuple:  # noqa: A002
    """The running maximum along ``dim`` and its (int64) indices."""
    return ops.cummax(input, dim)


unique = SE.unique_ext
kthvalue = Q.kthvalue
triangular_solve = LA.triangular_solve


def cummin(input, dim) -> tuple:  # noqa: A002
    """The running minimum along ``dim`` and its (int64) indices."""
    values, indices = ops.cummin(input, dim)
    return values, ops.cast(indices, mstype.int64)


def linspace(start, end, steps, *, dtype=None) -> Tensor:
    """``steps`` evenly spaced values from ``start`` to ``end`` (float32 unless ``dtype``)."""
    out = ops.linspace(start, end, steps)
    return out if dtype is None else ops.cast(out, dtype)


def meshgrid(*tensors, indexing=None) -> tuple:
    """Coordinate grids of 1-D Tensors (``"ij"`` indexing unless ``indexing`` says)."""
    if len(tensors) == 1 and isinstance(tensors[0], (tuple, list)):
        tensors = tuple(tensors[0])
    return ops.meshgrid(*tensors, indexing="ij" if indexing is None else indexing)


def softmax(input, dim, *, dtype=None) -> Tensor:  # noqa: A002
    """The softmax along ``dim``."""
    return ops.softmax(input, dim, dtype=dtype)


def norm(input, p="fro", dim=None, keepdim=False, *, dtype=None) -> Tensor:  # noqa: A002
    """The vector ``p``-norm over ``dim`` (all elements when None); ``"fro"`` is the 2-norm,
    ``"nuc"`` the nuclear norm of the matrices of ``dim``."""
    if p == "nuc":
        return ops.matrix_norm(input, "nuc", (-2, -1) if dim is None else dim, keepdim,
                               dtype=dtype)
    return ops.vector_norm_ext(input, 2 if p == "fro" else p, dim, keepdim, dtype=dtype)


def conv2d(input, weight, bias=None, stride=1, padding=0, dilation=1,  # noqa: A002
           groups=1) -> Tensor:
    """A 2-D convolution; ``padding`` is ``"same"``, ``"valid"`` or per-side amounts."""
    if isinstance(padding, str):
        return ops.conv2d(input, weight, bias, stride, padding, 0, dilation, groups)
    return ops.conv2d(input, weight, bias, stride, "pad", padding, dilation, groups)


def item(input):  # noqa: A002
    """The single element of ``input`` as a Python number."""
    return input.item()


def histc(input, bins=100, min=0, max=0) -> Tensor:  # noqa: A002
    return ops.histc(input, bins, min, max)


def floor_divide(input, other) -> Tensor:  # noqa: A002
    return ops.floor_divide(input, other)


def bincount(input, weights=None, minlength=0) -> Tensor:  # noqa: A002
    """How often each non-negative int occurs in ``input``: int64 counts, or the sums of
    ``weights`` (in their dtype) when given."""
    out = ops.bincount(input, weights, minlength)
    return ops.cast(out, mstype.int64 if weights is None else weights.dtype)


def addcdiv(input, tensor1, tensor2, *, value=1) -> Tensor:  # noqa: A002
    """``input + value * tensor1 / tensor2``."""
    return ops.addcdiv(input, tensor1, tensor2, value)


def addcmul(input, tensor1, tensor2, *, value=1) -> Tensor:  # noqa: A002
    """``input + value * tensor1 * tensor2``."""
    return ops.addcmul(input, tensor1, tensor2, value)


def bitwise_not(input) -> Tensor:  # noqa: A002
    """The bits of integer ``input`` flipped (logical not for bool)."""
    return ops.invert(input)


def index_add(input, dim, index, source, *, alpha=1) -> Tensor:  # noqa: A002
    """``input`` plus ``alpha * source`` added at ``index`` along ``dim`` (a new Tensor)."""
    return ops.index_add(input, index, ops.mul(source, alpha) if alpha != 1 else source, dim)
