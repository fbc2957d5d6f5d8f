"""``mindspore.mint.linalg``: norms, the inverse and QR (the same functions as ``ops``, with
PyTorch's argument names)."""
from ..ops.linalg_ops import inverse as inv
from ..ops.linalg_ops import qr as _qr
from ..ops.norms import matrix_norm as _matrix_norm
from ..ops.norms import norm
from ..ops.norms import vector_norm_ext as vector_norm

__all__ = ["vector_norm", "matrix_norm", "norm", "inv", "qr"]


def matrix_norm(A, ord="fro", dim=(-2, -1), keepdim: bool = False, *, dtype=None):  # noqa: A002
    """The matrix norm of ``A`` over the two axes ``dim``."""
    return _matrix_norm(A, ord, dim, keepdim, dtype=dtype)




def qr(A, mode: str = "reduced"):
    """``(Q, R)`` of each matrix of ``A``."""
    return _qr(A, mode)
