"""``ops.linspace(start, end, steps)``: evenly spaced values (see :mod:`.defs.ranges`)."""
from __future__ import annotations

import numpy as np

from ..common import dtype as mstype
from ..common.tensor import Tensor
from .defs import ranges as RG

__all__ = ["linspace"]


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
