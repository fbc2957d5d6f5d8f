"""``mindspore.dataset.vision``: image transforms (OpenCV for arrays, Pillow for PIL images;
both imported on first use)."""
from . import transforms as _transforms
from .transforms import *  # noqa: F403 - every transform, listed in transforms.__all__
from .utils import Border, Inter

__all__ = [*_transforms.__all__, "Inter", "Border"]
