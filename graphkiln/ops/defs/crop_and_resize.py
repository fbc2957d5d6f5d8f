"""``CropAndResize(image, boxes, box_index, crop_size)``: crops of an NHWC ``image``
resampled to ``crop_size``, with its gradients ``CropAndResizeGradImage`` (the adjoint in
``image``) and ``CropAndResizeGradBoxes``.

As MindSpore's CPU kernel: ``boxes[i] = (y1, x1, y2, x2)`` in normalized coordinates (float32),
``box_index`` (int32) picks the image; output row ``p`` samples ``y1 * (H - 1) + p * (y2 -
y1) * (H - 1) / (crop_h - 1)`` (the box's middle when ``crop_h`` is 1), likewise for columns.
``'bilinear'`` interpolates, ``'nearest'`` rounds, and a sample outside the image is
``extrapolation_value``; ``'bilinear_v2'`` samples pixel centres inside the box's integer
extent and never extrapolates. The result is float32 for every image dtype. The box
gradient is the bilinear one for every method (as MindSpore's).

Sampling is separable: a crop is ``Wy @ image[b] @ Wx.T`` per channel, with one weight
matrix per axis.
"""
from __future__ import annotations

import numpy as np

from ...common import dtype as mstype
from ...ir.abstract import AbstractTensor
from ...ir.primitive import OpDef
from ._infer import (
    IEEE_FLOATS,
    INTS,
    NUMBERS,
    const_shape,
    dims_match,
    merge_dims,
    quiet,
    require_dtype,
    shapes_match,
    tensor_type,
)

_NAME = "CropAndResize"
METHODS = ("bilinear", "nearest", "bilinear_v2")
ATTRS = {"method": "bilinear", "extrapolation_value": 0.0}


def check_method(name: str, method) -> None:
    if method not in METHODS:
        raise ValueError(f"For '{name}', the 'method' must be one of {list(METHODS)}, but got "
                         f"{method!r}.")


def _check_boxes(name: str, boxes, box_index) -> int:
    require_dtype(name, "boxes", tensor_type(name, "boxes", boxes), (mstype.float32,))
    require_dtype(name, "box_index", tensor_type(name, "box_index", box_index),
                  (mstype.int32,))
    if len(boxes.shape) != 2 or not dims_match(boxes.shape[1], 4):
        raise ValueError(f"For '{name}', the 'boxes' must have shape [num_boxes, 4], but got "
                         f"{list(boxes.shape)}.")
    if not shapes_match(tuple(box_index.shape), (boxes.shape[0],)):
        raise ValueError(f"For '{name}', the 'box_index' must have shape [num_boxes] "
                         f"({boxes.shape[0]}), but got {list(box_index.shape)}.")
    return merge_dims(boxes.shape[0], box_index.shape[0])


def _crop(name: str, crop_size) -> tuple:
    size = const_shape(name, "crop_size", crop_size)
    if len(size) != 2 or min(size) <= 0:
        raise ValueError(f"For '{name}', the 'crop_size' must be two positive ints, but got "
                         f"{list(size)}.")
    return size


# MindSpore's CPU kernel: integers (uint16 too) and float16/32/64, not bfloat16
_IMAGE_TYPES = INTS + (mstype.uint16,) + IEEE_FLOATS


def _infer(image, boxes, box_index, crop_size, method="bilinear", extrapolation_value=0.0):
    require_dtype(_NAME, "image", tensor_type(_NAME, "image", image), _IMAGE_TYPES)
    if len(image.shape) != 4:
        raise ValueError(f"For '{_NAME}', the 'image' must be 4-D (NHWC), but got shape "
                         f"{list(image.shape)}.")
    n = _check_boxes(_NAME, boxes, box_index)
    check_method(_NAME, method)
    h, w = _crop(_NAME, crop_size)
    return AbstractTensor(mstype.float32, (n, h, w, image.shape[3]))


