"""``GridSampler2D``/``GridSampler3D`` (``input`` sampled at the points of ``grid``) and their
gradients ``GridSampler2DGrad``/``GridSampler3DGrad``, as MindSpore's (PyTorch's
``grid_sample``).

``input`` is ``(N, C, *S)`` (``S`` = ``(H, W)`` or ``(D, H, W)``), ``grid`` ``(N, *O, k)``
with ``k`` = 2 or 3 normalised coordinates in ``[-1, 1]`` ordered ``(x, y[, z])`` (``x``
indexes the last spatial axis); the result is ``(N, C, *O)``. A coordinate maps to
``(c + 1) / 2 * (size - 1)`` with ``align_corners`` (the extremes are the corner pixels'
centres), else ``((c + 1) * size - 1) / 2``. ``padding_mode``: ``zeros`` (points outside
read 0), ``border`` (clamped), ``reflection`` (mirrored at the border, then clamped).
``bilinear`` (trilinear in 3-D) weighs the ``2**k`` neighbours; ``nearest`` rounds half to
even and has no gradient in ``grid``. The gradient ops take ``(grad, input, grid)`` and give
``(d input, d grid)``; an ``output_mask`` entry 0 gives zeros for that output.
"""
from __future__ import annotations

import itertools

import numpy as np

from ...common import dtype as mstype
from ...ir.abstract import AbstractTensor, AbstractTuple
from ...ir.primitive import OpDef
from ._infer import dims_match, quiet, require_dtype, shapes_match, tensor_type

_MODES = ("bilinear", "nearest")
_PADDINGS = ("zeros", "border", "reflection")
_ATTRS = {"interpolation_mode": "bilinear", "padding_mode": "zeros", "align_corners": False}
_TYPES = {2: (mstype.float16, mstype.float32, mstype.float64),
          3: (mstype.float32, mstype.float64)}


def _reflect(c: np.ndarray, low2: float, high2: float):
    """``c`` mirrored into ``[low2 / 2, high2 / 2]`` and the derivative's sign."""
    if low2 == high2:
        return np.zeros_like(c), np.zeros_like(c)
    lo, span = low2 / 2, (high2 - low2) / 2
    sign = np.where(c < lo, -1.0, 1.0)
    dist = np.abs(c - lo)
    flips = np.floor(dist / span)
    extra = np.fmod(dist, span)
    even = flips % 2 == 0
    return np.where(even, extra + lo, span - extra + lo), np.where(even, sign, -sign)


def _source(g: np.ndarray, size: int, align: bool, padding: str):
    """Pixel coordinates of normalised ``g`` along an axis of ``size``, and d(coord)/dg."""
    if align:
        c, d = (g + 1) / 2 * (size - 1), np.full_like(g, (size - 1) / 2)
    else:
        c, d = ((g + 1) * size - 1) / 2, np.full_like(g, size / 2)
    if padding == "reflection":
        c, s = _reflect(c, 0.0, 2.0 * (size - 1)) if align else \
            _reflect(c, -1.0, 2.0 * size - 1)
        d = d * s
    if padding in ("border", "reflection"):
        inside = (c > 0) & (c < size - 1)
        d = np.where(inside, d, 0.0)
        c = np.clip(c, 0, size - 1)
    return c, d


class _Sampler:
    """The sampling points of one call: per spatial axis the coordinates and derivatives."""

    def __init__(self, x: np.ndarray, grid: np.ndarray, attrs: dict):
        self.k = grid.shape[-1]
        self.sizes = x.shape[2:]
        self.mode = attrs["interpolation_mode"]
        self.batch = np.arange(x.shape[0]).reshape((-1,) + (1,) * (grid.ndim - 2))
        pts = [_source(grid[..., self.k - 1 - i].astype(np.float64), self.sizes[i],
                       attrs["align_corners"], attrs["padding_mode"]) for i in range(self.k)]
        self.coords = [c for c, _ in pts]
        self.scales = [d for _, d in pts]

    def corners(self):
        """``(indices per axis, weight, d weight / d coord per axis, inside)`` per corner."""
        if self.mode == "nearest":
            idx = [np.rint(c).astype(np.int64) for c in self.coords]
            yield idx, np.ones(idx[0].shape), None, self._inside(idx)
            return
        low = [np.floor(c).astype(np.int64) for c in self.coords]
        frac = [c - lo for c, lo in zip(self.coords, low)]
        for bits in itertools.product((0, 1), repeat=self.k):
            idx = [lo + b for lo, b in zip(low, bits)]
            ws = [f if b else 1 - f for f, b in zip(frac, bits)]
            weight = np.prod(ws, axis=0)
            dws = [np.prod([w for j, w in enumerate(ws) if j != i], axis=0) * (1 if b else -1)
                   for i, b in enumerate(bits)]
            yield idx, weight, dws, self._inside(idx)

    def _inside(self, idx) -> np.ndarray:
        ok = np.ones(idx[0].shape, bool)
        for i, s in zip(idx, self.sizes):
            ok &= (i >= 0) & (i < s)
        return ok

    def where(self, idx, inside) -> tuple:
        """The index tuple of an ``(N, *S, C)`` array at the corner (outside: 0)."""
        return (self.batch,) + tuple(np.where(inside, i, 0) for i in idx)


