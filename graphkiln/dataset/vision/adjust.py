"""Image ops with fixed parameters (``mindspore.dataset.vision``): the deterministic twins
of the random ops in ``transforms`` (flips, crops, colour adjustments, rotation), on the
same kernels, so each matches MindSpore where its random twin does."""
from __future__ import annotations

import enum
import numbers

import numpy as np

from ..transforms.transforms import TensorOperation, TypeCast
from .pil_ops import adjusted, gamma_adjusted
from .transforms import (
    _ADJUST,
    Normalize,
    _image,
    _padded,
    _resized,
    _size_pair,
    _uint8_image,
    rotated,
    sharpened,
)
from .utils import Border, Inter, cv2, is_pil

__all__ = [
    "HorizontalFlip", "VerticalFlip", "Crop", "ResizedCrop", "AdjustBrightness",
    "AdjustContrast", "AdjustSaturation", "AdjustHue", "AdjustSharpness", "AdjustGamma",
    "Posterize", "Solarize", "Rotate", "ToType", "Erase", "PadToSize", "GaussianBlur",
    "ConvertMode", "ConvertColor", "NormalizePad", "SliceMode", "SlicePatches", "RgbToHsv",
    "HsvToRgb",
]


def _factor(value, name: str, low: float = 0.0, high: float | None = None) -> float:
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise TypeError(f"Argument {name} with value {value!r} is not of type "
                        f"[<class 'float'>, <class 'int'>], but got {type(value)}.")
    if value < low or (high is not None and value > high):
        bound = "16777216" if high is None else str(high)
        raise ValueError(f"Input {name} is not within the required interval of "
                         f"[{low}, {bound}].")
    return float(value)


class HorizontalFlip(TensorOperation):
    """Mirror left-right."""

    def _apply(self, img):
        return np.flip(_image(img, self.op_name), 1).copy()


class VerticalFlip(TensorOperation):
    """Mirror top-bottom."""

    def _apply(self, img):
        return np.flip(_image(img, self.op_name), 0).copy()


def _cropped(img: np.ndarray, op: str, top: int, left: int, h: int, w: int) -> np.ndarray:
    if top < 0 or left < 0 or top + h > img.shape[0] or left + w > img.shape[1]:
        raise RuntimeError(f"{op}: the crop box (top {top}, left {left}, height {h}, width "
                           f"{w}) is out of the image's bounds {list(img.shape[:2])}.")
    return img[top:top + h, left:left + w].copy()


class Crop(TensorOperation):
    """The (height, width) region whose top-left corner is ``coordinates`` (top, left)."""

    def __init__(self, coordinates, size):
        self.top, self.left = (int(c) for c in coordinates)
        if min(self.top, self.left) < 0:
            raise ValueError("Input coordinates is not within the required interval of "
                             "[0, 2147483647].")
        self.size = _size_pair(size)

    def _apply(self, img):
        return _cropped(_image(img, self.op_name), self.op_name, self.top, self.left,
                        *self.size)


class ResizedCrop(TensorOperation):
    """A crop (``top``, ``left``, ``height``, ``width``) resized to ``size`` (an int gives
    a square)."""

    def __init__(self, top: int, left: int, height: int, width: int, size,
                 interpolation: Inter = Inter.BILINEAR):
        self.box = (int(top), int(left), int(height), int(width))
        self.size = _size_pair(size)
        self.interpolation = Inter(interpolation)

    def _apply(self, img):
        img = _cropped(_image(img, self.op_name), self.op_name, *self.box)
        return _resized(img, self.size, self.interpolation)


class _Adjust(TensorOperation):
    """One colour adjustment of an RGB uint8 image by a fixed factor."""

    kind = ""

    def __init__(self, factor: float):
        self.factor = _factor(factor, f"{self.kind}_factor")

    def _apply(self, img):
        if is_pil(img):
            return adjusted(img, self.kind, self.factor)
        img = _uint8_image(img, self.op_name)
        if img.ndim != 3 or img.shape[2] != 3:
            raise RuntimeError(f"{self.op_name}: the image should be <H, W, 3> RGB, got "
                               f"shape {list(img.shape)}.")
        return _ADJUST[self.kind](img, self.factor)


class AdjustBrightness(_Adjust):
    """Scale every pixel by ``brightness_factor``."""

    kind = "brightness"