def _targets(lo, hi, size: int, crop: int) -> np.ndarray:
    """The float32 sample positions of one axis (MindSpore's order of operations)."""
    f = np.float32
    if crop > 1:
        scale = f((f(hi) - f(lo)) * f(size - 1)) / f(crop - 1)
        return (f(lo) * f(size - 1) + np.arange(crop, dtype=f) * scale).astype(f)
    return np.full(crop, f(0.5) * (f(lo) + f(hi)) * f(size - 1), f)


def _v2_rows(lo, hi, size: int, crop: int):
    """bilinear_v2: ``(low rows, high rows, fractions)`` of one axis."""
    start, end = int(np.float32(lo) * size), int(np.float32(hi) * size)
    extent = max(end - start + 1, 1)
    point = (np.arange(crop, dtype=np.float32) + np.float32(0.5)) * \
        np.float32(extent / np.float32(crop)) - np.float32(0.5)
    low = np.clip(np.floor(point), 0, extent - 1).astype(np.int64)
    high = np.clip(np.ceil(point), 0, extent - 1).astype(np.int64)
    frac = point - low
    return (np.clip(start + low, 0, size - 1), np.clip(start + high, 0, size - 1), frac)


def axis_weights(method: str, lo, hi, size: int, crop: int):
    """``(W, valid, D)`` of one axis: ``(crop, size)`` sample weights, the samples inside the
    image, and the bilinear weights' derivative in the sample position."""
    rows = np.arange(crop)
    weights, deriv = np.zeros((crop, size)), np.zeros((crop, size))
    if method == "bilinear_v2":
        low, high, frac = _v2_rows(lo, hi, size, crop)
        valid = np.ones(crop, bool)
    else:
        t = _targets(lo, hi, size, crop)
        valid = (t >= 0) & (t <= size - 1)
        t = np.clip(t, 0, size - 1)
        low, high = np.floor(t).astype(np.int64), np.ceil(t).astype(np.int64)
        frac = t - low
        np.add.at(deriv, (rows[valid], low[valid]), -1.0)
        np.add.at(deriv, (rows[valid], high[valid]), 1.0)
        if method == "nearest":
            low = high = np.floor(t + np.float32(0.5)).astype(np.int64)
            frac = np.zeros(crop)
    keep = rows[valid]
    np.add.at(weights, (keep, low[valid]), (1.0 - frac)[valid])
    np.add.at(weights, (keep, high[valid]), frac[valid])
    return weights, valid, deriv


def box_image(name: str, index: int, batch: int) -> int:
    if index < 0 or index >= batch:
        raise ValueError(f"For '{name}', the value of box_index must be in [0, {batch}), but "
                         f"got [{index}].")
    return int(index)


def crop_weights(method: str, box, shape, crop):
    """Both axes' ``(W, valid, D)`` of one box."""
    y1, x1, y2, x2 = box
    return (axis_weights(method, y1, y2, shape[1], crop[0]),
            axis_weights(method, x1, x2, shape[2], crop[1]))


@quiet
def _crop_and_resize(image, boxes, box_index, crop_size, method="bilinear",
                     extrapolation_value=0.0):
    crop = tuple(int(v) for v in np.asarray(crop_size).reshape(-1))
    out = np.empty((boxes.shape[0],) + crop + (image.shape[3],), np.float32)
    for i, (box, b) in enumerate(zip(np.asarray(boxes), np.asarray(box_index))):
        b = box_image(_NAME, b, image.shape[0])
        (wy, vy, _), (wx, vx, _) = crop_weights(method, box, image.shape, crop)
        vals = np.einsum("ph,hwc,qw->pqc", wy, image[b].astype(np.float64), wx)
        inside = (vy[:, None] & vx[None, :])[..., None]
        out[i] = np.where(inside, vals, np.float32(extrapolation_value))
    return out


# ------------------------------------------------------------------ gradients

