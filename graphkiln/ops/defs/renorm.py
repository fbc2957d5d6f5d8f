"""``Renorm``: every slice of ``x`` along ``dim`` whose ``p``-norm exceeds ``maxnorm`` is
scaled down to norm ``maxnorm`` (the norm over all the other axes; a slice within the bound
is kept as it is).

As MindSpore 2.10: float16/32/64 and complex inputs, an int ``p`` > 0, ``maxnorm`` >= 0, the
scale ``maxnorm / (norm + 1e-7)``; float16 computes in float32.
"""
from __future__ import annotations

import numpy as np

from ...common import dtype as mstype
from ...ir.abstract import AbstractTensor
from ...ir.primitive import OpDef
from ._infer import FLOATS, describe, quiet

RENORM_EPS = 1e-7
_TYPES = (mstype.complex128, mstype.complex64) + FLOATS


def _renorm_infer(x, p=1, dim=0, maxnorm=5.0):
    if not isinstance(x, AbstractTensor) or x.dtype not in _TYPES:
        names = ", ".join(f"Tensor[{t}]" for t in _TYPES)
        raise TypeError(f"For primitive[Renorm], the input argument[x] must be a type of "
                        f"{{{names}}}, but got {describe(x)}.")
    if isinstance(p, bool) or not isinstance(p, int):
        raise TypeError(f"For 'Renorm', the type of 'p' should be 'int', but got type "
                        f"'{type(p).__name__}'.")
    if p <= 0:
        raise ValueError(f"Renorm op don't support non-positive-norm, but got {p}")
    rank = len(x.shape)
    if isinstance(dim, bool) or not isinstance(dim, int) or not -rank <= dim < max(rank, 1):
        raise RuntimeError(f"For 'Renorm, the attribute 'dim' must be in range [{-rank}, "
                           f"{rank}), but got {dim}")
    if isinstance(maxnorm, bool) or not isinstance(maxnorm, (int, float)):
        raise TypeError(f"For 'Renorm', the type of 'maxnorm' should be 'float', but got type "
                        f"'{type(maxnorm).__name__}'.")
    if maxnorm < 0:
        raise RuntimeError(f"For 'Renorm', the attribute 'maxnorm' must be non-negative, but got "
                           f"{maxnorm}")
    return AbstractTensor(x.dtype, tuple(x.shape))


def renorm_scale(x: np.ndarray, p: int, dim: int, maxnorm: float) -> np.ndarray:
    """The factor of each slice along ``dim`` (shape ``x.shape`` with 1 elsewhere)."""
    others = tuple(a for a in range(x.ndim) if a != dim % max(x.ndim, 1))
    norm = np.sum(np.abs(x) ** p, axis=others, keepdims=True) ** (1.0 / p)
    return np.where(norm > maxnorm, maxnorm / (norm + RENORM_EPS), 1.0)


@quiet
def _renorm(x, p=1, dim=0, maxnorm=5.0):
    wide = x.astype(np.float32) if x.dtype == np.float16 else x
    return (wide * renorm_scale(wide, p, dim, maxnorm)).astype(x.dtype)


Renorm = OpDef("Renorm", _renorm_infer, _renorm, attrs={"p": 1, "dim": 0, "maxnorm": 5.0})
