"""``CombinedNonMaxSuppression(boxes, scores, max_output_size_per_class, max_total_size,
iou_threshold, score_threshold)``, as MindSpore's CPU kernel (TensorFlow's
``combined_non_max_suppression``).

Per example and class: the boxes scoring above ``score_threshold``, best first (ties: the
lower box index), are kept greedily unless their IoU with a kept box exceeds
``iou_threshold``, at most ``max_output_size_per_class``. The kept boxes of all classes,
best score first, fill ``max_total_size`` slots (``pad_per_class``: at most
``max_output_size_per_class * num_classes``), zeros after them. ``boxes``
``(batch, num_boxes, q, 4)`` (``q`` = 1 or one box per class), ``scores``
``(batch, num_boxes, num_classes)``. Gives ``(nmsed_boxes, nmsed_scores, nmsed_classes,
valid_detections)``; with ``clip_boxes`` the boxes are clipped to ``[0, 1]``.
"""
from __future__ import annotations

import numpy as np

from ...common import dtype as mstype
from ...ir.abstract import AbstractTensor, AbstractTuple
from ...ir.primitive import OpDef
from ._infer import UNKNOWN_DIM, dims_match, require_dtype, tensor_type

_NAME = "CombinedNonMaxSuppression"


def _scalar_value(a):
    return None if a.value is None else np.asarray(a.value).reshape(-1)[0]


def _infer(boxes, scores, max_per_class, max_total, iou_threshold, score_threshold,
           clip_boxes=True, pad_per_class=False):
    for arg, a, t in (("boxes", boxes, mstype.float32), ("scores", scores, mstype.float32),
                      ("max_output_size_per_class", max_per_class, mstype.int32),
                      ("max_total_size", max_total, mstype.int32),
                      ("iou_threshold", iou_threshold, mstype.float32),
                      ("score_threshold", score_threshold, mstype.float32)):
        require_dtype(_NAME, arg, tensor_type(_NAME, arg, a), (t,))
    if len(boxes.shape) != 4 or len(scores.shape) != 3 or any(
            len(a.shape) for a in (max_per_class, max_total, iou_threshold, score_threshold)):
        raise ValueError(f"For '{_NAME}', 'boxes' must be 4-D, 'scores' 3-D and the sizes and "
                         f"thresholds 0-D, but got shapes {list(boxes.shape)} and "
                         f"{list(scores.shape)}.")
    b, n, q, four = boxes.shape
    if not (dims_match(b, scores.shape[0]) and dims_match(n, scores.shape[1]) and
            dims_match(four, 4) and (q == 1 or dims_match(q, scores.shape[2]))):
        raise ValueError(f"For '{_NAME}', 'boxes' must be (batch, num_boxes, 1 or num_classes, "
                         f"4) for 'scores' {list(scores.shape)}, but got {list(boxes.shape)}.")
    total, per_class = _scalar_value(max_total), _scalar_value(max_per_class)
    slots = UNKNOWN_DIM if total is None else int(total)
    if pad_per_class and slots != UNKNOWN_DIM:
        slots = UNKNOWN_DIM if per_class is None or scores.shape[2] < 0 else \
            min(slots, int(per_class) * scores.shape[2])
    batch = b if b >= 0 else scores.shape[0]
    return AbstractTuple([AbstractTensor(mstype.float32, (batch, slots, 4)),
                          AbstractTensor(mstype.float32, (batch, slots)),
                          AbstractTensor(mstype.float32, (batch, slots)),
                          AbstractTensor(mstype.int32, (batch,))])


def _iou(box: np.ndarray, kept: np.ndarray) -> np.ndarray:
    """IoU of one normalised ``(y1, x1, y2, x2)`` box with each of ``kept`` (0 where an
    area is not positive)."""
    area = (box[2] - box[0]) * (box[3] - box[1])
    areas = (kept[:, 2] - kept[:, 0]) * (kept[:, 3] - kept[:, 1])
    h = np.maximum(np.minimum(box[2], kept[:, 2]) - np.maximum(box[0], kept[:, 0]), 0)
    w = np.maximum(np.minimum(box[3], kept[:, 3]) - np.maximum(box[1], kept[:, 1]), 0)
    inter = h * w
    with np.errstate(divide="ignore", invalid="ignore"):
        iou = inter / (area + areas - inter)
    return np.where((area <= 0) | (areas <= 0), 0.0, iou)


def _select(boxes: np.ndarray, scores: np.ndarray, size: int, iou_thr, score_thr) -> list:
    """Greedy NMS of one class: the kept box indices, best first."""
    norm = np.concatenate([np.minimum(boxes[:, :2], boxes[:, 2:]),
                           np.maximum(boxes[:, :2], boxes[:, 2:])], axis=1)
    order = [i for i in np.lexsort((np.arange(len(scores)), -scores))
             if scores[i] > score_thr]
    kept: list = []
    for i in order:
        if len(kept) >= size:
            break
        if not kept or not np.any(_iou(norm[i], norm[kept]) > iou_thr):
            kept.append(int(i))
    return kept


def _check_values(per_class: int, total: int, iou_thr) -> None:
    if total <= 0 or per_class <= 0:
        raise ValueError(f"For '{_NAME}', 'max_total_size' and 'max_output_size_per_class' "
                         f"must be > 0, but got {total} and {per_class}.")
    if not 0 <= iou_thr <= 1:
        raise ValueError(f"For '{_NAME}', 'iou_threshold' must be in [0, 1], but got "
                         f"{iou_thr}.")


def _kernel(boxes, scores, max_per_class, max_total, iou_threshold, score_threshold,
            clip_boxes=True, pad_per_class=False):
    boxes, scores = np.asarray(boxes, np.float32), np.asarray(scores, np.float32)
    per_class, total = int(np.asarray(max_per_class)), int(np.asarray(max_total))
    iou_thr, score_thr = np.float32(iou_threshold), np.float32(score_threshold)
    _check_values(per_class, total, iou_thr)
    batch, n, q, _ = boxes.shape
    classes = scores.shape[2]
    slots = min(total, per_class * classes) if pad_per_class else total
    out_boxes = np.zeros((batch, slots, 4), np.float32)
    out_scores = np.zeros((batch, slots), np.float32)
    out_classes = np.zeros((batch, slots), np.float32)
    valid = np.zeros(batch, np.int32)
    for b in range(batch):
        found = []  # (score, class, box)
        for c in range(classes):
            class_boxes = boxes[b, :, c if q > 1 else 0]
            for i in _select(class_boxes, scores[b, :, c], min(per_class, n), iou_thr,
                             score_thr):
                found.append((scores[b, i, c], c, class_boxes[i]))
        found.sort(key=lambda f: -f[0])  # (stable: ties keep the class order)
        count = min(len(found), slots)
        for k, (score, c, box) in enumerate(found[:count]):
            out_boxes[b, k] = np.clip(box, 0.0, 1.0) if clip_boxes else box
            out_scores[b, k], out_classes[b, k] = score, c
        valid[b] = count
    return out_boxes, out_scores, out_classes, valid


# greedy per-class non-maximum suppression merged over the classes (no gradient)
CombinedNonMaxSuppression = OpDef(_NAME, _infer, _kernel, differentiable=False,
                                  attrs={"clip_boxes": True, "pad_per_class": False})
