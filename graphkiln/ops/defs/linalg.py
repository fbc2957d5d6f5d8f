"""Linear-system primitives: ``MatrixSolve`` (``X`` with ``A @ X = B`` for a batch of square
``A``, or ``A^H @ X = B`` with ``adjoint``).

As MindSpore's CPU kernel: float16/32/64 and complex64/128 inputs of one dtype, the batch
dimensions of ``matrix`` and ``rhs`` equal (no broadcasting); float16 is solved in float32;
a singular matrix is a ValueError. Solved with LAPACK through ``np.linalg.solve``.
"""
from __future__ import annotations

import numpy as np

from ...common import dtype as mstype
from ...ir.abstract import AbstractTensor
from ...ir.primitive import OpDef
from ._infer import describe, dims_match

_TYPES = (mstype.complex128, mstype.complex64, mstype.float16, mstype.float32, mstype.float64)
_NAME = "For primitive[MatrixSolve]"


def _matrix_solve_infer(matrix, rhs, adjoint=False):
    for arg, a in (("matrix", matrix), ("rhs", rhs)):
        if not isinstance(a, AbstractTensor):
            raise TypeError(f"{_NAME}, the input argument[{arg}] must be a Tensor, but got "
                            f"{describe(a)}.")
    if matrix.dtype not in _TYPES:
        names = ", ".join(f"Tensor[{t}]" for t in _TYPES)
        raise TypeError(f"{_NAME}, the input argument[matrix type] must be a type of "
                        f"{{{names}}}, but got Tensor[{matrix.dtype}].")
    if rhs.dtype is not matrix.dtype:
        raise TypeError(f"{_NAME}, the input type must be same.\nname:[matrix type]:"
                        f"Tensor[{matrix.dtype}].\nname:[rhs type]:Tensor[{rhs.dtype}].")
    ms, rs = matrix.shape, rhs.shape
    if len(ms) < 2:
        raise ValueError(f"{_NAME}, the dimension of 'matrix' must be greater than or equal "
                         f"to 2 , but got {len(ms)}.")
    if len(rs) != len(ms):
        raise ValueError(f"{_NAME}, the dimension of 'rhs' must be equal to the dimension of "
                         f"'matrix' {len(ms)}, but got {len(rs)}.")
    if not dims_match(ms[-1], ms[-2]):
        raise ValueError(f"{_NAME}, the M in the shape of 'matrix' [..., M, M] must be equal "
                         f"to {ms[-2]} , but got {ms[-1]}.")
    if not dims_match(ms[-2], rs[-2]):
        raise ValueError(f"{_NAME}, the M in the shape of 'matrix' [..., M, M] must be equal "
                         f"to M in the shape of 'rhs' [..., M, K] which is {rs[-2]} , but got "
                         f"{ms[-2]}.")
    for k, (dm, dr) in enumerate(zip(ms[:-2], rs[:-2])):
        if not dims_match(dm, dr):
            raise ValueError(f"{_NAME}, the {k}th dimension of 'matrix' must be equal to {k}th "
                             f"dimension of 'rhs' which is {dr} , but got {dm}.")
    return AbstractTensor(rhs.dtype, tuple(rs))


def _matrix_solve(matrix, rhs, adjoint=False):
    dtype = rhs.dtype
    if dtype == np.float16:
        matrix, rhs = matrix.astype(np.float32), rhs.astype(np.float32)
    if adjoint:
        matrix = np.conj(np.swapaxes(matrix, -1, -2))
    try:
        out = np.linalg.solve(matrix, rhs)
    except np.linalg.LinAlgError:
        raise ValueError("For 'MatrixSolve', the input 'matrix' is not invertible.") from None
    return out.astype(dtype, copy=False)


MatrixSolve = OpDef("MatrixSolve", _matrix_solve_infer, _matrix_solve, attrs={"adjoint": False})
