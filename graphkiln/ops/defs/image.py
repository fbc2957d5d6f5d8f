"""Image and detection primitives, as MindSpore's: ``ResizeNearestNeighbor`` (with
``ResizeNearestNeighborGrad``), ``BoundingBoxDecode``, ``NMSWithMask``, ``RGBToHSV``.

``ResizeNearestNeighbor`` picks, for output row ``i``, the input row ``floor(i * scale)``
(rounded half up with ``align_corners``), likewise for columns; ``half_pixel_centers`` maps
as the default does, as MindSpore 2.10's CPU kernel gives it (checked for several sizes).
It is linear: its gradient sums the output cotangent back onto the picked pixels.
``RGBToHSV`` maps the last axis (red, green, blue) to hue, saturation, value (hue in
[0, 1), sixths of the colour wheel).
``NMSWithMask`` orders the boxes by score and keeps each one whose IoU with every kept
higher-scored box is at most the threshold; ``BoundingBoxDecode`` clips to ``max_shape``
(height, width).
"""
from __future__ import annotations

import numpy as np

from ...common import dtype as mstype
from ...ir.abstract import AbstractTensor, AbstractTuple
from ..primitive import OpDef
from ._infer import (
    FLOATS,
    IEEE_FLOATS,
    const_value,
    dims_match,
    quiet,
    require_dtype,
    tensor_type,
)

_RESIZE = "ResizeNearestNeighbor"


def _resize_size(size, name: str = _RESIZE) -> tuple[int, int]:
    """``size`` as (height, width), checked (``name``: the primitive, for the error)."""
    if not isinstance(size, (tuple, list)) or len(size) != 2 or not all(
            isinstance(v, int) and not isinstance(v, bool) and v > 0 for v in size):
        raise TypeError(f"For '{name}', the 'size' must be a tuple or list of two positive "
                        f"ints, but got {size!r}.")
    return int(size[0]), int(size[1])


def source_indices(n_in: int, n_out: int, align_corners: bool,
                   pixel_centers: bool = False) -> np.ndarray:
    """The input index each of ``n_out`` output positions reads; ``pixel_centers`` samples
    at the output pixels' centres (``ResizeNearestNeighborV2``'s ``half_pixel_centers``)."""
    scale = (n_in - 1) / (n_out - 1) if align_corners and n_out > 1 else n_in / n_out
    pos = (np.arange(n_out, dtype=np.float64) + (0.5 if pixel_centers else 0.0)) * scale
    src = np.floor(pos + 0.5) if align_corners else np.floor(pos)
    return np.minimum(src.astype(np.int64), n_in - 1)


def resize_indices(x_shape, size, align_corners, half_pixel_centers):
    """Row and column source indices of a resize of an NCHW input to ``size``."""
    h, w = _resize_size(size)
    return source_indices(x_shape[2], h, align_corners), source_indices(x_shape[3], w,
                                                                        align_corners)


def _resize_infer(x, size=None, align_corners=False, half_pixel_centers=False):
    t = tensor_type(_RESIZE, "input_x", x)
    if len(x.shape) != 4:
        raise ValueError(f"For '{_RESIZE}', the 'input_x' must be a 4-D (NCHW) Tensor, but got "
                         f"shape {list(x.shape)}.")
    if align_corners and half_pixel_centers:
        raise ValueError(f"For '{_RESIZE}', 'align_corners' and 'half_pixel_centers' cannot "
                         f"both be True.")
    h, w = _resize_size(size)
    return AbstractTensor(t, (x.shape[0], x.shape[1], h, w))


def _resize(x, size=None, align_corners=False, half_pixel_centers=False):
    rows, cols = resize_indices(x.shape, size, align_corners, half_pixel_centers)
    return np.ascontiguousarray(x[:, :, rows][:, :, :, cols])


ResizeNearestNeighbor = OpDef(_RESIZE, _resize_infer, _resize,
                              attrs={"size": None, "align_corners": False,
                                     "half_pixel_centers": False})


def _resize_grad_infer(dout, x, align_corners=False, half_pixel_centers=False):
    t = tensor_type(f"{_RESIZE}Grad", "dout", dout)
    if isinstance(x, AbstractTuple):  # MindSpore's ``size``: the input's (height, width)
        h, w = _resize_size(const_value(f"{_RESIZE}Grad", "size", x), f"{_RESIZE}Grad")
        shape = tuple(dout.shape[:2]) + (h, w)
    else:
        shape = tuple(x.shape)
    if dout.ndim != 4 or len(shape) != 4:
        raise ValueError(f"For '{_RESIZE}Grad', 'dout' and 'x' must be 4-D (NCHW) Tensors, "
                         f"but got shapes {list(dout.shape)} and {list(shape)}.")
    return AbstractTensor(t, shape)


