"""Matrix and vector products composed of ``MatMul``/``BatchMatMul`` (``ops.mm``,
``ops.outer``, ``ops.inner``, ``ops.dot``, ``ops.addmm``, ``ops.baddbmm``...), with MindSpore
2.10's names and arguments."""
from __future__ import annotations

import graphkiln.ops.functional as F

from ..common.tensor import Tensor

__all__ = ["mm", "outer", "ger", "inner", "addmm", "addbmm", "baddbmm", "addmv",
           "mv"]


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
