"""``ResizeBilinearV2`` (an NCHW image resized to ``size`` by bilinear interpolation, as
MindSpore's CPU kernel) and its backward ``ResizeBilinearGrad``.

Output position ``i`` of an axis reads source coordinate ``s = i * scale`` (``(i + 0.5) *
scale - 0.5`` with ``half_pixel_centers``; ``scale = (in - 1) / (out - 1)`` with
``align_corners``, else ``in / out``) and blends rows ``max(floor(s), 0)`` and
``min(ceil(s), in - 1)`` by ``s - floor(s)``. Each axis is a matrix ``M`` (``out x in``), so
``y = M_h @ x @ M_w^T`` and the gradient is ``M_h^T @ dy @ M_w``; the spatial sizes are read
when the kernel runs, so an input of dynamic shape works."""
from __future__ import annotations

import numpy as np

from ...ir.abstract import AbstractTensor
from ..primitive import OpDef
from ._infer import FLOATS, const_shape, quiet, require_dtype, tensor_type

_NAME = "ResizeBilinearV2"
_ATTRS = {"align_corners": False, "half_pixel_centers": False}


def interpolation_matrix(n_in: int, n_out: int, align_corners: bool, half_pixel: bool,
                         dtype) -> np.ndarray:
    """The ``(n_out, n_in)`` matrix of one axis' linear interpolation weights."""
    scale = (n_in - 1) / (n_out - 1) if align_corners and n_out > 1 else n_in / n_out
    i = np.arange(n_out, dtype=np.float64)
    src = ((i + 0.5) * scale - 0.5 if half_pixel else i * scale).astype(np.float32)
    low = np.floor(src)
    lerp = src - low
    lo = np.maximum(low.astype(np.int64), 0)
    hi = np.minimum(np.ceil(src).astype(np.int64), n_in - 1)
    m = np.zeros((n_out, n_in), dtype)
    rows = np.arange(n_out)
    np.add.at(m, (rows, lo), 1 - lerp)
    np.add.at(m, (rows, hi), lerp)
    return m


def _check(name: str, x, align_corners, half_pixel_centers) -> None:
    if x.ndim != 4 and tuple(x.shape) != (-2,):
        raise ValueError(f"For '{name}', the input must be a 4-D (NCHW) Tensor, but got shape "
                         f"{list(x.shape)}.")
    if align_corners and half_pixel_centers:
        raise ValueError(f"For '{name}', 'align_corners' and 'half_pixel_centers' cannot both "
                         f"be True.")


def _infer(x, size, align_corners=False, half_pixel_centers=False):
    t = tensor_type(_NAME, "x", x)
    require_dtype(_NAME, "x", t, FLOATS)
    _check(_NAME, x, align_corners, half_pixel_centers)
    dims = const_shape(_NAME, "size", size)
    if len(dims) != 2 or 0 in dims:
        raise ValueError(f"For '{_NAME}', the 'size' must be two positive ints, but got "
                         f"{list(dims)}.")
    lead = tuple(x.shape[:2]) if x.ndim == 4 else (-1, -1)
    return AbstractTensor(t, lead + dims)


def _compute_type(dtype):
    return np.float32 if dtype == np.float16 else dtype


@quiet
def _resize(x, size, align_corners=False, half_pixel_centers=False):
    h, w = (int(v) for v in np.reshape(np.asarray(size), -1))
    ct = _compute_type(x.dtype)
    mh = interpolation_matrix(x.shape[2], h, align_corners, half_pixel_centers, ct)
    mw = interpolation_matrix(x.shape[3], w, align_corners, half_pixel_centers, ct)
    return (mh @ x.astype(ct, copy=False) @ mw.T).astype(x.dtype, copy=False)


def _grad_infer(grads, original_image, align_corners=False, half_pixel_centers=False):
    t = tensor_type("ResizeBilinearGrad", "grads", grads)
    require_dtype("ResizeBilinearGrad", "grads", t, FLOATS)
    _check("ResizeBilinearGrad", grads, align_corners, half_pixel_centers)
    _check("ResizeBilinearGrad", original_image, align_corners, half_pixel_centers)
    return AbstractTensor(t, tuple(original_image.shape))


@quiet
def _resize_grad(grads, original_image, align_corners=False, half_pixel_centers=False):
    ct = _compute_type(grads.dtype)
    (h_in, w_in), (h, w) = original_image.shape[2:], grads.shape[2:]
    mh = interpolation_matrix(h_in, h, align_corners, half_pixel_centers, ct)
    mw = interpolation_matrix(w_in, w, align_corners, half_pixel_centers, ct)
    return (mh.T @ grads.astype(ct, copy=False) @ mw).astype(grads.dtype, copy=False)


ResizeBilinearV2 = OpDef(_NAME, _infer, _resize, attrs=dict(_ATTRS))
# (grads, original_image) -> the input's gradient; the image gives its (run-time) size
ResizeBilinearGrad = OpDef("ResizeBilinearGrad", _grad_infer, _resize_grad, attrs=dict(_ATTRS))