def _one_hot(src: np.ndarray, n_in: int, dtype) -> np.ndarray:
    """The ``(len(src), n_in)`` matrix with a 1 at ``(k, src[k])``."""
    m = np.zeros((len(src), n_in), dtype)
    m[np.arange(len(src)), src] = 1
    return m


@quiet
def _resize_grad(dout, x, align_corners=False, half_pixel_centers=False):
    """``out = R @ x @ C^T`` with one-hot ``R`` (rows) and ``C`` (columns), so
    ``dx = R^T @ dout @ C``."""
    shape = tuple(dout.shape[:2]) + _resize_size(x, f"{_RESIZE}Grad") \
        if isinstance(x, (tuple, list)) else x.shape
    rows, cols = resize_indices(shape, dout.shape[2:], align_corners, half_pixel_centers)
    ct = np.float32 if dout.dtype == np.float16 else dout.dtype
    r, c = _one_hot(rows, shape[2], ct), _one_hot(cols, shape[3], ct)
    return (r.T @ dout.astype(ct, copy=False) @ c).astype(dout.dtype, copy=False)


# (dout, x) -> dx: ``x`` gives the input's (run-time) height and width; MindSpore's
# ``(grads, size)`` passes them as a tuple
ResizeNearestNeighborGrad = OpDef(f"{_RESIZE}Grad", _resize_grad_infer, _resize_grad,
                                  attrs={"align_corners": False, "half_pixel_centers": False})


_DECODE = "BoundingBoxDecode"


def _four(name: str, v) -> tuple:
    if not isinstance(v, (tuple, list)) or len(v) != 4:
        raise TypeError(f"For '{_DECODE}', the '{name}' must be a tuple of 4 floats, but got "
                        f"{v!r}.")
    return tuple(float(e) for e in v)


def _decode_infer(anchor_box, deltas, max_shape=None, means=(0.0, 0.0, 0.0, 0.0),
                  stds=(1.0, 1.0, 1.0, 1.0), wh_ratio_clip=0.016):
    for arg, a in (("anchor_box", anchor_box), ("deltas", deltas)):
        require_dtype(_DECODE, arg, tensor_type(_DECODE, arg, a), FLOATS)
        if len(a.shape) != 2 or not dims_match(a.shape[1], 4):
            raise ValueError(f"For '{_DECODE}', the '{arg}' must have shape [n, 4], but got "
                             f"{list(a.shape)}.")
    if not dims_match(anchor_box.shape[0], deltas.shape[0]):
        raise ValueError(f"For '{_DECODE}', 'anchor_box' and 'deltas' must have the same "
                         f"number of boxes, but got {anchor_box.shape[0]} and "
                         f"{deltas.shape[0]}.")
    if not isinstance(max_shape, (tuple, list)) or len(max_shape) != 2:
        raise TypeError(f"For '{_DECODE}', the 'max_shape' must be a tuple of 2 ints (height, "
                        f"width), but got {max_shape!r}.")
    _four("means", means)
    if 0.0 in _four("stds", stds):
        raise ValueError(f"For '{_DECODE}', the 'stds' must not contain 0, but got {stds}.")
    return AbstractTensor(anchor_box.dtype, anchor_box.shape)


def _decode(anchor_box, deltas, max_shape=None, means=(0.0, 0.0, 0.0, 0.0),
            stds=(1.0, 1.0, 1.0, 1.0), wh_ratio_clip=0.016):
    t = anchor_box.dtype
    d = deltas.astype(t) * np.asarray(stds, t) + np.asarray(means, t)
    limit = np.asarray(abs(np.log(wh_ratio_clip)), t)
    dw, dh = np.clip(d[:, 2], -limit, limit), np.clip(d[:, 3], -limit, limit)
    a = anchor_box
    pw, ph = a[:, 2] - a[:, 0] + 1, a[:, 3] - a[:, 1] + 1
    cx, cy = (a[:, 0] + a[:, 2]) * 0.5 + pw * d[:, 0], (a[:, 1] + a[:, 3]) * 0.5 + ph * d[:, 1]
    half_w, half_h = pw * np.exp(dw) * 0.5, ph * np.exp(dh) * 0.5
    hmax, wmax = np.asarray(max_shape[0], t), np.asarray(max_shape[1], t)
    return np.stack([np.clip(cx - half_w + 0.5, 0, wmax), np.clip(cy - half_h + 0.5, 0, hmax),
                     np.clip(cx + half_w - 0.5, 0, wmax), np.clip(cy + half_h - 0.5, 0, hmax)],
                    axis=1).astype(t, copy=False)