def _channels_last(x: np.ndarray) -> np.ndarray:
    return np.moveaxis(x, 1, -1)


@quiet
def _sample(x, grid, interpolation_mode="bilinear", padding_mode="zeros",
            align_corners=False):
    x, grid = np.asarray(x), np.asarray(grid)
    s = _Sampler(x, grid, {"interpolation_mode": interpolation_mode,
                           "padding_mode": padding_mode, "align_corners": align_corners})
    xl = _channels_last(x).astype(np.float64)
    out = np.zeros(grid.shape[:-1] + (x.shape[1],))
    for idx, weight, _, inside in s.corners():
        out += xl[s.where(idx, inside)] * (weight * inside)[..., None]
    return np.moveaxis(out, -1, 1).astype(x.dtype)


@quiet
def _sample_grad(grad, x, grid, interpolation_mode="bilinear", padding_mode="zeros",
                 align_corners=False, output_mask=(1, 1)):
    grad, x, grid = np.asarray(grad), np.asarray(x), np.asarray(grid)
    s = _Sampler(x, grid, {"interpolation_mode": interpolation_mode,
                           "padding_mode": padding_mode, "align_corners": align_corners})
    xl = _channels_last(x).astype(np.float64)
    gl = _channels_last(grad).astype(np.float64)  # (N, *O, C)
    dx = np.zeros(xl.shape)
    dcoord = [np.zeros(grid.shape[:-1]) for _ in range(s.k)]
    for idx, weight, dws, inside in s.corners():
        at = s.where(idx, inside)
        np.add.at(dx, at, gl * (weight * inside)[..., None])
        if dws is not None:
            dot = np.sum(gl * xl[at], axis=-1) * inside
            for i, dw in enumerate(dws):
                dcoord[i] += dot * dw
    dgrid = np.stack([dcoord[s.k - 1 - j] * s.scales[s.k - 1 - j] for j in range(s.k)], -1)
    dx = np.moveaxis(dx, -1, 1).astype(x.dtype)
    dgrid = dgrid.astype(grid.dtype)
    mask = tuple(output_mask)
    return (dx if mask[0] else np.zeros_like(dx), dgrid if mask[1] else np.zeros_like(dgrid))


@quiet
def _grid_tangent(x, grid, tangent, interpolation_mode="bilinear", padding_mode="zeros",
                  align_corners=False):
    """The derivative of the sampled values along ``tangent`` (a direction in ``grid``)."""
    x, grid, tangent = np.asarray(x), np.asarray(grid), np.asarray(tangent, np.float64)
    s = _Sampler(x, grid, {"interpolation_mode": interpolation_mode,
                           "padding_mode": padding_mode, "align_corners": align_corners})
    xl = _channels_last(x).astype(np.float64)
    out = np.zeros(grid.shape[:-1] + (x.shape[1],))
    coord_tangents = [tangent[..., s.k - 1 - i] * s.scales[i] for i in range(s.k)]
    for idx, _, dws, inside in s.corners():
        if dws is None:  # (nearest: piecewise constant)
            break
        dw = sum(d * t for d, t in zip(dws, coord_tangents)) * inside
        out += xl[s.where(idx, inside)] * dw[..., None]
    return np.moveaxis(out, -1, 1).astype(x.dtype)


