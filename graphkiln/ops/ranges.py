"""``ops.linspace(start, end, steps)``: evenly spaced values (see :mod:`.defs.ranges`);
``ops.logspace`` (their powers) and ``ops.vander`` (the powers of a vector)."""
from __future__ import annotations

import numpy as np

from ..common import dtype as mstype
from ..common.tensor import Tensor
from .defs import array as A
from .defs import math as M
from .defs import ranges as RG

__all__ = ["linspace", "logspace", "vander"]


def _bound(v) -> Tensor:
    if isinstance(v, Tensor):
        return v
    if isinstance(v, (int, float, np.integer, np.floating)) and not isinstance(v, bool):
        return Tensor(v, mstype.float32)
    raise TypeError(f"For 'linspace', 'start' and 'end' must be Tensors, ints or floats, but "
                    f"got {type(v).__name__}.")


def linspace(start, end, steps) -> Tensor:
    """``steps`` evenly spaced values from ``start`` to ``end`` (both included); Python
    numbers give float32. ``steps`` is an int or a 0-d int Tensor."""
    if isinstance(steps, Tensor):
        steps = int(steps.asnumpy())
    return RG.LinSpace(_bound(start), _bound(end), steps)


def logspace(start, end, steps: int, base=10, *, dtype=mstype.float32) -> Tensor:
    """``base ** linspace(start, end, steps)`` in ``dtype``."""
    if isinstance(steps, bool) or not isinstance(steps, int) or steps < 0:
        raise ValueError(f"For 'logspace', 'steps' must be a non-negative int, but got "
                         f"{steps!r}.")
    if isinstance(base, bool) or not isinstance(base, int) or base < 0:
        raise TypeError(f"For 'logspace', 'base' must be a non-negative int, but got "
                        f"{base!r}.")
    for v in (start, end):
        if not isinstance(v, float) and not (isinstance(v, Tensor) and v.dtype.is_float):
            raise TypeError(f"For 'LogSpace', 'start' and 'end' must be floats or float "
                            f"Tensors, but got {type(v).__name__}.")
    exponents = A.Cast(linspace(start, end, steps), mstype.float64)
    return A.Cast(M.Pow(float(base), exponents), mstype.to_type(dtype))


def vander(x, N=None) -> Tensor:  # noqa: N803 - MindSpore's name
    """The Vandermonde matrix of the 1-D ``x``: column ``j`` is ``x ** (N - 1 - j)``."""
    if not isinstance(x, Tensor):
        raise TypeError(f"For vander, x must be Tensor, but got {type(x)}")
    if x.ndim != 1:
        raise ValueError(f"For vander, x must be 1-D, but got dimension = {x.ndim}")
    n = x.shape[0] if N is None else N
    if isinstance(n, bool) or not isinstance(n, int):
        raise TypeError(f"For vander, N must be an integer but got {type(n)}.")
    if n <= 0:
        raise ValueError(f"For vander, N must be greater than 0, but got {n}.")
    powers = Tensor(np.arange(n - 1, -1, -1, dtype=np.int64).reshape(1, n))
    return M.Pow(A.ExpandDims(x, 1), powers)