class AdjustContrast(_Adjust):
    """Blend with the image's mean gray level by ``contrast_factor``."""

    kind = "contrast"


class AdjustSaturation(_Adjust):
    """Blend with the gray image by ``saturation_factor``."""

    kind = "saturation"


class AdjustHue(_Adjust):
    """Shift the hue by ``hue_factor`` of a turn, in [-0.5, 0.5]."""

    kind = "hue"

    def __init__(self, hue_factor: float):
        self.factor = _factor(hue_factor, "hue_factor", -0.5, 0.5)


class AdjustSharpness(TensorOperation):
    """Blend with a smoothed copy by ``sharpness_factor`` (below 1 blurs)."""

    def __init__(self, sharpness_factor: float):
        self.factor = _factor(sharpness_factor, "sharpness_factor")

    def _apply(self, img):
        return sharpened(_uint8_image(img, self.op_name), self.factor)


class AdjustGamma(TensorOperation):
    """Gamma correction: about ``255 * gain * (pixel / 255) ** gamma`` on uint8 images
    (MindSpore's table), ``(gain * x) ** gamma`` within [0, 1] on floats."""

    def __init__(self, gamma: float, gain: float = 1.0):
        self.gamma = _factor(gamma, "gamma")
        self.gain = float(gain)

    def _apply(self, img):
        if is_pil(img):
            return gamma_adjusted(img, self.gamma, self.gain)
        img = np.asarray(img)
        if img.dtype != np.uint8:  # floats: (x * gain) ** gamma within [0, 1]
            out = np.power(img.astype(np.float32) * np.float32(self.gain), self.gamma)
            return np.clip(out, 0, 1).astype(np.float32)
        # MindSpore's table: floor(min((i / 255) ** gamma * 255.999 * gain, 255)) in float
        levels = np.power(np.arange(256, dtype=np.float32) / np.float32(255),
                          np.float32(self.gamma))
        table = np.minimum(levels * np.float32(255.999) * np.float32(self.gain), 255)
        return np.floor(table).astype(np.uint8)[img]


class Posterize(TensorOperation):
    """Keep the top ``bits`` bits of each pixel."""

    def __init__(self, bits: int):
        if isinstance(bits, bool) or not isinstance(bits, int) or not 0 <= bits <= 8:
            raise ValueError("Input bits is not within the required interval of [0, 8].")
        self.mask = np.uint8((0xFF << (8 - bits)) & 0xFF)

    def _apply(self, img):
        return _uint8_image(img, self.op_name) & self.mask


class Solarize(TensorOperation):
    """Invert the pixels from ``threshold`` up, or within a (low, high) ``threshold``."""

    def __init__(self, threshold):
        pair = (threshold, 255.0) if isinstance(threshold, numbers.Real) else threshold
        low, high = (float(t) for t in pair)
        if not 0 <= low <= high <= 255:
            raise ValueError("Input threshold should be within [0, 255] and increasing.")
        self.low, self.high = low, high

    def _apply(self, img):
        img = _uint8_image(img, self.op_name)
        inside = (img >= self.low) & (img <= self.high)
        return np.where(inside, 255 - img, img).astype(np.uint8)


class Rotate(TensorOperation):
    """Rotate by ``degrees`` counter-clockwise around ``center``."""

    def __init__(self, degrees: float, resample: Inter = Inter.NEAREST, expand: bool = False,
                 center=None, fill_value=0):
        self.degrees = float(degrees)
        self.resample = Inter(resample)
        self.expand = bool(expand)
        self.center = center
        self.fill_value = fill_value

    def _apply(self, img):
        return rotated(_image(img, self.op_name), self.degrees, self.resample, self.expand,
                       self.center, self.fill_value)


class ToType(TypeCast):
    """Cast to ``data_type`` (a MindSpore or NumPy type), as ``transforms.TypeCast``."""


class Erase(TensorOperation):
    """Fill the (``top``, ``left``, ``height``, ``width``) box (cut at the image's edges)
    with ``value``: one number, or one per channel."""

    def __init__(self, top: int, left: int, height: int, width: int, value=0.0,
                 inplace: bool = False):
        self.box = (int(top), int(left), int(height), int(width))
        self.value = value
        self.inplace = bool(inplace)

    def _apply(self, img):
        img = _image(img, self.op_name)
        out = img if self.inplace and img.flags.writeable else img.copy()
        top, left, h, w = self.box
        out[top:top + h, left:left + w] = np.asarray(self.value).astype(img.dtype)
        return out