def _tangent_infer(x, grid, tangent, **attrs):
    k = len(x.shape) - 2
    if k not in (2, 3):
        raise ValueError(f"For 'GridSamplerGridTangent', the 'x' must be 4-D or 5-D, but got "
                         f"shape {list(x.shape)}.")
    name = "GridSamplerGridTangent"
    t, out = _check(name, k, x, grid, {**_ATTRS, **attrs})
    if tensor_type(name, "tangent", tangent) is not t or \
            not shapes_match(tuple(tangent.shape), tuple(grid.shape)):
        raise TypeError(f"For '{name}', the 'tangent' must be a Tensor like 'grid' "
                        f"({t}, shape {list(grid.shape)}), but got {tangent.dtype} of shape "
                        f"{list(tangent.shape)}.")
    return AbstractTensor(t, out)


# (x, grid, tangent) -> the sampled values' derivative along ``tangent`` in grid (used by
# the gradient ops' backward rule, i.e. forward-mode differentiation of GridSampler)
GridSamplerGridTangent = OpDef("GridSamplerGridTangent", _tangent_infer, _grid_tangent,
                               attrs=dict(_ATTRS))


def _check(name: str, k: int, x, grid, attrs: dict, grad=None):
    t = tensor_type(name, "input_x", x)
    require_dtype(name, "input_x", t, _TYPES[k])
    if tensor_type(name, "grid", grid) is not t or \
            grad is not None and tensor_type(name, "grad", grad) is not t:
        raise TypeError(f"For primitive[{name}], the input type must be same, but got "
                        f"input_x Tensor[{t}] and grid Tensor[{grid.dtype}].")
    if attrs["interpolation_mode"] not in _MODES:
        raise ValueError(f"For '{name}', the 'interpolation_mode' must be one of "
                         f"{list(_MODES)}, but got {attrs['interpolation_mode']!r}.")
    if attrs["padding_mode"] not in _PADDINGS:
        raise ValueError(f"For '{name}', the 'padding_mode' must be one of {list(_PADDINGS)}, "
                         f"but got {attrs['padding_mode']!r}.")
    if not isinstance(attrs["align_corners"], bool):
        raise TypeError(f"For '{name}', the 'align_corners' must be a bool, but got "
                        f"{type(attrs['align_corners']).__name__}.")
    rank = k + 2
    if len(x.shape) != rank or len(grid.shape) != rank:
        raise ValueError(f"For '{name}', the 'input_x' and 'grid' must be {rank}-D, but got "
                         f"shapes {list(x.shape)} and {list(grid.shape)}.")
    if not dims_match(x.shape[0], grid.shape[0]) or not dims_match(grid.shape[-1], k):
        raise ValueError(f"For '{name}', the 'grid' must have shape (N, ..., {k}) with the "
                         f"batch of 'input_x' {x.shape[0]}, but got {list(grid.shape)}.")
    out = (x.shape[0], x.shape[1]) + tuple(grid.shape[1:-1])
    if grad is not None and (len(grad.shape) != rank or not all(
            dims_match(a, b) for a, b in zip(grad.shape, out))):
        raise ValueError(f"For '{name}', the 'grad' must have the forward output's shape "
                         f"{list(out)}, but got {list(grad.shape)}.")
    return t, out


def _forward(k: int) -> OpDef:
    name = f"GridSampler{k}D"

    def infer(x, grid, **attrs):
        t, out = _check(name, k, x, grid, {**_ATTRS, **attrs})
        return AbstractTensor(t, out)
    return OpDef(name, infer, _sample, attrs=dict(_ATTRS))


def _backward(k: int) -> OpDef:
    name = f"GridSampler{k}DGrad"

    def infer(grad, x, grid, output_mask=(1, 1), **attrs):
        t, _ = _check(name, k, x, grid, {**_ATTRS, **attrs}, grad)
        return AbstractTuple([AbstractTensor(t, tuple(x.shape)),
                              AbstractTensor(t, tuple(grid.shape))])
    return OpDef(name, infer, _sample_grad, attrs={**_ATTRS, "output_mask": (1, 1)})


GridSampler2D = _forward(2)
GridSampler3D = _forward(3)
# (grad, input_x, grid) -> (d input_x, d grid)
GridSampler2DGrad = _backward(2)
GridSampler3DGrad = _backward(3)
