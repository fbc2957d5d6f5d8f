"""``Dropout2D`` and ``Dropout3D``: zero whole channels (``x[n, c]``, a 2-D or 3-D feature map)
with probability ``1 - keep_prob`` and scale the kept ones by ``1 / keep_prob``; the outputs
are the result and the boolean channel mask broadcast to ``x``'s shape.

As ``Dropout``, the mask is a function of ``seed`` (an optional input: an int or an integer
Tensor) or, without one, of ``Seed0``/``Seed1``; ``ops.dropout2d``/``dropout3d`` draw the seed
from the process-wide stream.
"""
from __future__ import annotations

import numpy as np

from ...common import dtype as mstype
from ...ir.abstract import AbstractScalar, AbstractTensor, AbstractTuple
from ...ir.primitive import OpDef
from ._infer import FLOATS, SIGNED_INTS, describe, quiet, require_dtype, tensor_type


def _infer(name: str, ndim: int):
    def infer(x, seed=None, keep_prob=0.5, Seed0=0, Seed1=0):  # noqa: N803
        t = tensor_type(name, "x", x)
        require_dtype(name, "x", t, SIGNED_INTS + FLOATS)
        if isinstance(keep_prob, bool) or not isinstance(keep_prob, (int, float)):
            raise TypeError(f"For '{name}', the type of 'keep_prob' must be float, but got "
                            f"{type(keep_prob).__name__}.")
        if not 0.0 <= keep_prob <= 1.0:
            raise ValueError(f"For '{name}', the 'keep_prob' must be in range of [0.0, 1.0], "
                             f"but got {keep_prob} with type '{type(keep_prob).__name__}'.")
        if len(x.shape) != ndim:
            raise ValueError(f"For primitive[{name}], the rank of input must be equal to "
                             f"{ndim}, but got {len(x.shape)}.")
        if isinstance(seed, AbstractTensor) and not seed.dtype.is_int:
            raise TypeError(f"For '{name}', the 'seed' must be an int or an integer Tensor, "
                            f"but got {describe(seed)}.")
        if isinstance(seed, AbstractScalar) and seed.value is not None and (
                isinstance(seed.value, bool) or not isinstance(seed.value, int)):
            raise TypeError(f"For '{name}', the 'seed' must be an int, but got "
                            f"{describe(seed)}.")
        return AbstractTuple([AbstractTensor(t, x.shape), AbstractTensor(mstype.bool_, x.shape)])
    return infer


@quiet
def _dropout_nd(x, seed=None, keep_prob=0.5, Seed0=0, Seed1=0):  # noqa: N803
    x = np.asarray(x)
    key = [int(Seed0), int(Seed1)] if seed is None else [int(np.asarray(seed).reshape(-1)[0])
                                                          % (1 << 63)]
    channels = x.shape[:2] + (1,) * (x.ndim - 2)
    keep = np.random.default_rng(key).random(channels) < keep_prob
    mask = np.broadcast_to(keep, x.shape)
    if keep_prob == 0:
        return np.zeros_like(x), mask.copy()
    return (x * (mask / keep_prob)).astype(x.dtype), mask.copy()


_ATTRS = {"keep_prob": 0.5, "Seed0": 0, "Seed1": 0}
Dropout2D = OpDef("Dropout2D", _infer("Dropout2D", 4), _dropout_nd, attrs=dict(_ATTRS))
Dropout3D = OpDef("Dropout3D", _infer("Dropout3D", 5), _dropout_nd, attrs=dict(_ATTRS))
