"""``ROIAlign(features, rois)`` and its adjoint ``ROIAlignGrad(dy, rois)``: average
bilinear samples of NCHW ``features`` over a ``pooled_height`` x ``pooled_width`` grid of
bins in each region of interest ``rois[r] = (batch index, x1, y1, x2, y2)``.

As MindSpore's CPU kernel: the box is scaled by ``spatial_scale`` (its end shifted by
``roi_end_mode`` first; mode 0 makes boxes at least 1x1); each bin averages
``sample_num`` x ``sample_num`` samples (``floor(roi size / pooled size)`` when
``sample_num <= 0``); a sample outside ``[-1, size]`` counts as 0, inside it is clamped to
the image and interpolated bilinearly; a box whose x1 and x2 are both within 0.001 of 0 is
skipped (its output stays 0). Float16 and float32; float16 is computed in float32.

Bilinear sampling is separable: each box is ``Wy @ features[b] @ Wx.T`` with one weight
matrix per axis, so the gradient is ``Wy.T @ dy @ Wx`` (the rois get none, as MindSpore's).
MindSpore 2.10's gradient kernel always samples as ``roi_end_mode`` 1, so for mode 0 its
gradient is not the forward's derivative; graphkiln's is.
"""
from __future__ import annotations

import numpy as np

from ...common import dtype as mstype
from ...ir.abstract import AbstractTensor
from ...ir.primitive import OpDef
from ._infer import UNKNOWN_DIM, const_shape, quiet, require_dtype, tensor_type

_NAME = "ROIAlign"
_EPS = 0.00007
ATTRS = {"pooled_height": 1, "pooled_width": 1, "spatial_scale": 1.0, "sample_num": 2,
         "roi_end_mode": 1}
_TYPES = (mstype.float16, mstype.float32)


def _check_rois(name: str, rois, dtype) -> None:
    if tensor_type(name, "rois", rois) is not dtype:
        raise TypeError(f"For primitive[{name}], the input argument[rois] must have the "
                        f"dtype of 'features' Tensor[{dtype}], but got Tensor[{rois.dtype}].")
    if len(rois.shape) != 2 or rois.shape[1] not in (5, -1):
        raise ValueError(f"For '{name}', the 'rois' must have shape [rois_n, 5], but got "
                         f"{list(rois.shape)}.")


def _check_attrs(name: str, attrs: dict) -> None:
    a = {**ATTRS, **attrs}
    for k in ("pooled_height", "pooled_width"):
        if not isinstance(a[k], int) or isinstance(a[k], bool) or a[k] <= 0:
            raise ValueError(f"For '{name}', the '{k}' must be a positive int, but got "
                             f"{a[k]!r}.")
    if a["roi_end_mode"] not in (0, 1):
        raise ValueError(f"For '{name}', the 'roi_end_mode' must be 0 or 1, but got "
                         f"{a['roi_end_mode']!r}.")


def _infer(features, rois, **attrs):
    t = tensor_type(_NAME, "features", features)
    if t not in _TYPES:
        raise TypeError(f"For primitive[{_NAME}], the input argument[feature] must be a type "
                        f"of {{Tensor[Float16], Tensor[Float32]}}, but got Tensor[{t}].")
    if len(features.shape) != 4:
        raise ValueError(f"For '{_NAME}', the 'features' must be 4-D (NCHW), but got shape "
                         f"{list(features.shape)}.")
    _check_rois(_NAME, rois, t)
    _check_attrs(_NAME, attrs)
    a = {**ATTRS, **attrs}
    return AbstractTensor(t, (rois.shape[0], features.shape[1], a["pooled_height"],
                              a["pooled_width"]))


def _axis_weights(start: float, bin_size: float, pooled: int, grid: int,
                  size: int) -> np.ndarray:
    """``(pooled, size)``: the summed bilinear weights of each bin's ``grid`` samples."""
    weights = np.zeros((pooled, size), np.float64)
    if grid <= 0:
        return weights
    bins = np.repeat(np.arange(pooled), grid)
    steps = np.tile(np.arange(grid) + 0.5, pooled)
    pos = start + bins * bin_size + steps * bin_size / grid
    inside = (pos >= -1.0) & (pos <= size)
    pos = np.maximum(pos, 0.0)
    low = np.where(pos <= _EPS, 0, np.floor(pos)).astype(np.int64)
    last = low >= size - 1
    low = np.where(last, size - 1, low)
    high = np.where(last, size - 1, low + 1)
    pos = np.where(last, low, pos)
    frac = pos - low
    np.add.at(weights, (bins[inside], low[inside]), (1.0 - frac)[inside])
    np.add.at(weights, (bins[inside], high[inside]), frac[inside])
    return weights