class PadToSize(TensorOperation):
    """Pad to (height, width), the image at ``offset`` (top, left), centred by default."""

    def __init__(self, size, offset=None, fill_value=0, padding_mode: Border = Border.CONSTANT):
        self.size = _size_pair(size)
        self.offset = None if offset is None else (
            (int(offset), int(offset)) if isinstance(offset, numbers.Integral)
            else tuple(int(o) for o in offset))
        self.fill_value = fill_value
        self.padding_mode = Border(padding_mode)

    def _apply(self, img):
        img = _image(img, self.op_name)
        (th, tw), (h, w) = self.size, img.shape[:2]
        if th < h or tw < w:
            raise RuntimeError("PadToSize: the target size to pad should be no less than the "
                               f"original image size, but got target size ({th}, {tw}) and "
                               f"original size ({h}, {w}).")
        top, left = self.offset if self.offset is not None else ((th - h) // 2, (tw - w) // 2)
        if top + h > th or left + w > tw:
            raise RuntimeError(f"PadToSize: the offset ({top}, {left}) leaves no room for the "
                               f"image ({h}, {w}) within the target size ({th}, {tw}).")
        return _padded(img, top, th - h - top, left, tw - w - left, self.fill_value,
                       self.padding_mode)


def _blur_pair(value, name: str) -> tuple:
    pair = (value, value) if isinstance(value, numbers.Number) else tuple(value)
    if len(pair) != 2:
        raise TypeError(f"Argument {name} should be a number or a pair of numbers.")
    return pair


class GaussianBlur(TensorOperation):
    """OpenCV's Gaussian blur: odd ``kernel_size`` (width, height), ``sigma`` (x, y),
    derived from the kernel size when None."""

    def __init__(self, kernel_size, sigma=None):
        self.kernel = tuple(int(k) for k in _blur_pair(kernel_size, "kernel_size"))
        if any(k <= 0 or k % 2 == 0 for k in self.kernel):
            raise ValueError("Input kernel_size should be positive and odd.")
        if sigma is None:
            sigma = tuple(((k - 1) * 0.5 - 1) * 0.3 + 0.8 for k in self.kernel)
        self.sigma = tuple(float(s) for s in _blur_pair(sigma, "sigma"))

    def _apply(self, img):
        img = _image(img, self.op_name)
        out = cv2().GaussianBlur(img, self.kernel, self.sigma[0], sigmaY=self.sigma[1])
        return out.reshape(img.shape)


ConvertMode = enum.Enum("ConvertMode", [
    (f"COLOR_{name}", i) for i, name in enumerate([
        "BGR2BGRA", "RGB2RGBA", "BGRA2BGR", "RGBA2RGB", "BGR2RGBA", "RGB2BGRA", "RGBA2BGR",
        "BGRA2RGB", "BGR2RGB", "RGB2BGR", "BGRA2RGBA", "RGBA2BGRA", "BGR2GRAY", "RGB2GRAY",
        "GRAY2BGR", "GRAY2RGB", "GRAY2BGRA", "GRAY2RGBA", "BGRA2GRAY", "RGBA2GRAY"])],
    module=__name__)
ConvertMode.__doc__ = "The colour conversions of ``ConvertColor`` (OpenCV's codes)."


class ConvertColor(TensorOperation):
    """Convert between RGB, BGR, their alpha forms and gray (``ConvertMode``)."""

    def __init__(self, convert_mode: ConvertMode):
        if not isinstance(convert_mode, ConvertMode):
            raise TypeError(f"Argument convert_mode with value {convert_mode!r} is not of type "
                            f"[<enum 'ConvertMode'>], but got {type(convert_mode)}.")
        self.mode = convert_mode

    def _apply(self, img):
        return cv2().cvtColor(_image(img, self.op_name), getattr(cv2(), self.mode.name))


class NormalizePad(TensorOperation):
    """``Normalize`` then a fourth, zero channel, as ``dtype`` (float32 or float16)."""

    def __init__(self, mean, std, dtype: str = "float32", is_hwc: bool = True):
        if dtype not in ("float32", "float16"):
            raise ValueError(f"Input dtype should be 'float32' or 'float16', got {dtype!r}.")
        self.normalize = Normalize(mean, std, is_hwc)
        self.dtype = np.dtype(dtype)
        self.axis = -1 if is_hwc else 0

    def _apply(self, img):
        out = np.asarray(self.normalize._apply(img))
        pad = [(0, 0)] * out.ndim
        pad[self.axis] = (0, 1)
        return np.pad(out, pad).astype(self.dtype)


class SliceMode(enum.IntEnum):
    """What ``SlicePatches`` does with a remainder: pad the image up, or drop it."""

    PAD = 0
    DROP = 1


class SlicePatches(TensorOperation):
    """Cut an image into ``num_height`` x ``num_width`` patches, row by row (several
    outputs); a remainder is padded with ``fill_value`` or dropped."""

    def __init__(self, num_height: int = 1, num_width: int = 1,
                 slice_mode: SliceMode = SliceMode.PAD, fill_value: int = 0):
        for name, value in (("num_height", num_height), ("num_width", num_width)):
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise ValueError(f"Input {name} is not within the required interval of "
                                 "[1, 512].")
        self.grid = (num_height, num_width)
        self.mode = SliceMode(slice_mode)
        self.fill_value = fill_value

    def _apply(self, img):
        img = _image(img, self.op_name)
        (nh, nw), (h, w) = self.grid, img.shape[:2]
        if self.mode == SliceMode.PAD:
            ph, pw = -(-h // nh), -(-w // nw)
            img = _padded(img, 0, ph * nh - h, 0, pw * nw - w, self.fill_value,
                          Border.CONSTANT)
        else:
            ph, pw = h // nh, w // nw
        return tuple(img[i * ph:(i + 1) * ph, j * pw:(j + 1) * pw].copy()
                     for i in range(nh) for j in range(nw))


def _channels(img, is_hwc: bool, op: str) -> tuple[np.ndarray, int]:
    if is_pil(img):  # MindSpore's Python implementation takes NumPy images only
        raise TypeError(f"img should be NumPy image. Got {type(img)}")
    img = np.asarray(img)
    if img.ndim not in (3, 4):
        raise TypeError("img shape should be (H, W, C)/(N, H, W, C)/(C ,H, W)/(N, C, H, W). "
                        f"Got {img.shape}.")
    axis = -1 if is_hwc else img.ndim - 3
    if img.shape[axis] != 3:
        raise TypeError(f"img should be 3 channels RGB img. Got {img.shape[axis]} channels.")
    return np.moveaxis(img.astype(np.float64), axis, 0), axis


class RgbToHsv(TensorOperation):
    """RGB to HSV per pixel (``colorsys``'s formulas, float64), channels first unless
    ``is_hwc``."""

    def __init__(self, is_hwc: bool = False):
        self.is_hwc = bool(is_hwc)

    def _apply(self, img):
        (r, g, b), axis = _channels(img, self.is_hwc, self.op_name)
        high, low = np.maximum(np.maximum(r, g), b), np.minimum(np.minimum(r, g), b)
        span = high - low
        flat = span == 0
        safe = np.where(flat, 1.0, span)
        rc, gc, bc = (high - r) / safe, (high - g) / safe, (high - b) / safe
        hue = np.where(r == high, bc - gc, np.where(g == high, 2.0 + rc - bc, 4.0 + gc - rc))
        hue = np.where(flat, 0.0, (hue / 6.0) % 1.0)
        sat = np.where(flat, 0.0, span / np.where(high == 0, 1.0, high))
        return np.moveaxis(np.stack([hue, sat, high]), 0, axis)


class HsvToRgb(TensorOperation):
    """HSV to RGB per pixel (``colorsys``'s formulas, float64), channels first unless
    ``is_hwc``."""

    def __init__(self, is_hwc: bool = False):
        self.is_hwc = bool(is_hwc)

    def _apply(self, img):
        (h, s, v), axis = _channels(img, self.is_hwc, self.op_name)
        sector = np.trunc(h * 6.0)
        f = h * 6.0 - sector
        p, q, t = v * (1.0 - s), v * (1.0 - s * f), v * (1.0 - s * (1.0 - f))
        sector = sector.astype(np.int64) % 6
        choices = [(v, t, p), (q, v, p), (p, v, t), (p, q, v), (t, p, v), (v, p, q)]
        rgb = [np.choose(sector, [c[k] for c in choices]) for k in range(3)]
        gray = s == 0.0
        rgb = [np.where(gray, v, c) for c in rgb]
        return np.moveaxis(np.stack(rgb), 0, axis)