BoundingBoxDecode = OpDef(_DECODE, _decode_infer, quiet(_decode), differentiable=False,
                          attrs={"max_shape": None, "means": (0.0, 0.0, 0.0, 0.0),
                                 "stds": (1.0, 1.0, 1.0, 1.0), "wh_ratio_clip": 0.016})


_NMS = "NMSWithMask"


def _nms_infer(bboxes, iou_threshold=0.5):
    require_dtype(_NMS, "bboxes", tensor_type(_NMS, "bboxes", bboxes), FLOATS)
    if len(bboxes.shape) != 2 or not dims_match(bboxes.shape[1], 5):
        raise ValueError(f"For '{_NMS}', the 'bboxes' must have shape [n, 5] (x1, y1, x2, y2, "
                         f"score), but got {list(bboxes.shape)}.")
    n = bboxes.shape[0]
    return AbstractTuple([AbstractTensor(bboxes.dtype, (n, 5)),
                          AbstractTensor(mstype.int32, (n,)),
                          AbstractTensor(mstype.bool_, (n,))])


def _nms(bboxes, iou_threshold=0.5):
    order = np.argsort(-bboxes[:, 4], kind="stable")
    boxes = bboxes[order]
    x1, y1, x2, y2 = (boxes[:, k] for k in range(4))
    area = (x2 - x1) * (y2 - y1)
    keep = np.zeros(len(boxes), bool)
    for i in range(len(boxes)):
        kept = np.flatnonzero(keep)
        iw = np.maximum(np.minimum(x2[i], x2[kept]) - np.maximum(x1[i], x1[kept]), 0)
        ih = np.maximum(np.minimum(y2[i], y2[kept]) - np.maximum(y1[i], y1[kept]), 0)
        inter = iw * ih
        keep[i] = not np.any(inter / (area[i] + area[kept] - inter) > iou_threshold)
    return boxes, np.arange(len(boxes), dtype=np.int32), keep


NMSWithMask = OpDef(_NMS, _nms_infer, quiet(_nms), differentiable=False,
                    attrs={"iou_threshold": 0.5})


_RGB_HSV = "RGBToHSV"


def _rgb_to_hsv_infer(images):
    t = tensor_type(_RGB_HSV, "images", images)
    if t not in IEEE_FLOATS:
        names = ", ".join(f"Tensor[{a}]" for a in IEEE_FLOATS)
        raise TypeError(f"For primitive[{_RGB_HSV}], the input argument[type of input 'images'] "
                        f"must be a type of {{{names}}}, but got Tensor[{t}].")
    if not images.shape:
        raise RuntimeError(f"For '{_RGB_HSV}', the shape of input can not be empty.")
    if not dims_match(images.shape[-1], 3):
        raise ValueError(f"For primitive[{_RGB_HSV}], the last dimension of input 'images' must "
                         f"be equal to 3, but got {images.shape[-1]}.")
    return AbstractTensor(t, images.shape)


def _rgb_to_hsv(images):
    """Hue, saturation, value of each pixel (float16 computed in float32: MindSpore 2.10's
    float16 kernel gives inf/NaN saturations)."""
    rgb = images.astype(np.float32) if images.dtype == np.float16 else images
    r, g, b = rgb[..., 0], rgb[..., 1], rgb[..., 2]
    value = np.max(rgb, axis=-1)
    spread = value - np.min(rgb, axis=-1)
    saturation = np.where(value > 0, spread / np.where(value > 0, value, 1), 0)
    norm = 1 / (6 * np.where(spread > 0, spread, 1))
    hue = np.where(r == value, norm * (g - b),
                   np.where(g == value, norm * (b - r) + 2 / 6, norm * (r - g) + 4 / 6))
    hue = np.where(spread > 0, hue, 0)
    hue = np.where(hue < 0, hue + 1, hue)
    return np.stack([hue, saturation, value], axis=-1).astype(images.dtype, copy=False)


RGBToHSV = OpDef(_RGB_HSV, _rgb_to_hsv_infer, quiet(_rgb_to_hsv), differentiable=False)
