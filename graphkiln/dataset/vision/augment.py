"""Learned and random augmentation policies (``mindspore.dataset.vision``'s AutoAugment,
RandAugment, TrivialAugmentWide): each picks sub-operations (shear, translate, rotate,
colour, sharpness, posterize, solarize, ...) with a magnitude from a table of bins and
applies them with the existing vision ops, drawing from MindSpore's stream as its C++ ops
do (``std::mt19937`` seeded once per op copy, libstdc++'s distributions).

MindSpore's quirks kept: magnitudes are float32 ``linspace`` bins (posterize bits rounded
half to even); ``TranslateX/Y`` pass whole pixels to an affine op that multiplies them by
the image's width or height again (so any non-zero translation moves the image out of
view); RandAugment and TrivialAugmentWide draw an index in ``[0, n]`` and take it modulo
``n``, over the operations in name order.
"""
from __future__ import annotations

import math

import numpy as np

from ..randomness import draws
from ..transforms.transforms import TensorOperation
from .transforms import (
    _ADJUST,
    AutoContrast,
    Equalize,
    _affine_matrix,
    _fill3,
    rotated,
    sharpened,
)
from .utils import AutoAugmentPolicy, Inter
from .warp import warp_affine

__all__ = ["AutoAugmentPolicy", "AutoAugment", "RandAugment", "TrivialAugmentWide"]

_F = np.float32
_FLOAT_MAX_INTEGER = 16777216


# (operation, probability, magnitude bin or -1) pairs, as MindSpore lists them
_POLICIES = {
    AutoAugmentPolicy.IMAGENET: [
        (("Posterize", 0.4, 8), ("Rotate", 0.6, 9)),
        (("Solarize", 0.6, 5), ("AutoContrast", 0.6, -1)),
        (("Equalize", 0.8, -1), ("Equalize", 0.6, -1)),
        (("Posterize", 0.6, 7), ("Posterize", 0.6, 6)),
        (("Equalize", 0.4, -1), ("Solarize", 0.2, 4)),
        (("Equalize", 0.4, -1), ("Rotate", 0.8, 8)),
        (("Solarize", 0.6, 3), ("Equalize", 0.6, -1)),
        (("Posterize", 0.8, 5), ("Equalize", 1.0, -1)),
        (("Rotate", 0.2, 3), ("Solarize", 0.6, 8)),
        (("Equalize", 0.6, -1), ("Posterize", 0.4, 6)),
        (("Rotate", 0.8, 8), ("Color", 0.4, 0)),
        (("Rotate", 0.4, 9), ("Equalize", 0.6, -1)),
        (("Equalize", 0.0, -1), ("Equalize", 0.8, -1)),
        (("Invert", 0.6, -1), ("Equalize", 1.0, -1)),
        (("Color", 0.6, 4), ("Contrast", 1.0, 8)),
        (("Rotate", 0.8, 8), ("Color", 1.0, 2)),
        (("Color", 0.8, 8), ("Solarize", 0.8, 7)),
        (("Sharpness", 0.4, 7), ("Invert", 0.6, -1)),
        (("ShearX", 0.6, 5), ("Equalize", 1.0, -1)),
        (("Color", 0.4, 0), ("Equalize", 0.6, -1)),
        (("Equalize", 0.4, -1), ("Solarize", 0.2, 4)),
        (("Solarize", 0.6, 5), ("AutoContrast", 0.6, -1)),
        (("Invert", 0.6, -1), ("Equalize", 1.0, -1)),
        (("Color", 0.6, 4), ("Contrast", 1.0, 8)),
        (("Equalize", 0.8, -1), ("Equalize", 0.6, -1)),
    ],
    AutoAugmentPolicy.CIFAR10: [
        (("Invert", 0.1, -1), ("Contrast", 0.2, 6)),
        (("Rotate", 0.7, 2), ("TranslateX", 0.3, 9)),
        (("Sharpness", 0.8, 1), ("Sharpness", 0.9, 3)),
        (("ShearY", 0.5, 8), ("TranslateY", 0.7, 9)),
        (("AutoContrast", 0.5, -1), ("Equalize", 0.9, -1)),
        (("ShearY", 0.2, 7), ("Posterize", 0.3, 7)),
        (("Color", 0.4, 3), ("Brightness", 0.6, 7)),
        (("Sharpness", 0.3, 9), ("Brightness", 0.7, 9)),
        (("Equalize", 0.6, -1), ("Equalize", 0.5, -1)),
        (("Contrast", 0.6, 7), ("Sharpness", 0.6, 5)),
        (("Color", 0.7, 7), ("TranslateX", 0.5, 8)),
        (("Equalize", 0.3, -1), ("AutoContrast", 0.4, -1)),
        (("TranslateY", 0.4, 3), ("Sharpness", 0.2, 6)),
        (("Brightness", 0.9, 6), ("Color", 0.2, 8)),
        (("Solarize", 0.5, 2), ("Invert", 0.0, -1)),
        (("Equalize", 0.2, -1), ("AutoContrast", 0.6, -1)),
        (("Equalize", 0.2, -1), ("Equalize", 0.6, -1)),
        (("Color", 0.9, 9), ("Equalize", 0.6, -1)),
        (("AutoContrast", 0.8, -1), ("Solarize", 0.2, 8)),
        (("Brightness", 0.1, 3), ("Color", 0.7, 0)),
        (("Solarize", 0.4, 5), ("AutoContrast", 0.9, -1)),
        (("TranslateY", 0.9, 9), ("TranslateY", 0.7, 9)),
        (("AutoContrast", 0.9, -1), ("Solarize", 0.8, 3)),
        (("Equalize", 0.8, -1), ("Invert", 0.1, -1)),
        (("TranslateY", 0.7, 9), ("AutoContrast", 0.9, -1)),
    ],
    AutoAugmentPolicy.SVHN: [
        (("ShearX", 0.9, 4), ("Invert", 0.2, -1)),
        (("ShearY", 0.9, 8), ("Invert", 0.7, -1)),
        (("Equalize", 0.6, -1), ("Solarize", 0.6, 6)),
        (("Invert", 0.9, -1), ("Equalize", 0.6, -1)),
        (("Equalize", 0.6, -1), ("Rotate", 0.9, 3)),
        (("ShearX", 0.9, 4), ("AutoContrast", 0.8, -1)),
        (("ShearY", 0.9, 8), ("Invert", 0.4, -1)),
        (("ShearY", 0.9, 5), ("Solarize", 0.2, 6)),
        (("Invert", 0.9, -1), ("AutoContrast", 0.8, -1)),
        (("Equalize", 0.6, -1), ("Rotate", 0.9, 3)),
        (("ShearX", 0.9, 4), ("Solarize", 0.3, 3)),
        (("ShearY", 0.8, 8), ("Invert", 0.7, -1)),
        (("Equalize", 0.9, -1), ("TranslateY", 0.6, 6)),
        (("Invert", 0.9, -1), ("Equalize", 0.6, -1)),
        (("Contrast", 0.3, 3), ("Rotate", 0.8, 4)),
        (("Invert", 0.8, -1), ("TranslateY", 0.0, 2)),
        (("ShearY", 0.7, 6), ("Solarize", 0.4, 8)),
        (("Invert", 0.6, -1), ("Rotate", 0.8, 4)),
        (("ShearY", 0.3, 7), ("TranslateX", 0.9, 3)),
        (("ShearX", 0.1, 6), ("Invert", 0.6, -1)),
        (("Solarize", 0.7, 2), ("TranslateY", 0.6, 7)),
        (("ShearY", 0.8, 4), ("Invert", 0.8, -1)),
        (("ShearX", 0.7, 9), ("TranslateY", 0.8, 3)),
        (("ShearY", 0.8, 5), ("AutoContrast", 0.7, -1)),
        (("ShearX", 0.7, 2), ("Invert", 0.1, -1)),
    ],
}

