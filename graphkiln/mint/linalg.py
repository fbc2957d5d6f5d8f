"""``mindspore.mint.linalg``: norms and the inverse (the same functions as ``ops``, with
PyTorch's argument names)."""
from ..ops.linalg_ops import inverse as inv
from ..ops.norms import matrix_norm as _matrix_norm
from ..ops.norms import norm, vector_norm

__all__ = ["vector_norm", "matrix_norm", "norm", "inv"]


def matrix_norm(A, ord="fro", dim=(-2, -1), keepdim: bool = False, *, dtype=None):  # noqa: A002
    """The matrix norm of ``A`` over the two axes ``dim``."""
    return _matrix_norm(A, ord, dim, keepdim, dtype=dtype)


