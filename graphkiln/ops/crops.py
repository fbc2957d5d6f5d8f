"""``ops.crop_and_resize`` (the primitive is in :mod:`.defs.crop_and_resize`)."""
from __future__ import annotations

from ..common.tensor import Tensor
from .defs.crop_and_resize import CropAndResize

__all__ = ["crop_and_resize"]


def crop_and_resize(image: Tensor, boxes: Tensor, box_indices: Tensor, crop_size,
                    method: str = "bilinear", extrapolation_value: float = 0.0) -> Tensor:
    """Crops of the NHWC ``image`` at the normalized ``boxes`` (``(y1, x1, y2, x2)``, of image
    ``box_indices``) resampled to ``crop_size``; float32."""
    return CropAndResize(image, boxes, box_indices, tuple(crop_size), method=method,
                         extrapolation_value=float(extrapolation_value))
