"""The functional forms of the detection-box primitives (:mod:`.defs.boxes`,
:mod:`.defs.image`): ``ops.iou``, ``ops.bounding_box_encode``, ``ops.bounding_box_decode`` and
``ops.check_valid``, with MindSpore 2.10's arguments."""
from __future__ import annotations

from ..common.tensor import Tensor
from .defs import boxes as BX
from .defs import image as IM

__all__ = ["iou", "bounding_box_encode", "bounding_box_decode", "check_valid"]

_ZEROS, _ONES = (0.0, 0.0, 0.0, 0.0), (1.0, 1.0, 1.0, 1.0)


def iou(anchor_boxes, gt_boxes, mode: str = "iou") -> Tensor:
    """The overlap (``iou``, or ``iof``: over the ground-truth area) of every pair of
    ``(x1, y1, x2, y2)`` boxes."""
    return BX.IOU(anchor_boxes, gt_boxes, mode=mode)


def bounding_box_encode(anchor_box, groundtruth_box, means=_ZEROS, stds=_ONES) -> Tensor:
    """The deltas that move each anchor box onto its ground-truth box."""
    return BX.BoundingBoxEncode(anchor_box, groundtruth_box, means=tuple(means),
                                stds=tuple(stds))


def bounding_box_decode(anchor_box, deltas, max_shape, means=_ZEROS, stds=_ONES,
                        wh_ratio_clip: float = 0.016) -> Tensor:
    """The boxes the ``deltas`` move the anchor boxes to, clipped to ``max_shape``."""
    return IM.BoundingBoxDecode(anchor_box, deltas, max_shape=tuple(max_shape),
                                means=tuple(means), stds=tuple(stds),
                                wh_ratio_clip=wh_ratio_clip)


def check_valid(bboxes, img_metas) -> Tensor:
    """Whether each box lies inside the image of ``img_metas`` (height, width, ratio)."""
    return BX.CheckValid(bboxes, img_metas)