def _grad_image_infer(grads, boxes, box_index, image_size, method="bilinear",
                      T=mstype.float32):  # noqa: N803 - MindSpore's attribute name
    name = "CropAndResizeGradImage"
    require_dtype(name, "grads", tensor_type(name, "grads", grads), (mstype.float32,))
    _check_boxes(name, boxes, box_index)
    check_method(name, method)
    size = const_shape(name, "image_size", image_size)
    if len(size) != 4:
        raise ValueError(f"For '{name}', the 'image_size' must have 4 elements (NHWC), but got "
                         f"{list(size)}.")
    return AbstractTensor(T, size)


@quiet
def _grad_image(grads, boxes, box_index, image_size, method="bilinear", T=mstype.float32):  # noqa: N803
    shape = tuple(int(v) for v in np.asarray(image_size).reshape(-1))
    crop = grads.shape[1:3]
    dx = np.zeros(shape, np.float64)
    for i, (box, b) in enumerate(zip(np.asarray(boxes), np.asarray(box_index))):
        b = box_image("CropAndResizeGradImage", b, shape[0])
        (wy, vy, _), (wx, vx, _) = crop_weights(method, box, shape, crop)
        g = grads[i] * (vy[:, None] & vx[None, :])[..., None]
        dx[b] += np.einsum("ph,pqc,qw->hwc", wy, g, wx)
    return dx.astype(mstype.dtype_to_nptype(T))


def _grad_boxes_infer(grads, image, boxes, box_index, method="bilinear"):
    name = "CropAndResizeGradBoxes"
    require_dtype(name, "grads", tensor_type(name, "grads", grads), (mstype.float32,))
    require_dtype(name, "image", tensor_type(name, "image", image), NUMBERS)
    n = _check_boxes(name, boxes, box_index)
    return AbstractTensor(mstype.float32, (n, 4))


@quiet
def _grad_boxes(grads, image, boxes, box_index, method="bilinear"):
    crop = grads.shape[1:3]
    out = np.zeros((boxes.shape[0], 4), np.float64)
    for i, (box, b) in enumerate(zip(np.asarray(boxes), np.asarray(box_index))):
        b = box_image("CropAndResizeGradBoxes", b, image.shape[0])
        (wy, vy, dy), (wx, vx, dx) = crop_weights("bilinear", box, image.shape, crop)
        g = grads[i] * (vy[:, None] & vx[None, :])[..., None]
        img = image[b].astype(np.float64)
        d_ty = np.einsum("pqc,ph,hwc,qw->p", g, dy, img, wx)
        d_tx = np.einsum("pqc,ph,hwc,qw->q", g, wy, img, dx)
        for (lo_col, hi_col), d_t, size, n in (((0, 2), d_ty, image.shape[1], crop[0]),
                                               ((1, 3), d_tx, image.shape[2], crop[1])):
            if n > 1:
                step = np.arange(n) / (n - 1)
                out[i, lo_col] = (size - 1) * np.sum(d_t * (1.0 - step))
                out[i, hi_col] = (size - 1) * np.sum(d_t * step)
            else:
                out[i, lo_col] = out[i, hi_col] = 0.5 * (size - 1) * np.sum(d_t)
    return out.astype(np.float32)


CropAndResize = OpDef(_NAME, _infer, _crop_and_resize, attrs=dict(ATTRS))
# (grads, boxes, box_index, image_size) -> d image (the adjoint of CropAndResize in ``image``)
CropAndResizeGradImage = OpDef("CropAndResizeGradImage", _grad_image_infer, _grad_image,
                               attrs={"method": "bilinear", "T": mstype.float32})
# (grads, image, boxes, box_index) -> d boxes, the bilinear sampling's derivative
CropAndResizeGradBoxes = OpDef("CropAndResizeGradBoxes", _grad_boxes_infer, _grad_boxes,
                               differentiable=False, attrs={"method": "bilinear"})
