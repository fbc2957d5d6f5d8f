"""Affine warps with OpenCV 4's fixed-point sampling, as MindSpore's bundled OpenCV 4.11
computes them (OpenCV 5 rounds some sample positions differently).

The destination pixel ``(x, y)`` samples the source at the inverse-mapped position held in
1/1024 steps (each row's start and each column's step rounded separately), then:
nearest takes the rounded position; bilinear takes 1/32 fractions and 15-bit weights. Samples
outside the image read ``fill``. Other interpolations use the installed OpenCV.
"""
from __future__ import annotations

import numpy as np

from .utils import Inter, cv2, cv2_interpolation

_AB_BITS = 10
_INTER_BITS = 5
_COEF_BITS = 15


def _inverse(m: np.ndarray) -> np.ndarray:
    """The destination-to-source matrix, inverted in float64 as OpenCV does."""
    m = m.astype(np.float64).ravel()
    det = m[0] * m[4] - m[1] * m[3]
    det = 1.0 / det if det != 0 else 0.0
    a, b, d, e = m[4] * det, -m[1] * det, -m[3] * det, m[0] * det
    return np.array([a, b, -a * m[2] - b * m[5], d, e, -d * m[2] - e * m[5]])


def _positions(inv: np.ndarray, h: int, w: int, round_delta: int, shift: int):
    """Fixed-point source positions (int64 arrays of shape (h, w)) of every pixel."""
    scale = 1 << _AB_BITS
    x, y = np.arange(w, dtype=np.float64), np.arange(h, dtype=np.float64)
    adelta = np.rint(inv[0] * x * scale).astype(np.int64)
    bdelta = np.rint(inv[3] * x * scale).astype(np.int64)
    x0 = np.rint((inv[1] * y + inv[2]) * scale).astype(np.int64) + round_delta
    y0 = np.rint((inv[4] * y + inv[5]) * scale).astype(np.int64) + round_delta
    xs = np.clip((x0[:, None] + adelta[None, :]) >> shift, -32768, 32767)
    ys = np.clip((y0[:, None] + bdelta[None, :]) >> shift, -32768, 32767)
    return xs, ys


def _gather(img: np.ndarray, xs: np.ndarray, ys: np.ndarray, fill: np.ndarray) -> np.ndarray:
    """``img[ys, xs]``, with ``fill`` where the position is outside the image."""
    h, w = img.shape[:2]
    inside = (xs >= 0) & (xs < w) & (ys >= 0) & (ys < h)
    out = img[np.clip(ys, 0, h - 1), np.clip(xs, 0, w - 1)]
    out[~inside] = fill
    return out


def warp_affine(img: np.ndarray, matrix: np.ndarray, inter: Inter, fill: list,
                size: tuple[int, int] | None = None) -> np.ndarray:
    """``img`` (uint8 or float, HW or HWC) warped by the forward 2x3 ``matrix`` into an
    image of ``size`` (height, width; default the input's)."""
    h, w = size or img.shape[:2]
    inter = Inter(inter)
    if inter not in (Inter.NEAREST, Inter.LINEAR) or img.dtype != np.uint8:
        out = cv2().warpAffine(img, matrix.astype(np.float64), (w, h),
                               flags=cv2_interpolation(inter),
                               borderMode=cv2().BORDER_CONSTANT, borderValue=fill)
        return out.reshape(h, w, *img.shape[2:])
    channels = img.shape[2] if img.ndim == 3 else 1
    fill_px = np.array((list(fill) * channels)[:channels], dtype=np.float64)
    fill_px = fill_px if img.ndim == 3 else fill_px[0]
    inv = _inverse(matrix)
    if inter is Inter.NEAREST:
        xs, ys = _positions(inv, h, w, 1 << (_AB_BITS - 1), _AB_BITS)
        return _gather(img, xs, ys, fill_px.astype(img.dtype))
    tab = 1 << _INTER_BITS
    xs, ys = _positions(inv, h, w, (1 << _AB_BITS) // tab // 2, _AB_BITS - _INTER_BITS)
    fx, fy = (xs & (tab - 1)).astype(np.int64), (ys & (tab - 1)).astype(np.int64)
    sx, sy = xs >> _INTER_BITS, ys >> _INTER_BITS
    # 15-bit weights of the 1/32 fractions: exact products of k/32, summing to 1 << 15
    unit = 1 << _COEF_BITS
    wx1, wy1 = fx * unit // tab, fy * unit // tab
    wx0, wy0 = unit - wx1, unit - wy1
    if img.ndim == 3:
        wx0, wx1, wy0, wy1 = (a[..., None] for a in (wx0, wx1, wy0, wy1))
    acc = np.zeros((h, w, *img.shape[2:]), dtype=np.int64)
    fill_int = fill_px.astype(np.int64)
    for dy, wy in ((0, wy0), (1, wy1)):
        for dx, wx in ((0, wx0), (1, wx1)):
            weight = wy * wx // unit
            acc += weight * _gather(img, sx + dx, sy + dy, fill_int.astype(img.dtype)).astype(
                np.int64)
    return ((acc + (1 << (_COEF_BITS - 1))) >> _COEF_BITS).astype(np.uint8)
