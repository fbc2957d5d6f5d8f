"""``mindspore.scipy.ops_wrapper``: ``matrix_set_diag``."""
from __future__ import annotations

import graphkiln.ops as ops


def matrix_set_diag(input_x, diagonal, k=0, alignment="RIGHT_LEFT"):
    """``input_x`` with its diagonals ``k`` (an int or a ``(low, high)`` band) replaced by
    ``diagonal``, packed as ``alignment`` says."""
    if not isinstance(k, int):
        k = tuple(int(v) for v in (k.asnumpy().tolist() if hasattr(k, "asnumpy") else k))
        k = k if len(k) == 2 else k[0]
    return ops.matrix_set_diag(input_x, diagonal, k, alignment)
