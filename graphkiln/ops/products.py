"""Matrix and vector products composed of ``MatMul``/``BatchMatMul`` (``ops.mm``,
``ops.outer``, ``ops.inner``, ``ops.dot``, ``ops.addmm``, ``ops.baddbmm``...), with MindSpore
2.10's names and arguments."""
from __future__ import annotations

import builtins

import numpy as np

import graphkiln.ops.functional as F

from ..common import dtype as mstype
from ..common.tensor import Tensor

__all__ = ["mm", "outer", "ger", "inner", "addmm", "addbmm", "baddbmm", "addmv",
           "mv", "kron", "addr", "tensor_dot", "batch_dot", "cross", "vecdot", "dense",
           "bidense"]


def _check_rank(name: str, arg: str, x, rank: int) -> None:
    if not isinstance(x, Tensor):
        raise TypeError(f"For '{name}', the '{arg}' must be a Tensor, but got "
                        f"{type(x).__name__}.")
    if x.ndim != rank:
        raise ValueError(f"For '{name}', the '{arg}' must be a {rank}-D Tensor, but got a "
                         f"{x.ndim}-D Tensor.")


def mm(input, mat2) -> Tensor:
    """The product of two matrices."""
    _check_rank("mm", "input", input, 2)
    _check_rank("mm", "mat2", mat2, 2)
    return F.matmul(input, mat2)


def mv(input, vec) -> Tensor:
    """The product of a matrix and a vector."""
    _check_rank("mv", "input", input, 2)
    _check_rank("mv", "vec", vec, 1)
    return F.matmul(input, vec)


def outer(input, vec2) -> Tensor:
    """``input[i] * vec2[j]`` of two vectors."""
    _check_rank("outer", "input", input, 1)
    _check_rank("outer", "vec2", vec2, 1)
    return F.mul(F.reshape(input, (-1, 1)), F.reshape(vec2, (1, -1)))


ger = outer


def inner(input, other) -> Tensor:
    """The sum of products over the last dimensions (a product with a 0-D operand)."""
    if not isinstance(input, Tensor) or not isinstance(other, Tensor) or \
            input.ndim == 0 or other.ndim == 0:
        return F.mul(input, other)
    if input.shape[-1] != other.shape[-1]:
        raise ValueError(f"For 'inner', the last dimensions of 'input' and 'other' must be "
                         f"equal, but got {input.shape[-1]} and {other.shape[-1]}.")
    k = input.shape[-1]
    rows = F.reshape(input, (-1, k))
    cols = F.reshape(other, (-1, k))
    out = F.matmul(rows, F.transpose(cols, (1, 0)))
    return F.reshape(out, tuple(input.shape[:-1]) + tuple(other.shape[:-1]))


def _scaled_sum(input, product, beta, alpha) -> Tensor:
    """``beta * input + alpha * product``; ``beta == 0`` ignores ``input`` (its NaNs too)."""
    scaled = product if alpha == 1 else F.mul(product, alpha)
    base = F.zeros_like(input) if beta == 0 else (input if beta == 1 else F.mul(input, beta))
    return F.add(base, scaled)


def addmm(input, mat1, mat2, *, beta=1, alpha=1) -> Tensor:
    """``beta * input + alpha * (mat1 @ mat2)``."""
    return _scaled_sum(input, mm(mat1, mat2), beta, alpha)


def addmv(input, mat, vec, *, beta=1, alpha=1) -> Tensor:
    """``beta * input + alpha * (mat @ vec)``."""
    return _scaled_sum(input, mv(mat, vec), beta, alpha)


def baddbmm(input, batch1, batch2, *, beta=1, alpha=1) -> Tensor:
    """``beta * input + alpha * (batch1 @ batch2)`` per batch."""
    _check_rank("baddbmm", "batch1", batch1, 3)
    _check_rank("baddbmm", "batch2", batch2, 3)
    return _scaled_sum(input, F.bmm(batch1, batch2), beta, alpha)


def addbmm(input, batch1, batch2, *, beta=1, alpha=1) -> Tensor:
    """``beta * input + alpha * sum_b(batch1[b] @ batch2[b])``."""
    _check_rank("addbmm", "batch1", batch1, 3)
    _check_rank("addbmm", "batch2", batch2, 3)
    product = F.reduce_sum(F.bmm(batch1, batch2), 0, False)
    return _scaled_sum(input, product, beta, alpha)


def kron(input, other) -> Tensor:
    """The Kronecker product: each element of ``input`` times the whole of ``other``."""
    for name, x in (("input", input), ("other", other)):
        if not isinstance(x, Tensor):
            raise TypeError(f"the {name} must be Tensor!")
    if input.ndim == 0 or other.ndim == 0:
        return F.mul(input, other)
    n = builtins.max(input.ndim, other.ndim)
    xs = (1,) * (n - input.ndim) + tuple(input.shape)
    ys = (1,) * (n - other.ndim) + tuple(other.shape)
    x = F.reshape(input, tuple(d for s in xs for d in (s, 1)))
    y = F.reshape(other, tuple(d for s in ys for d in (1, s)))
    return F.reshape(F.mul(x, y), tuple(a * b for a, b in zip(xs, ys)))