def _round_half_even(x: np.float32) -> np.float32:
    return _F(np.rint(x))


def linspace(start: float, end: float, n: int, scale: float = 1.0, offset: float = 0.0,
             rounded: bool = False) -> list[np.float32]:
    """MindSpore's float32 ``Linspace``: ``(start + i * step) * scale + offset``."""
    step = _F(0) if n == 1 else (_F(end) - _F(start)) / _F(n - 1)
    out = [(_F(start) + _F(i) * step) * _F(scale) + _F(offset) for i in range(n)]
    return [_round_half_even(v) for v in out] if rounded else out


def _space(kind: str, bins: int, h: int, w: int) -> dict[str, tuple[list, bool]]:
    """Operation -> (magnitude bins, signed) for ``kind`` (auto, rand or trivial)."""
    none = ([_F(0)], False)
    if kind == "trivial":
        wide, shift, turn, bits = _F(0.99), (_F(32), _F(32)), 135.0, -6.0
    else:
        wide, turn, bits = _F(0.9), 30.0, -4.0
        shift = (_F(150) / _F(331) * _F(w), _F(150) / _F(331) * _F(h))
    space = {
        "ShearX": (linspace(0.0, 0.99 if kind == "trivial" else 0.3, bins), True),
        "TranslateX": (linspace(0.0, shift[0], bins), True),
        "Rotate": (linspace(0.0, turn, bins), True),
        "Posterize": (linspace(0.0, bins - 1.0, bins, _F(bits) / _F(bins - 1), 8, True), False),
        "Solarize": (linspace(256.0 if kind == "auto" else 255.0, 0.0, bins), False),
        "AutoContrast": none, "Equalize": none,
    }
    space["ShearY"] = space["ShearX"]
    space["TranslateY"] = (linspace(0.0, shift[1], bins), True)
    for name in ("Brightness", "Color", "Contrast", "Sharpness"):
        space[name] = (linspace(0.0, wide, bins), True)
    if kind == "auto":
        space["Invert"] = none
    else:
        space["Identity"] = none
    return dict(sorted(space.items()))  # std::map order


