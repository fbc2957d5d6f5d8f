"""``mindspore.scipy.ops``: the primitives behind ``mindspore.scipy`` (``Eig``, ``Eigh``,
``LU``, ``LinearSumAssignment``) and ``SolveTriangular``, a callable with fixed options."""
from __future__ import annotations

from ..ops import LU, Eig, Eigh, LinearSumAssignment  # noqa: F401  (the primitive classes)
from ..ops.linalg_ops import solve_triangular

_TRANS = {"N": 0, "T": 1, "C": 2, 0: 0, 1: 1, 2: 2}


def trans_code(trans) -> int:
    """``trans`` as the primitive's 0 (``N``), 1 (``T``) or 2 (``C``)."""
    code = _TRANS.get(trans) if isinstance(trans, (str, int)) else None
    if code is None:
        raise ValueError("For SolveTriangular, Augment[trans] must be one of [0, 1, 2, 'N', "
                         f"'T', 'C'], but got {trans!r}.")
    return code


class SolveTriangular:
    """``SolveTriangular(lower, unit_diagonal, trans)(a, b)``: the solution of ``op(a) x =
    b`` for the given triangle of ``a``."""

    def __init__(self, lower: bool = False, unit_diagonal: bool = False, trans="N"):
        self.lower = lower
        self.unit_diagonal = unit_diagonal
        self.trans = trans_code(trans)

    def __call__(self, a, b):
        return solve_triangular(a, b, self.trans, self.lower, self.unit_diagonal)