def addr(x, vec1, vec2, *, beta=1, alpha=1) -> Tensor:
    """``beta * x + alpha * outer(vec1, vec2)``."""
    _check_rank("addr", "vec1", vec1, 1)
    _check_rank("addr", "vec2", vec2, 1)
    return _scaled_sum(x, F.mul(F.expand_dims(vec1, 1), F.expand_dims(vec2, 0)), beta, alpha)


def _dot_axes(axes, r1: int, r2: int) -> tuple:
    if isinstance(axes, int) and not isinstance(axes, bool):
        if axes < 0 or axes > builtins.min(r1, r2):
            raise ValueError(f"For 'tensor_dot', 'axes' must be in [0, {builtins.min(r1, r2)}], "
                             f"but got {axes}.")
        return tuple(range(r1 - axes, r1)), tuple(range(axes))
    if not isinstance(axes, (tuple, list)) or len(axes) != 2:
        raise TypeError(f"For 'tensor_dot', 'axes' must be an int or a pair of axis lists, "
                        f"but got {axes!r}.")
    a, b = ((v,) if isinstance(v, int) else tuple(v) for v in axes)
    if len(a) != len(b):
        raise ValueError(f"For 'tensor_dot', the two axis lists must have the same length, but "
                         f"got {axes!r}.")
    return tuple(v % r1 for v in a), tuple(v % r2 for v in b)


def tensor_dot(x1, x2, axes) -> Tensor:
    """The sum of products of ``x1`` and ``x2`` over the paired ``axes`` (an int ``n``: the
    last ``n`` of ``x1`` with the first ``n`` of ``x2``)."""
    a1, a2 = _dot_axes(axes, x1.ndim, x2.ndim)
    for i, j in zip(a1, a2):
        if x1.shape[i] != x2.shape[j]:
            raise ValueError(f"For 'tensor_dot', the axes to sum over must have the same "
                             f"size, but got {x1.shape} and {x2.shape} at {axes!r}.")
    free1 = [i for i in range(x1.ndim) if i not in a1]
    free2 = [j for j in range(x2.ndim) if j not in a2]
    size = int(np.prod([x1.shape[i] for i in a1], dtype=np.int64))
    m = F.reshape(F.transpose(x1, tuple(free1) + a1), (-1, size))
    k = F.reshape(F.transpose(x2, a2 + tuple(free2)), (size, -1))
    shape = tuple(x1.shape[i] for i in free1) + tuple(x2.shape[j] for j in free2)
    return F.reshape(F.matmul(m, k), shape)


def _batch_axes(axes, r1: int, r2: int) -> list:
    if axes is None:
        axes = [r1 - 1, r2 - 1 if r2 == 2 else r2 - 2]
    elif isinstance(axes, int) and not isinstance(axes, bool):
        if axes == 0 or abs(axes) > builtins.min(r1, r2):
            raise ValueError(f"For 'batch_dot', 'axes' must be a non-zero int no larger than "
                             f"the ranks, but got {axes}.")
        axes = [axes + r1, axes + r2] if axes < 0 else [axes, axes]
    else:
        axes = list(axes)
        if len(axes) != 2 or 0 in axes:
            raise ValueError(f"For 'batch_dot', 'axes' must be 2 non-zero axes, but got "
                             f"{axes}.")
        axes = [axes[0] % r1, axes[1] % r2]
    return axes


def batch_dot(x1, x2, axes=None) -> Tensor:
    """Per example (the first axis), the sum of products of ``x1`` and ``x2`` over the axes
    ``axes`` (the last of ``x1`` and the second last of ``x2`` by default)."""
    for name, x in (("x1", x1), ("x2", x2)):
        if not isinstance(x, Tensor) or x.ndim < 2:
            raise ValueError(f"For 'batch_dot', the inputs x1, x2 should have 'dimension >= 2', "
                             f"but got {name}.")
        if x.dtype != mstype.float32:
            raise TypeError(f"For 'batch_dot', the '{name}' must be a float32 Tensor, but got "
                            f"{x.dtype}.")
    if x1.shape[0] != x2.shape[0]:
        raise ValueError(f"For 'batch_dot', the batch sizes must be equal, but got "
                         f"{x1.shape[0]} and {x2.shape[0]}.")
    a1, a2 = _batch_axes(axes, x1.ndim, x2.ndim)
    r1, r2 = x1.ndim, x2.ndim
    if r1 == 2:
        x1, a1 = F.expand_dims(x1, 1), a1 + 1
    if r2 == 2:
        x2 = F.expand_dims(x2, 2)
    free1 = [i for i in range(1, x1.ndim) if i != a1]
    free2 = [i for i in range(1, x2.ndim) if i != a2]
    n = x1.shape[0]
    left = F.reshape(F.transpose(x1, (0, *free1, a1)), (n, -1, x1.shape[a1]))
    right = F.reshape(F.transpose(x2, (0, a2, *free2)), (n, x2.shape[a2], -1))
    shape = (n,) + tuple(x1.shape[i] for i in free1) + tuple(x2.shape[i] for i in free2)
    out = F.reshape(F.matmul(left, right), shape)
    if r1 == 2:
        out = F.squeeze(out, 1)
    elif r2 == 2:
        out = F.squeeze(out, -1)
    return out


