"""``mindspore.dataset.vision``: image transforms (OpenCV for arrays, Pillow for PIL images;
both imported on first use)."""
from .transforms import (
    HWC2CHW,
    CenterCrop,
    Decode,
    Normalize,
    Pad,
    RandomColorAdjust,
    RandomCrop,
    RandomCropDecodeResize,
    RandomHorizontalFlip,
    RandomResizedCrop,
    RandomRotation,
    RandomVerticalFlip,
    Rescale,
    Resize,
    ToPIL,
    ToTensor,
)
from .utils import Border, Inter

__all__ = [
    "Decode", "Resize", "CenterCrop", "Pad", "RandomCrop", "RandomResizedCrop",
    "RandomCropDecodeResize", "RandomHorizontalFlip", "RandomVerticalFlip", "Rescale",
    "Normalize", "HWC2CHW", "ToTensor", "ToPIL", "RandomColorAdjust", "RandomRotation",
    "Inter", "Border",
]
