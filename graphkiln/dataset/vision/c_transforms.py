"""The pre-2.0 path of the array image transforms (``vision.c_transforms``)."""
from .transforms import (  # noqa: F401
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
)
from .utils import Border, Inter  # noqa: F401
