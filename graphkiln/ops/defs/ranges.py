"""``LinSpace(start, stop, num)``: ``num`` evenly spaced values from ``start`` to ``stop``
(both included), with the type of the 0-d float32/float64 ``start``/``stop`` Tensors. As on
MindSpore, it carries no gradient (zero cotangents for ``start`` and ``stop``)."""
from __future__ import annotations

import numpy as np

from ...common import dtype as mstype
from ...ir.abstract import AbstractScalar, AbstractTensor
from ...ir.primitive import OpDef
from ._infer import describe, quiet

_TYPES = (mstype.float32, mstype.float64)


def _bound_type(arg: str, a) -> mstype.Type:
    if not isinstance(a, AbstractTensor) or a.dtype not in _TYPES:
        raise TypeError(f"For primitive[LinSpace], the input argument[{arg} type] must be a "
                        f"type of {{Tensor[Float32], Tensor[Float64]}}, but got {describe(a)}.")
    if len(a.shape) != 0:
        raise ValueError(f"For primitive[LinSpace], the rank of '{arg}' must be equal to 0, but "
                         f"got {len(a.shape)}.")
    return a.dtype


def _linspace_infer(start, stop, num):
    t = _bound_type("start", start)
    if _bound_type("stop", stop) is not t:
        raise TypeError(f"For primitive[LinSpace], 'start' and 'stop' must have the same type, "
                        f"but got {describe(start)} and {describe(stop)}.")
    n = num.value if isinstance(num, AbstractScalar) else None
    if isinstance(n, bool) or not isinstance(n, int):
        raise TypeError(f"For primitive[LinSpace], 'num' must be an int, but got "
                        f"{describe(num)}.")
    if n <= 0:
        raise ValueError(f"For primitive[LinSpace], the num must be greater than 0, but got "
                         f"{n}.")
    return AbstractTensor(t, (n,))


@quiet
def _linspace(start, stop, num):
    start = np.asarray(start)
    return np.linspace(start, np.asarray(stop), num).astype(start.dtype)


LinSpace = OpDef("LinSpace", _linspace_infer, _linspace, differentiable=False)
