"""``mint.nn.functional.grid_sample``: values of a 4-D or 5-D input at the points of a grid
in ``[-1, 1]`` coordinates, by (bi/tri)linear or nearest interpolation, composed of gathers
(so it differentiates in both the input and the grid)."""
from __future__ import annotations

import itertools
import math

import graphkiln.ops as ops

from ...common import dtype as mstype
from ...common.tensor import Tensor


def _unnormalize(coord, size: int, align_corners: bool):
    """Pixel coordinates of ``[-1, 1]`` grid values along an axis of ``size``."""
    if align_corners:
        return ops.mul(ops.add(coord, 1.0), (size - 1) / 2.0)
    return ops.div(ops.sub(ops.mul(ops.add(coord, 1.0), float(size)), 1.0), 2.0)


def _reflect(coord, low: float, high: float):
    """``coord`` folded back into ``[low, high]`` (mirrored at both ends)."""
    span = high - low
    if span <= 0:
        return ops.zeros_like(coord)
    shifted = ops.abs(ops.sub(coord, low))
    turns = ops.floor(ops.div(shifted, span))
    rest = ops.sub(shifted, ops.mul(turns, span))
    odd = ops.equal(ops.sub(turns, ops.mul(ops.floor(ops.div(turns, 2.0)), 2.0)), 1.0)
    return ops.select(odd, ops.sub(high, rest), ops.add(rest, low))


def _source(coord, size: int, padding_mode: str, align_corners: bool):
    """Where along an axis of ``size`` a grid value reads (reflected or clamped by
    ``padding_mode``)."""
    x = _unnormalize(coord, size, align_corners)
    if padding_mode == "reflection":
        x = _reflect(x, 0.0, size - 1.0) if align_corners else _reflect(x, -0.5, size - 0.5)
    if padding_mode in ("border", "reflection"):
        x = ops.clip_by_value(x, 0.0, size - 1.0)
    return x


def _tap(flat, coords: list, sizes: tuple):
    """``input[n, :, *coords]`` for integer-valued float coordinates, zero outside."""
    inside, pos = None, None
    for c, size in zip(coords, sizes):
        ok = ops.logical_and(ops.ge(c, 0.0), ops.le(c, size - 1.0))
        inside = ok if inside is None else ops.logical_and(inside, ok)
        c = ops.clip_by_value(c, 0.0, size - 1.0)
        pos = c if pos is None else ops.add(ops.mul(pos, float(size)), c)
    n = flat.shape[0]
    pos = ops.cast(ops.reshape(pos, (n, 1, -1)), mstype.int64)
    values = ops.gather_elements(flat, 2, ops.broadcast_to(pos, (n, flat.shape[1],
                                                                 pos.shape[2])))
    return ops.mul(values, ops.cast(ops.reshape(inside, (n, 1, -1)), flat.dtype))


def grid_sample(input, grid, mode="bilinear", padding_mode="zeros",
                align_corners=None) -> Tensor:
    """Sample ``(N, C, H, W)`` at the ``(N, Ho, Wo, 2)`` points ``grid`` (``x, y`` in
    ``[-1, 1]``), or ``(N, C, D, H, W)`` at ``(N, Do, Ho, Wo, 3)`` (``x, y, z``), by
    'bilinear' (trilinear for 5-D) or 'nearest' interpolation; ``padding_mode`` 'zeros',
    'border' or 'reflection' decides the values outside."""
    if mode not in ("bilinear", "nearest"):
        raise ValueError(f"For 'grid_sample', graphkiln supports mode 'bilinear' and "
                         f"'nearest', but got '{mode}'.")
    if padding_mode not in ("zeros", "border", "reflection"):
        raise ValueError(f"For 'grid_sample', the 'padding_mode' must be 'zeros', 'border' or "
                         f"'reflection', but got '{padding_mode}'.")
    rank = input.ndim - 2
    if rank not in (2, 3) or grid.ndim != input.ndim or grid.shape[-1] != rank or \
            grid.shape[0] != input.shape[0]:
        raise ValueError(f"For 'grid_sample', the 'input' must be 4-D or 5-D and the 'grid' "
                         f"(N, *out, {max(rank, 2)}) with the same N, but got shapes "
                         f"{list(input.shape)} and {list(grid.shape)}.")
    n, c = input.shape[:2]
    sizes = tuple(input.shape[2:])
    corners = bool(align_corners)
    # the grid's last axis is (x, y[, z]): the input's spatial axes in reverse
    coords = [_source(grid[..., rank - 1 - i], size, padding_mode, corners)
              for i, size in enumerate(sizes)]
    flat = ops.reshape(input, (n, c, math.prod(sizes)))
    if mode == "nearest":
        out = _tap(flat, [ops.round(x) for x in coords], sizes)
    else:
        low = [ops.floor(x) for x in coords]
        frac = [ops.sub(x, f) for x, f in zip(coords, low)]
        out = None
        for bits in itertools.product((0, 1), repeat=rank):
            taps = [ops.add(f, 1.0) if b else f for f, b in zip(low, bits)]
            weight = None
            for fr, b in zip(frac, bits):
                w = fr if b else ops.sub(1.0, fr)
                weight = w if weight is None else ops.mul(weight, w)
            term = ops.mul(_tap(flat, taps, sizes), ops.reshape(weight, (n, 1, -1)))
            out = term if out is None else ops.add(out, term)
    return ops.reshape(out, (n, c) + tuple(grid.shape[1:-1]))


__all__ = ["grid_sample"]
