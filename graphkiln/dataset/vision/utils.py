"""Vision enums (``Inter``, ``Border``, ``AutoAugmentPolicy``, ``ImageBatchFormat``) and the
optional image libraries behind them."""
from __future__ import annotations

import enum
import importlib

_INSTALL = ("{lib} is needed for mindspore.dataset.vision image operations: "
            "pip install 'graphkiln[dataset]' (or pip install {pip}).")


def cv2():
    """OpenCV, imported on first use so non-image pipelines work without it."""
    try:
        import cv2 as module  # noqa: PLC0415 - optional dependency, loaded on first use
    except ImportError:
        raise ImportError(_INSTALL.format(lib="OpenCV",
                                          pip="opencv-python-headless")) from None
    return module


def pil_image():
    """Pillow's ``Image`` module, imported on first use."""
    try:
        from PIL import Image  # noqa: PLC0415 - optional dependency, loaded on first use
    except ImportError:
        raise ImportError(_INSTALL.format(lib="Pillow", pip="pillow")) from None
    return Image


def pil_module(name: str):
    """Pillow's module ``PIL.<name>`` (``ImageOps``, ``ImageEnhance``...), imported on
    first use."""
    pil_image()
    return importlib.import_module(f"PIL.{name}")


def is_pil(x) -> bool:
    """Whether ``x`` is a PIL image (without importing Pillow when it is not loaded)."""
    return type(x).__module__.startswith("PIL.")


class Inter(enum.IntEnum):
    """Interpolation modes."""

    NEAREST = 0
    LINEAR = 1
    BILINEAR = 1
    CUBIC = 2
    BICUBIC = 2
    AREA = 3
    PILCUBIC = 4
    ANTIALIAS = 5


class Border(str, enum.Enum):
    """Padding modes."""

    CONSTANT = "constant"
    EDGE = "edge"
    REFLECT = "reflect"
    SYMMETRIC = "symmetric"


class AutoAugmentPolicy(str, enum.Enum):
    """The dataset an AutoAugment policy was learned on."""

    IMAGENET = "imagenet"
    CIFAR10 = "cifar10"
    SVHN = "svhn"


class ImageBatchFormat(enum.IntEnum):
    """Layout of a batch of images."""

    NHWC = 0
    NCHW = 1


def cv2_interpolation(inter: Inter) -> int:
    c = cv2()
    return {Inter.NEAREST: c.INTER_NEAREST, Inter.LINEAR: c.INTER_LINEAR,
            Inter.CUBIC: c.INTER_CUBIC, Inter.AREA: c.INTER_AREA}[Inter(inter)]


def pil_interpolation(inter: Inter) -> int:
    image = pil_image()
    return {Inter.NEAREST: image.NEAREST, Inter.LINEAR: image.BILINEAR,
            Inter.CUBIC: image.BICUBIC, Inter.PILCUBIC: image.BICUBIC,
            Inter.AREA: image.BOX, Inter.ANTIALIAS: image.LANCZOS}[Inter(inter)]


def cv2_border(mode: Border) -> int:
    c = cv2()
    return {Border.CONSTANT: c.BORDER_CONSTANT, Border.EDGE: c.BORDER_REPLICATE,
            Border.REFLECT: c.BORDER_REFLECT_101, Border.SYMMETRIC: c.BORDER_REFLECT}[
        Border(mode)]