def cross(input, other, dim=None) -> Tensor:
    """The cross product of the 3-vectors along ``dim`` (the first axis of size 3 when
    None)."""
    if not isinstance(input, Tensor) or not isinstance(other, Tensor):
        raise TypeError("For 'cross', 'input' and 'other' must be Tensors.")
    if tuple(input.shape) != tuple(other.shape):
        raise ValueError(f"For 'cross', 'input' and 'other' must have the same shape, but got "
                         f"{input.shape} and {other.shape}.")
    if dim is None:
        dim = next((i for i, d in enumerate(input.shape) if d == 3), None)
        if dim is None:
            raise ValueError("For 'cross', no dimension of the input has size 3.")
    if not -input.ndim <= dim < input.ndim or input.shape[dim] != 3:
        raise ValueError(f"For 'cross', the dimension 'dim' of the inputs must have size 3, "
                         f"but got dim={dim} of shape {input.shape}.")
    nxt, last = Tensor(np.array([1, 2, 0], np.int64)), Tensor(np.array([2, 0, 1], np.int64))
    d = dim % input.ndim
    return F.sub(F.mul(F.gather(input, nxt, d), F.gather(other, last, d)),
                 F.mul(F.gather(input, last, d), F.gather(other, nxt, d)))


def vecdot(x, y, *, axis=-1) -> Tensor:
    """The dot products of ``x`` (conjugated when complex) and ``y`` along ``axis``."""
    for name, v in (("x", x), ("y", y)):
        if not isinstance(v, Tensor):
            raise TypeError(f"For 'vecdot', '{name}' must be a Tensor, but got "
                            f"{type(v).__name__}.")
    left = F.conj(x) if x.dtype.is_complex else x
    return F.reduce_sum(F.mul(left, y), axis)


def dense(input, weight, bias=None) -> Tensor:  # noqa: A002
    """``input @ weight^T + bias`` (the last axis of ``input`` against the rows of
    ``weight``)."""
    if input.shape[-1] != weight.shape[-1]:
        raise ValueError(f"For 'Dense', the last dimension of 'input' ({input.shape[-1]}) "
                         f"must equal that of 'weight' ({weight.shape[-1]}).")
    out = F.matmul(input, F.swapaxes(weight, -1, -2) if weight.ndim > 1 else weight)
    return out if bias is None else F.add(out, bias)


def bidense(input1, input2, weight, bias=None) -> Tensor:
    """The bilinear map ``y[..., k] = input1 @ weight[k] @ input2 + bias[k]``: ``weight`` is
    (out, in1, in2), the inputs share every dimension but their last."""
    for arg, x in (("input1", input1), ("input2", input2), ("weight", weight), ("bias", bias)):
        if x is not None and not isinstance(x, Tensor):
            raise TypeError(f"For 'bidense', the '{arg}' must be a Tensor, but got "
                            f"{type(x).__name__}.")
    lead = tuple(input1.shape[:-1])
    if lead != tuple(input2.shape[:-1]):
        raise ValueError(f"For 'bidense', the dimensions except the last of 'input1' must be "
                         f"same as 'input2', but got {tuple(input1.shape)} of 'input1' and "
                         f"{tuple(input2.shape)} of 'input2'")
    if weight.ndim != 3 or tuple(weight.shape[1:]) != (input1.shape[-1], input2.shape[-1]):
        raise ValueError(f"For 'bidense', the 'weight' must have the shape (out, "
                         f"{input1.shape[-1]}, {input2.shape[-1]}), but got "
                         f"{tuple(weight.shape)}.")
    out_channels, in1, in2 = (int(d) for d in weight.shape)
    x1 = F.reshape(input1, (-1, in1))
    x2 = F.reshape(input2, (-1, in2))
    # (B, in1) @ (in1, out * in2) -> (B, out, in2), contracted with x2 over in2
    w = F.reshape(F.transpose(weight, (1, 0, 2)), (in1, -1))
    mixed = F.reshape(F.matmul(x1, w), (-1, out_channels, in2))
    out = F.reduce_sum(F.mul(mixed, F.expand_dims(x2, 1)), 2)
    if bias is not None:
        if bias.dtype != input1.dtype or bias.dtype != input2.dtype:
            raise TypeError(f"For 'bidense', the dtype of 'bias', 'input1' and 'input2' must "
                            f"be the same, but got {bias.dtype}, {input1.dtype} and "
                            f"{input2.dtype}.")
        out = F.add(out, bias)
    return F.reshape(out, lead + (out_channels,))