def apply_augment(img: np.ndarray, name: str, magnitude: np.float32, inter: Inter,
                  fill: list) -> np.ndarray:
    """One sub-operation at ``magnitude`` (MindSpore's ``ApplyAugment``)."""
    h, w = img.shape[:2]
    if name in ("ShearX", "ShearY"):
        shear = float(_F(float(_F(magnitude * _F(180))) / math.pi))
        pair = (shear, 0.0) if name == "ShearX" else (0.0, shear)
        return warp_affine(img, _affine_matrix(h, w, 0.0, (0.0, 0.0), 1.0, pair), inter, fill)
    if name in ("TranslateX", "TranslateY"):
        pixels = _F(int(magnitude))  # then scaled by the size again, as MindSpore's AffineOp
        shift = (pixels * _F(w), _F(0)) if name == "TranslateX" else (_F(0), pixels * _F(h))
        return warp_affine(img, _affine_matrix(h, w, 0.0, shift, 1.0, (0.0, 0.0)), inter, fill)
    if name == "Rotate":  # MindSpore's fill reaches the rotation as (R, B, G) (recorded)
        return rotated(img, float(magnitude), inter, False, None, [fill[0], fill[2], fill[1]])
    kinds = {"Brightness": "brightness", "Color": "saturation", "Contrast": "contrast"}
    if name in kinds:
        return _ADJUST[kinds[name]](img, float(_F(1) + magnitude))
    if name == "Sharpness":
        return sharpened(img, float(_F(1) + magnitude))
    if name == "Posterize":
        return img & np.uint8((0xFF << (8 - int(magnitude))) & 0xFF)
    if name == "Solarize":  # one threshold: invert from it up
        return np.where(img >= magnitude, 255 - img, img).astype(np.uint8)
    if name == "AutoContrast":
        return AutoContrast()._apply(img)
    if name == "Equalize":
        return Equalize()._apply(img)
    if name == "Invert":
        return 255 - img
    return img  # Identity


# ---------------------------------------------------------------------- argument checks
def _type_check(value, kinds: tuple, name: str) -> None:
    if isinstance(value, bool) or not isinstance(value, kinds):
        shown = "[" + ", ".join(repr(k) for k in kinds) + "]"
        raise TypeError(f"Argument {name} with value {value} is not of type {shown}, but got "
                        f"{type(value)}.")


def _interval(value: int, low: int, high: int, name: str, right_open: bool = False) -> None:
    if value < low or (value >= high if right_open else value > high):
        close = ")" if right_open else "]"
        raise ValueError(f"Input {name} is not within the required interval of "
                         f"[{low}, {high}{close}.")


def _fill_value(fill_value) -> list:
    if isinstance(fill_value, int) and not isinstance(fill_value, bool):
        _interval(fill_value, 0, 255, "fill_value")
    elif isinstance(fill_value, tuple) and len(fill_value) == 3:
        for i, v in enumerate(fill_value):
            _type_check(v, (int,), f"fill_value[{i}]")
            _interval(v, 0, 255, f"fill_value[{i}]")
    else:
        raise TypeError("fill_value should be a single integer or a 3-tuple.")
    return _fill3(fill_value)


def _rgb_image(img, op: str, check_dtype: bool) -> np.ndarray:
    """MindSpore's ``ValidateImage``: uint8, rank 3, 3 channels (AutoAugment's own words
    without the dtype check)."""
    img = np.asarray(img)
    if check_dtype and img.dtype != np.uint8:
        raise RuntimeError(f"{op}: the data type of image tensor does not match the requirement "
                           f"of operator. Expecting tensor in type of (uint8). But got type "
                           f"{img.dtype}.")
    if img.ndim != 3:
        if not check_dtype:
            raise RuntimeError(f"{op}: input tensor is not in shape of <H,W,C>, but got rank: "
                               f"{img.ndim}")
        raise RuntimeError(f"{op}: the dimension of image tensor does not match the "
                           f"requirement of operator. Expecting tensor in dimension of (3), in "
                           f"shape of <H, W, C>. But got dimension {img.ndim}.")
    if img.shape[2] != 3:
        if not check_dtype:
            raise RuntimeError(f"{op}: channel of input image should be 3, but got: "
                               f"{img.shape[2]}")
        raise RuntimeError(f"{op}: the channel of image tensor does not match the requirement "
                           f"of operator. Expecting tensor in channel of (3). But got channel "
                           f"{img.shape[2]}.")
    return img


