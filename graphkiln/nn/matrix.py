"""Matrix cells of MindSpore's ``nn.layer.basic``: ``Tril``, ``Triu`` (keep one triangle of
the last two axes), ``MatrixDiag``, ``MatrixDiagPart`` and ``MatrixSetDiag`` (build, read
and overwrite the main diagonal of a batch of matrices), composed from masks."""
from __future__ import annotations

import numpy as np

import graphkiln.ops as ops

from ..common.tensor import Tensor
from .cell import Cell


def _check_k(owner: str, k) -> int:
    if isinstance(k, bool) or not isinstance(k, int):
        raise TypeError(f"For '{owner}', the 'k value' must be int, but got "
                        f"{type(k).__name__}.")
    return k


def _check_rank(owner: str, x, least: int) -> None:
    if x.ndim < least:
        raise ValueError(f"For '{owner}', the rank of 'x' must be >= {least}, but got "
                         f"{x.ndim}.")


def _eye_mask(x, rows: int, cols: int) -> Tensor:
    return Tensor(np.eye(rows, cols), x.dtype)


class Tril(Cell):
    """The lower triangle (on and below diagonal ``k``) of the last two axes."""

    def construct(self, x, k=0):
        _check_rank("Tril", x, 1)
        return ops.tril(x, _check_k("Tril", k))


class Triu(Cell):
    """The upper triangle (on and above diagonal ``k``) of the last two axes."""

    def construct(self, x, k=0):
        _check_rank("Triu", x, 1)
        return ops.triu(x, _check_k("Triu", k))


class MatrixDiag(Cell):
    """``(..., n) -> (..., n, n)``: matrices with ``x`` on their diagonal."""

    def construct(self, input_x):
        _check_rank("MatrixDiag", input_x, 1)
        n = input_x.shape[-1]
        return ops.mul(ops.expand_dims(input_x, -1), _eye_mask(input_x, n, n))


class MatrixDiagPart(Cell):
    """``(..., m, n) -> (..., min(m, n))``: the main diagonals."""

    def construct(self, input_x):
        _check_rank("MatrixDiagPart", input_x, 2)
        return ops.diagonal(input_x, 0, -2, -1)


class MatrixSetDiag(Cell):
    """``input_x`` with its main diagonals replaced by ``diagonal`` (shape ``(...,
    min(m, n))``)."""

    def construct(self, input_x, diagonal):
        _check_rank("MatrixSetDiag", input_x, 2)
        m, n = input_x.shape[-2:]
        want = tuple(input_x.shape[:-2]) + (min(m, n),)
        if tuple(diagonal.shape) != want:
            raise ValueError(f"For 'MatrixSetDiag', the shape of 'diagonal' must be {want}, "
                             f"but got {tuple(diagonal.shape)}.")
        eye = _eye_mask(input_x, m, n)
        spread = ops.expand_dims(diagonal, -1 if m <= n else -2)
        return ops.add(ops.mul(input_x, ops.sub(1.0, eye)), ops.mul(spread, eye))
