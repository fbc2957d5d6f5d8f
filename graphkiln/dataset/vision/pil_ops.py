"""Ops on PIL images only, as MindSpore's Python implementations: ``FiveCrop``,
``TenCrop``, ``Grayscale``, ``RandomGrayscale`` (Python's ``random``, as MindSpore's) and
``ToNumpy``; and what the colour, contrast and padding ops do to a PIL image (MindSpore
runs its Python implementations on one, with Pillow, and gives a PIL image back)."""
from __future__ import annotations

import numbers
import random

import numpy as np

from ..transforms.transforms import TensorOperation, check_prob
from .utils import Border, is_pil, pil_image, pil_module

__all__ = ["FiveCrop", "TenCrop", "Grayscale", "RandomGrayscale", "ToNumpy"]


def _pil(img, op: str):
    if not is_pil(img):
        raise TypeError(f"img should be PIL image. Got {type(img)}. Use Decode() for encoded "
                        "data or ToPIL() for decoded data.")
    return img


_ENHANCERS = {"brightness": "Brightness", "contrast": "Contrast", "saturation": "Color"}


def adjusted(img, kind: str, factor: float):
    """``AdjustBrightness``/``Contrast``/``Saturation``/``Hue`` of a PIL image."""
    if kind != "hue":
        return getattr(pil_module("ImageEnhance"), _ENHANCERS[kind])(img).enhance(factor)
    if img.mode in ("L", "1", "I", "F"):
        return img
    hue, saturation, value = img.convert("HSV").split()
    shifted = np.array(hue, dtype=np.uint8) + np.uint8(int(factor * 255) % 256)
    image = pil_image()
    return image.merge("HSV", (image.fromarray(shifted, "L"), saturation, value)).convert(
        img.mode)


def gamma_adjusted(img, gamma: float, gain: float):
    """``AdjustGamma`` of a PIL image: MindSpore's Python table on each band."""
    table = [int((255 + 1 - 1e-3) * gain * pow(x / 255.0, gamma)) for x in range(256)]
    return img.point(table * len(img.getbands()))


def image_ops(name: str, img, *args):
    """Pillow's ``ImageOps.<name>(img, *args)`` (``autocontrast``, ``equalize``,
    ``invert``)."""
    return getattr(pil_module("ImageOps"), name)(img, *args)


def padded(img, left: int, top: int, right: int, bottom: int, fill, mode: Border):
    """``Pad`` of a PIL image: Pillow's border for constant padding, NumPy's other modes."""
    if mode == Border.CONSTANT:
        fill = tuple(fill) if isinstance(fill, list) else fill
        if isinstance(fill, tuple) and img.mode in ("L", "1"):
            fill = fill[:1]
        return image_ops("expand", img, (left, top, right, bottom), fill)
    arr = np.asarray(img)
    pads = ((top, bottom), (left, right)) + (((0, 0),) if arr.ndim == 3 else ())
    return pil_image().fromarray(np.pad(arr, pads, mode.value))


def _crop_size(size) -> tuple[int, int]:
    if isinstance(size, numbers.Integral) and not isinstance(size, bool):
        return int(size), int(size)
    if isinstance(size, (tuple, list)) and len(size) == 2:
        return int(size[0]), int(size[1])
    raise TypeError("Size should be a single number or a list/tuple (h, w) of length 2.")


def _five(img, size: tuple[int, int]) -> tuple:
    ch, cw = size
    w, h = img.size
    if ch > h or cw > w:
        raise ValueError(f"Crop size {size} is larger than input image size {(h, w)}.")
    top, left = int(round((h - ch) / 2.0)), int(round((w - cw) / 2.0))
    return (img.crop((0, 0, cw, ch)), img.crop((w - cw, 0, w, ch)),
            img.crop((0, h - ch, cw, h)), img.crop((w - cw, h - ch, w, h)),
            img.crop((left, top, left + cw, top + ch)))


class FiveCrop(TensorOperation):
    """The four corner crops and the central crop of (height, width) ``size``."""

    def __init__(self, size):
        self.size = _crop_size(size)

    def __call__(self, img):
        return _five(_pil(img, self.op_name), self.size)


class TenCrop(TensorOperation):
    """``FiveCrop`` of the image and of its mirror (left-right, or top-bottom with
    ``use_vertical_flip``)."""

    def __init__(self, size, use_vertical_flip: bool = False):
        self.size = _crop_size(size)
        self.vertical = bool(use_vertical_flip)

    def __call__(self, img):
        img = _pil(img, self.op_name)
        image = pil_image()
        mirror = img.transpose(image.FLIP_TOP_BOTTOM if self.vertical
                               else image.FLIP_LEFT_RIGHT)
        return _five(img, self.size) + _five(mirror, self.size)


def _gray(img, channels: int):
    gray = img.convert("L")
    if channels == 1:
        return gray
    return pil_image().fromarray(np.dstack([np.asarray(gray)] * 3), "RGB")


class Grayscale(TensorOperation):
    """A PIL image in gray, with 1 or 3 channels."""

    def __init__(self, num_output_channels: int = 1):
        if num_output_channels not in (1, 3):
            raise ValueError("Input num_output_channels is not within the valid set of "
                             "[1, 3].")
        self.channels = num_output_channels

    def __call__(self, img):
        return _gray(_pil(img, self.op_name), self.channels)


class RandomGrayscale(TensorOperation):
    """``Grayscale`` (keeping the channel count) with probability ``prob``."""

    random = True

    def __init__(self, prob: float = 0.1):
        self.prob = check_prob(prob)

    def __call__(self, img):
        img = _pil(img, self.op_name)
        if self.prob > random.random():
            return _gray(img, 1 if img.mode == "L" else 3)
        return img


class ToNumpy(TensorOperation):
    """A PIL image as a NumPy array (other inputs as they are)."""

    def __call__(self, img):
        return np.asarray(img) if is_pil(img) else img