# ---------------------------------------------------------------------- the operations
class AutoAugment(TensorOperation):
    """One of the policy's 25 pairs of sub-operations, each applied with its probability."""

    random = True

    def __init__(self, policy: AutoAugmentPolicy = AutoAugmentPolicy.IMAGENET,
                 interpolation: Inter = Inter.NEAREST, fill_value=0):
        _type_check(policy, (AutoAugmentPolicy,), "policy")
        _type_check(interpolation, (Inter,), "interpolation")
        self.policy, self.interpolation = policy, interpolation
        self.fill_value = _fill_value(fill_value)

    def _apply(self, img):
        img = _rgb_image(img, "AutoAugment", check_dtype=False)
        pairs = _POLICIES[self.policy]
        rng = draws(self)
        pair = pairs[rng.uniform_int(0, len(pairs) - 1)]
        probs = [rng.uniform_float(0.0, 1.0) for _ in range(2)]
        signs = [rng.uniform_int(0, 1) for _ in range(2)]
        space = _space("auto", 10, *img.shape[:2])
        for (name, prob, bin_), drawn, sign in zip(pair, probs, signs):
            if _F(drawn) > _F(prob):
                continue
            magnitudes, signed = space[name]
            magnitude = magnitudes[bin_] if len(magnitudes) != 1 and bin_ != -1 else _F(0)
            if signed and sign == 0:
                magnitude = -magnitude
            img = apply_augment(img, name, magnitude, self.interpolation, self.fill_value)
        return img


def _rand_below(rng, n: int) -> int:
    """MindSpore's ``RandInt(0, n)``: a draw in ``[0, n]`` taken modulo ``n``."""
    return rng.uniform_int(0, n) % n


def _check_bins(num_magnitude_bins) -> None:
    _type_check(num_magnitude_bins, (int,), "num_magnitude_bins")
    _interval(num_magnitude_bins, 2, _FLOAT_MAX_INTEGER, "num_magnitude_bins")


class RandAugment(TensorOperation):
    """``num_ops`` sub-operations drawn at random, all at bin ``magnitude``."""

    random = True

    def __init__(self, num_ops: int = 2, magnitude: int = 9, num_magnitude_bins: int = 31,
                 interpolation: Inter = Inter.NEAREST, fill_value=0):
        _type_check(num_ops, (int,), "num_ops")
        _interval(num_ops, 0, _FLOAT_MAX_INTEGER, "num_ops")
        _check_bins(num_magnitude_bins)
        _type_check(magnitude, (int,), "magnitude")
        _interval(magnitude, 0, num_magnitude_bins, "magnitude", right_open=True)
        _type_check(interpolation, (Inter,), "interpolation")
        self.num_ops, self.magnitude, self.bins = num_ops, magnitude, num_magnitude_bins
        self.interpolation = interpolation
        self.fill_value = _fill_value(fill_value)

    def _apply(self, img):
        img = _rgb_image(img, "RandAugment", check_dtype=True)
        space = _space("rand", self.bins, *img.shape[:2])
        names = list(space)
        rng = draws(self)
        for _ in range(self.num_ops):
            name = names[_rand_below(rng, len(names))]
            magnitudes, signed = space[name]
            magnitude = magnitudes[self.magnitude] if len(magnitudes) != 1 else _F(0)
            if _rand_below(rng, 2) and signed:
                magnitude = -magnitude
            img = apply_augment(img, name, magnitude, self.interpolation, self.fill_value)
        return img


class TrivialAugmentWide(TensorOperation):
    """One sub-operation drawn at random, at a magnitude bin drawn at random."""

    random = True

    def __init__(self, num_magnitude_bins: int = 31, interpolation: Inter = Inter.NEAREST,
                 fill_value=0):
        _check_bins(num_magnitude_bins)
        _type_check(interpolation, (Inter,), "interpolation")
        self.bins, self.interpolation = num_magnitude_bins, interpolation
        self.fill_value = _fill_value(fill_value)

    def _apply(self, img):
        img = _rgb_image(img, "TrivialAugmentWide", check_dtype=True)
        space = _space("trivial", self.bins, *img.shape[:2])
        names = list(space)
        rng = draws(self)
        name = names[_rand_below(rng, len(names))]
        magnitudes, signed = space[name]
        magnitude = _F(0)
        if len(magnitudes) != 1:
            magnitude = magnitudes[_rand_below(rng, len(magnitudes))]
        if _rand_below(rng, 2) and signed:
            magnitude = -magnitude
        return apply_augment(img, name, magnitude, self.interpolation, self.fill_value)
