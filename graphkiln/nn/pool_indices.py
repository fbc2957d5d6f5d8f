"""The flat input index of each window maximum of a 2-D max pooling (``MaxPool2d`` with
``return_indices=True``): the windows of a constant index image (padding marked by an
extra, ``-inf``-valued position) gather the input's values, ``argmax`` picks the first
maximum of each window, and the index image gives its position in the ``H * W`` plane."""
from __future__ import annotations

import numpy as np

import graphkiln.ops as ops
import graphkiln.ops.defs.pool as P

from ..common import dtype as mstype
from ..common.tensor import Tensor


def window_positions(sizes: tuple, attrs: dict) -> np.ndarray:
    """``(*out, K)``: the flat input position under each window tap, ``H * W`` where the
    tap falls in the padding."""
    h, w = sizes
    geo = P.pool_geometry("MaxPool", sizes, attrs)
    image = np.arange(h * w, dtype=np.float64).reshape(1, 1, h, w)
    taps = geo.windows(image, -1.0).reshape(geo.out + (-1,))
    return np.where(taps < 0, h * w, taps).astype(np.int64)


def max_pool_indices(x, attrs: dict):
    """int64 ``(N, C, *out)`` flat indices (in each ``H * W`` plane) of the maxima of the
    ``MaxPool`` windows that ``attrs`` describe, for an ``(N, C, H, W)`` ``x``."""
    n, c, h, w = x.shape
    table = window_positions((h, w), attrs)
    out, taps = table.shape[:-1], table.shape[-1]
    flat = ops.reshape(x, (n, c, h * w))
    pad = ops.fill(x.dtype, (n, c, 1), float("-inf"))
    values = ops.gather(ops.concat((flat, pad), -1), Tensor(table.reshape(-1)), 2)
    best = ops.argmax(ops.reshape(values, (n, c) + out + (taps,)), -1)
    picks = ops.reshape(ops.cast(best, mstype.int64), (n, c, -1, 1))
    positions = ops.broadcast_to(Tensor(table.reshape(1, 1, -1, taps)), (n, c, -1, taps))
    index = ops.gather_elements(positions, 3, picks)
    return ops.reshape(index, (n, c) + out)
