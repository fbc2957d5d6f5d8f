"""The pre-2.0 Python image transforms (``vision.py_transforms``): ``Decode`` gives a PIL
image, ``ToTensor`` a CHW float array that ``Normalize`` expects channels first."""
from ..transforms.transforms import Compose  # noqa: F401
from . import transforms as _vision
from .mix import MixUp  # noqa: F401 - MindSpore 1.x's Python MixUp
from .transforms import (  # noqa: F401
    CenterCrop,
    RandomColorAdjust,
    RandomHorizontalFlip,
    RandomResizedCrop,
    RandomVerticalFlip,
    Resize,
    ToPIL,
    ToTensor,
)
from .utils import Inter  # noqa: F401


class Decode(_vision.Decode):
    """Encoded bytes to a PIL RGB image."""

    def __init__(self):
        super().__init__(to_pil=True)


class Normalize(_vision.Normalize):
    """``(image - mean) / std`` on a CHW float image (the output of ``ToTensor``)."""

    def __init__(self, mean, std):
        super().__init__(mean, std, is_hwc=False)