def box_weights(roi: np.ndarray, height: int, width: int, attrs: dict):
    """``(Wy, Wx, count)`` of one roi (``None`` for a skipped one)."""
    a = {**ATTRS, **attrs}
    if abs(roi[1]) < 0.001 and abs(roi[3]) < 0.001:
        return None
    scale, mode = float(a["spatial_scale"]), a["roi_end_mode"]
    x1, y1, x2, y2 = (float(v) for v in roi[1:5])
    start_w, start_h = x1 * scale, y1 * scale
    roi_w, roi_h = (x2 + mode) * scale - start_w, (y2 + mode) * scale - start_h
    if mode == 0:
        roi_w, roi_h = max(roi_w, 1.0), max(roi_h, 1.0)
    ph, pw, n = a["pooled_height"], a["pooled_width"], a["sample_num"]
    bin_h, bin_w = roi_h / ph, roi_w / pw
    grid_h = n if n > 0 else int(np.floor(roi_h / ph))
    grid_w = n if n > 0 else int(np.floor(roi_w / pw))
    return (_axis_weights(start_h, bin_h, ph, grid_h, height),
            _axis_weights(start_w, bin_w, pw, grid_w, width), grid_h * grid_w)


def batch_of(name: str, roi: np.ndarray, batch: int) -> int:
    if roi[0] < 0 or roi[0] > batch - 1:
        raise RuntimeError(f"For '{name}', image_index {roi[0]} must be a number in [0,"
                           f"{batch - 1}].")
    return int(np.rint(float(roi[0]) + _EPS))


@quiet
def _roi_align(features, rois, **attrs):
    n, c, h, w = features.shape
    a = {**ATTRS, **attrs}
    out = np.zeros((rois.shape[0], c, a["pooled_height"], a["pooled_width"]), np.float32)
    x = features.astype(np.float32, copy=False)
    for r, roi in enumerate(np.asarray(rois, np.float32)):
        b = batch_of(_NAME, roi, n)
        found = box_weights(roi, h, w, attrs)
        if found is not None:
            wy, wx, count = found
            out[r] = np.einsum("ph,chw,qw->cpq", wy, x[b], wx) / count
    return out.astype(features.dtype, copy=False)


def _grad_infer(dy, rois, xdiff_shape, **attrs):
    t = tensor_type("ROIAlignGrad", "dy", dy)
    require_dtype("ROIAlignGrad", "dy", t, _TYPES)
    _check_rois("ROIAlignGrad", rois, t)
    dims = const_shape("ROIAlignGrad", "xdiff_shape", xdiff_shape, allow_unknown=True)
    if len(dims) != 4:
        raise ValueError(f"For 'ROIAlignGrad', the 'xdiff_shape' must have 4 elements, but "
                         f"got {list(dims)}.")
    return AbstractTensor(t, tuple(UNKNOWN_DIM if d is None else d for d in dims))


@quiet
def _roi_align_grad(dy, rois, xdiff_shape, **attrs):
    n, c, h, w = (int(d) for d in xdiff_shape)
    dx = np.zeros((n, c, h, w), np.float64)
    g = dy.astype(np.float64, copy=False)
    for r, roi in enumerate(np.asarray(rois, np.float32)):
        b = batch_of("ROIAlignGrad", roi, n)
        found = box_weights(roi, h, w, attrs)
        if found is not None:
            wy, wx, count = found
            dx[b] += np.einsum("ph,cpq,qw->chw", wy, g[r], wx) / count
    return dx.astype(dy.dtype)


ROIAlign = OpDef(_NAME, _infer, _roi_align, attrs=dict(ATTRS))
# (dy, rois, xdiff_shape) -> d features of that shape: the adjoint of ROIAlign in ``features``
ROIAlignGrad = OpDef("ROIAlignGrad", _grad_infer, _roi_align_grad, attrs=dict(ATTRS))
