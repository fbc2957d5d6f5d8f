"""Box-geometry primitives of detection heads, as MindSpore's: ``IOU`` (overlaps of two box
sets), ``BoundingBoxEncode`` (box -> regression deltas) and ``CheckValid`` (boxes inside
the image). Boxes are ``[x1, y1, x2, y2]`` in pixels, inclusive, so a box is
``x2 - x1 + 1`` wide (MindSpore's convention for these three). MindSpore gives them zero
cotangents: they are not differentiable here either.
"""
from __future__ import annotations

import numpy as np

from ...common import dtype as mstype
from ...ir.abstract import AbstractTensor
from ..primitive import OpDef
from ._infer import FLOATS, dims_match, quiet, require_dtype, shapes_match, tensor_type


def _boxes(name: str, arg: str, a, width: int = 4) -> mstype.Type:
    t = tensor_type(name, arg, a)
    if len(a.shape) != 2:
        raise ValueError(f"For primitive[{name}], the '{arg}' must be a 2-D Tensor [n, {width}], "
                         f"but got shape {list(a.shape)}.")
    if not dims_match(a.shape[1], width):
        raise ValueError(f"For primitive[{name}], the {arg}.shape[1] must be equal to {width}, "
                         f"but got {a.shape[1]}.")
    return t


def _extent(b: np.ndarray) -> tuple:
    """Centre x, centre y, width, height (inclusive pixel boxes)."""
    w, h = b[:, 2] - b[:, 0] + 1, b[:, 3] - b[:, 1] + 1
    return b[:, 0] + 0.5 * (w - 1), b[:, 1] + 0.5 * (h - 1), w, h


def _iou_infer(anchor_boxes, gt_boxes, mode="iou"):
    if mode not in ("iou", "iof"):
        raise KeyError(f"For 'IOU', only 'iou' or 'iof' are supported, but got 'mode': {mode}.")
    t = _boxes("IOU", "anchor_boxes", anchor_boxes)
    require_dtype("IOU", "anchor_boxes", t, FLOATS)
    if _boxes("IOU", "gt_boxes", gt_boxes) is not t:
        raise TypeError(f"For 'IOU', 'anchor_boxes' and 'gt_boxes' must have the same dtype, "
                        f"but got {t} and {gt_boxes.dtype}.")
    return AbstractTensor(t, (gt_boxes.shape[0], anchor_boxes.shape[0]))


def _iou(anchor_boxes, gt_boxes, mode="iou"):
    """``out[j, i]``: overlap of ground truth ``j`` with anchor ``i``, over their union
    (``iou``) or over the ground truth's area (``iof``)."""
    a, g = anchor_boxes.astype(np.float64), gt_boxes.astype(np.float64)
    iw = np.minimum(g[:, None, 2], a[None, :, 2]) - np.maximum(g[:, None, 0], a[None, :, 0]) + 1
    ih = np.minimum(g[:, None, 3], a[None, :, 3]) - np.maximum(g[:, None, 1], a[None, :, 1]) + 1
    inter = np.maximum(iw, 0) * np.maximum(ih, 0)
    area_a = (a[:, 2] - a[:, 0] + 1) * (a[:, 3] - a[:, 1] + 1)
    area_g = (g[:, 2] - g[:, 0] + 1) * (g[:, 3] - g[:, 1] + 1)
    denom = area_g[:, None] if mode == "iof" else area_g[:, None] + area_a[None, :] - inter
    return (inter / denom).astype(anchor_boxes.dtype)


IOU = OpDef("IOU", _iou_infer, quiet(_iou), differentiable=False, attrs={"mode": "iou"})


def _four_floats(name: str, arg: str, v) -> tuple:
    if not isinstance(v, (tuple, list)) or len(v) != 4 or not all(
            isinstance(e, (int, float)) and not isinstance(e, bool) for e in v):
        raise TypeError(f"For '{name}', the '{arg}' must be a tuple of 4 floats, but got "
                        f"{v!r}.")
    return tuple(float(e) for e in v)


def _encode_infer(anchor_box, groundtruth_box, means=(0.0, 0.0, 0.0, 0.0),
                  stds=(1.0, 1.0, 1.0, 1.0)):
    t = _boxes("BoundingBoxEncode", "anchor_box", anchor_box)
    require_dtype("BoundingBoxEncode", "anchor_box", t, FLOATS)
    _boxes("BoundingBoxEncode", "groundtruth_box", groundtruth_box)
    if not dims_match(anchor_box.shape[0], groundtruth_box.shape[0]):
        raise ValueError(f"For 'BoundingBoxEncode', 'anchor_box' and 'groundtruth_box' must "
                         f"have the same number of boxes, but got {anchor_box.shape[0]} and "
                         f"{groundtruth_box.shape[0]}.")
    _four_floats("BoundingBoxEncode", "means", means)
    if 0.0 in _four_floats("BoundingBoxEncode", "stds", stds):
        raise ValueError(f"For 'BoundingBoxEncode', the 'stds' must not contain 0, but got "
                         f"{stds}.")
    return AbstractTensor(t, anchor_box.shape)


def _encode(anchor_box, groundtruth_box, means=(0.0, 0.0, 0.0, 0.0),
            stds=(1.0, 1.0, 1.0, 1.0)):
    """Deltas ``((gx - px) / pw, (gy - py) / ph, log(gw / pw), log(gh / ph))``, then
    ``(delta - means) / stds``."""
    px, py, pw, ph = _extent(anchor_box.astype(np.float64))
    gx, gy, gw, gh = _extent(groundtruth_box.astype(np.float64))
    d = np.stack([(gx - px) / pw, (gy - py) / ph, np.log(gw / pw), np.log(gh / ph)], axis=1)
    return ((d - np.asarray(means)) / np.asarray(stds)).astype(anchor_box.dtype)


BoundingBoxEncode = OpDef("BoundingBoxEncode", _encode_infer, quiet(_encode),
                          differentiable=False,
                          attrs={"means": (0.0, 0.0, 0.0, 0.0), "stds": (1.0, 1.0, 1.0, 1.0)})


def _check_valid_infer(bboxes, img_metas):
    t = _boxes("CheckValid", "bboxes", bboxes)
    tensor_type("CheckValid", "img_metas", img_metas)
    if not shapes_match(tuple(img_metas.shape), (3,)):
        raise ValueError(f"For 'CheckValid', the 'img_metas' must be a Tensor of shape [3] "
                         f"(height, width, ratio), but got {list(img_metas.shape)}.")
    if img_metas.dtype is not t:
        raise TypeError(f"For 'CheckValid', 'bboxes' and 'img_metas' must have the same dtype, "
                        f"but got {t} and {img_metas.dtype}.")
    return AbstractTensor(mstype.bool_, (bboxes.shape[0],))


def _check_valid(bboxes, img_metas):
    """A box is valid when it starts at or after (0, 0) and ends inside the image scaled by
    ``ratio``: ``x2 <= width * ratio - 1`` and ``y2 <= height * ratio - 1``."""
    b = bboxes.astype(np.float64)
    height, width, ratio = (float(v) for v in img_metas)
    return ((b[:, 0] >= 0) & (b[:, 1] >= 0) & (b[:, 2] <= width * ratio - 1)
            & (b[:, 3] <= height * ratio - 1))


CheckValid = OpDef("CheckValid", _check_valid_infer, quiet(_check_valid), differentiable=False)
