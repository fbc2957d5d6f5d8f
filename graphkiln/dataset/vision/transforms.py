"""Image transforms (``mindspore.dataset.vision``) on OpenCV for NumPy HWC images, as
MindSpore's C++ ops do, and on Pillow for PIL images."""
from __future__ import annotations

import io
import math
import numbers
import random

import numpy as np

from ..randomness import draws
from ..transforms.transforms import TensorOperation, check_prob
from .pil_ops import image_ops, padded
from .utils import (
    Border,
    Inter,
    cv2,
    cv2_border,
    cv2_interpolation,
    is_pil,
    pil_image,
    pil_interpolation,
)
from .warp import warp_affine

__all__ = [
    "Decode",
    "Resize",
    "CenterCrop",
    "Pad",
    "RandomCrop",
    "RandomResizedCrop",
    "RandomCropDecodeResize",
    "RandomHorizontalFlip",
    "RandomVerticalFlip",
    "Rescale",
    "Normalize",
    "HWC2CHW",
    "ToTensor",
    "ToPIL",
    "RandomColorAdjust",
    "RandomRotation",
    "Affine",
    "RandomAffine",
    "Invert",
    "Equalize",
    "AutoContrast",
    "RandomSolarize",
    "RandomPosterize",
    "RandomColor",
    "RandomSharpness",
    "CutOut",
    "RandomSelectSubpolicy",
]


def _size_pair(size, name: str = "size") -> tuple[int, int]:
    """``size`` as (height, width); an int gives a square."""
    if isinstance(size, numbers.Integral) and not isinstance(size, bool):
        pair = (int(size), int(size))
    elif isinstance(size, (list, tuple)) and len(size) == 2:
        pair = (int(size[0]), int(size[1]))
    else:
        raise TypeError(f"Argument {name} with value {size!r} is not of type [<class 'int'>, "
                        f"<class 'list'>, <class 'tuple'>] of length 2.")
    if min(pair) <= 0:
        raise ValueError(f"Input {name} is not within the required interval of "
                         f"[1, 16777216].")
    return pair


def _image(x, op: str) -> np.ndarray:
    x = np.asarray(x)
    if x.ndim not in (2, 3):
        raise RuntimeError(f"{op}: the image should be <H, W> or <H, W, C>, but got shape "
                           f"{list(x.shape)}.")
    return x


def _resized(img: np.ndarray, hw: tuple[int, int], inter: Inter) -> np.ndarray:
    if Inter(inter) in (Inter.PILCUBIC, Inter.ANTIALIAS):
        return np.asarray(pil_image().fromarray(img).resize(hw[::-1], pil_interpolation(inter)))
    out = cv2().resize(img, (hw[1], hw[0]), interpolation=cv2_interpolation(inter))
    return out.reshape(*hw, *img.shape[2:])


def _padded(img: np.ndarray, top, bottom, left, right, fill, mode) -> np.ndarray:
    if not (top or bottom or left or right):
        return img
    value = list(fill) if isinstance(fill, (tuple, list)) else [fill] * 3
    out = cv2().copyMakeBorder(img, top, bottom, left, right, cv2_border(mode), value=value)
    return out.reshape(out.shape[0], out.shape[1], *img.shape[2:])


def _padding4(padding) -> tuple[int, int, int, int]:
    """(left, top, right, bottom) from an int, (left/right, top/bottom) or 4 values."""
    if isinstance(padding, numbers.Integral):
        return (int(padding),) * 4
    p = [int(v) for v in padding]
    if len(p) == 2:
        return p[0], p[1], p[0], p[1]
    if len(p) == 4:
        return tuple(p)
    raise TypeError("padding should be an int or a sequence of 2 or 4 ints.")


class Decode(TensorOperation):
    """Encoded image bytes (1-D uint8) to an RGB HWC uint8 image (a PIL image with
    ``to_pil``)."""

    def __init__(self, to_pil: bool = False):
        self.to_pil = to_pil

    def _apply(self, data):
        raw = np.asarray(data) if not isinstance(data, bytes) else np.frombuffer(data, np.uint8)
        if raw.dtype.kind == "S":  # a bytes column (MindDataset): the raw encoded bytes
            raw = np.frombuffer(raw.tobytes(), np.uint8)
        if raw.dtype != np.uint8 or raw.ndim != 1:
            raise RuntimeError(f"Decode: invalid input shape, only support 1D uint8 input "
                               f"(the encoded bytes), got shape {list(raw.shape)}, dtype "
                               f"{raw.dtype}.")
        if self.to_pil:
            return pil_image().open(io.BytesIO(raw.tobytes())).convert("RGB")
        c = cv2()
        img = c.imdecode(raw, c.IMREAD_COLOR)
        if img is None:
            raise RuntimeError("Decode: image decode failed: the data is not a JPEG, PNG, "
                               "BMP or TIFF image (or it is damaged).")
        return c.cvtColor(img, c.COLOR_BGR2RGB)


class Resize(TensorOperation):
    """Resize to (height, width), or the shorter side to ``size`` keeping the aspect."""

    def __init__(self, size, interpolation: Inter = Inter.LINEAR):
        self.size = size if isinstance(size, numbers.Integral) else _size_pair(size)
        if isinstance(size, numbers.Integral):
            _size_pair(size)
        self.interpolation = Inter(interpolation)

    def _target(self, h: int, w: int) -> tuple[int, int]:
        if not isinstance(self.size, numbers.Integral):
            return self.size
        s = int(self.size)
        return (s, int(w * s / h)) if h <= w else (int(h * s / w), s)

    def _apply(self, img):
        if is_pil(img):
            h, w = self._target(img.height, img.width)
            return img.resize((w, h), pil_interpolation(self.interpolation))
        img = _image(img, "Resize")
        return _resized(img, self._target(*img.shape[:2]), self.interpolation)


class CenterCrop(TensorOperation):
    """The central (height, width) region, zero-padded when the image is smaller."""

    def __init__(self, size):
        self.size = _size_pair(size)

    def _apply(self, img):
        if is_pil(img):
            ch, cw = self.size
            left, top = (img.width - cw) // 2, (img.height - ch) // 2
            return img.crop((left, top, left + cw, top + ch))
        img = _image(img, "CenterCrop")
        ch, cw = self.size
        h, w = img.shape[:2]
        ph, pw = max(0, ch - h), max(0, cw - w)
        img = _padded(img, ph // 2, ph - ph // 2, pw // 2, pw - pw // 2, 0, Border.CONSTANT)
        h, w = img.shape[:2]
        top, left = (h - ch) // 2, (w - cw) // 2
        return img[top:top + ch, left:left + cw]


class Pad(TensorOperation):
    """Pad the borders: an int, (left/right, top/bottom) or (left, top, right, bottom)."""

    def __init__(self, padding, fill_value=0, padding_mode: Border = Border.CONSTANT):
        self.padding = _padding4(padding)
        self.fill_value = fill_value
        self.padding_mode = Border(padding_mode)

    def _apply(self, img):
        left, top, right, bottom = self.padding
        if is_pil(img):
            return padded(img, left, top, right, bottom, self.fill_value, self.padding_mode)
        return _padded(_image(img, "Pad"), top, bottom, left, right, self.fill_value,
                       self.padding_mode)


class RandomCrop(TensorOperation):
    """A random (height, width) crop, after optional ``padding`` (and ``pad_if_needed``)."""

    random = True

    def __init__(self, size, padding=None, pad_if_needed: bool = False, fill_value=0,
                 padding_mode: Border = Border.CONSTANT):
        self.size = _size_pair(size)
        self.padding = None if padding is None else _padding4(padding)
        self.pad_if_needed = pad_if_needed
        self.fill_value = fill_value
        self.padding_mode = Border(padding_mode)

    def _apply(self, img):
        img = _image(img, "RandomCrop")
        pad = lambda im, t, b, l, r: _padded(im, t, b, l, r, self.fill_value,
                                             self.padding_mode)
        if self.padding is not None:
            left, top, right, bottom = self.padding
            img = pad(img, top, bottom, left, right)
        ch, cw = self.size
        h, w = img.shape[:2]
        if (h, w) == (ch, cw):  # nothing to choose: MindSpore draws nothing either
            return img
        if self.pad_if_needed and (h < ch or w < cw):  # MindSpore pads the shortfall on
            dh, dw = max(0, ch - h), max(0, cw - w)  # both sides
            img = pad(img, dh, dh, dw, dw)
            h, w = img.shape[:2]
        if h < ch or w < cw:
            raise RuntimeError(f"RandomCrop: invalid crop size, crop size is bigger than the "
                               f"image dimensions, got crop height: {ch}, crop width: {cw}")
        rng = draws(self)
        left = rng.uniform_int(0, w - cw)
        top = rng.uniform_int(0, h - ch)
        return img[top:top + ch, left:left + cw]


def _round(x: float) -> int:
    """``std::round``: halves away from zero."""
    return int(math.floor(abs(x) + 0.5)) * (1 if x >= 0 else -1)


def _random_resized_box(h: int, w: int, scale, ratio, attempts: int, rng) -> tuple:
    """(top, left, height, width) of a crop with random area fraction and aspect ratio,
    drawn as MindSpore's ``RandomCropAndResizeOp::GetCropBox``: float scale and log-aspect
    draws, the width rounded from the area, the height from the width, then x before y."""
    f32 = np.float32
    scale = (f32(scale[0]), f32(scale[1]))
    aspect_lb, aspect_ub = float(f32(ratio[0])), float(f32(ratio[1]))
    log_ratio = (f32(math.log(aspect_lb)), f32(math.log(aspect_ub)))
    for _ in range(attempts):
        sample_scale = float(rng.uniform_float(*scale))
        sample_aspect = math.exp(float(rng.uniform_float(*log_ratio)))
        cw = max(_round(math.sqrt(h * w * sample_scale * sample_aspect)), 1)
        ch = max(_round(cw / sample_aspect), 1)
        if cw <= w and ch <= h:
            left = rng.uniform_int(0, w - cw)
            return rng.uniform_int(0, h - ch), left, ch, cw
    if w / h < aspect_lb:
        cw, ch = w, _round(w / aspect_lb)
    elif w / h > aspect_ub:
        ch, cw = h, _round(h * aspect_ub)
    else:
        ch, cw = h, w
    ch, cw = max(ch, 1), max(cw, 1)
    return _round((h - ch) / 2.0), _round((w - cw) / 2.0), ch, cw


class RandomResizedCrop(TensorOperation):
    """A crop of random area fraction (``scale``) and aspect (``ratio``), resized."""

    random = True

    def __init__(self, size, scale=(0.08, 1.0), ratio=(3.0 / 4.0, 4.0 / 3.0),
                 interpolation: Inter = Inter.BILINEAR, max_attempts: int = 10):
        self.size = _size_pair(size)
        if not (0 <= scale[0] <= scale[1]) or not (0 < ratio[0] <= ratio[1]):
            raise ValueError("scale and ratio should be increasing (min, max) pairs, ratio "
                             "positive.")
        self.scale, self.ratio = tuple(scale), tuple(ratio)
        self.interpolation = Inter(interpolation)
        self.max_attempts = max_attempts

    def _apply(self, img):
        img = _image(img, self.op_name)
        top, left, ch, cw = _random_resized_box(*img.shape[:2], self.scale, self.ratio,
                                                self.max_attempts, draws(self))
        return _resized(np.ascontiguousarray(img[top:top + ch, left:left + cw]), self.size,
                        self.interpolation)


class RandomCropDecodeResize(RandomResizedCrop):
    """Decode, then :class:`RandomResizedCrop`."""

    def _apply(self, data):
        return super()._apply(Decode()(data))


class _RandomFlip(TensorOperation):
    random = True
    axis = 1

    def __init__(self, prob: float = 0.5):
        self.prob = check_prob(prob)

    def _apply(self, img):
        if is_pil(img):  # MindSpore's Python implementation, on Python's random module
            if not self.prob > random.random():
                return img
            image = pil_image()
            return img.transpose(image.FLIP_LEFT_RIGHT if self.axis == 1
                                 else image.FLIP_TOP_BOTTOM)
        if not draws(self).bernoulli(float(np.float32(self.prob))):  # a C++ float
            return img
        return np.flip(_image(img, self.op_name), self.axis).copy()


class RandomHorizontalFlip(_RandomFlip):
    """Mirror left-right with probability ``prob``."""


class RandomVerticalFlip(_RandomFlip):
    """Mirror top-bottom with probability ``prob``."""

    axis = 0


class Rescale(TensorOperation):
    """``image * rescale + shift`` as float32."""

    def __init__(self, rescale: float, shift: float):
        self.rescale = float(rescale)
        self.shift = float(shift)

    def _apply(self, img):
        out = np.asarray(img, dtype=np.float32) * np.float32(self.rescale)
        if self.shift:
            out += np.float32(self.shift)
        return out


class Normalize(TensorOperation):
    """``(image - mean) / std`` per channel, as float32 (channels last unless not
    ``is_hwc``)."""

    def __init__(self, mean, std, is_hwc: bool = True):
        mean = np.asarray(mean, dtype=np.float32).reshape(-1)
        std = np.asarray(std, dtype=np.float32).reshape(-1)
        if mean.size != std.size or mean.size not in (1, 3, 4) or (std <= 0).any():
            raise ValueError("mean and std should have the same length (1 or 3 channels) "
                             "and std should be positive.")
        shape = (-1,) if is_hwc else (-1, 1, 1)
        self.mean = mean.reshape(shape)
        self.std = std.reshape(shape)
        self.is_hwc = is_hwc
        self._tiled: tuple = (None, None, None)

    def _full(self, shape: tuple) -> tuple[np.ndarray, np.ndarray]:
        """Mean and std tiled to ``shape``: contiguous operands keep NumPy's loops long
        (broadcasting a 3-vector runs an inner loop of 3 per pixel, ~10x slower)."""
        if self._tiled[0] != shape:
            self._tiled = (shape, np.ascontiguousarray(np.broadcast_to(self.mean, shape)),
                           np.ascontiguousarray(np.broadcast_to(self.std, shape)))
        return self._tiled[1], self._tiled[2]

    def _apply(self, img):
        img = np.asarray(img)
        if img.ndim == 2:
            return (img.astype(np.float32) - self.mean.ravel()[0]) / self.std.ravel()[0]
        mean, std = self._full(img.shape)
        out = np.subtract(img, mean, dtype=np.float32)
        return np.divide(out, std, out=out)


class HWC2CHW(TensorOperation):
    """Channels last to channels first."""

    def _apply(self, img):
        img = np.asarray(img)
        if img.ndim == 2:
            return img[None]
        if img.ndim != 3:
            raise RuntimeError(f"HWC2CHW: the image should be <H, W> or <H, W, C>, got shape "
                               f"{list(img.shape)}.")
        return np.ascontiguousarray(img.transpose(2, 0, 1))


class ToTensor(TensorOperation):
    """An HWC image (array or PIL) to CHW ``output_type`` scaled to [0, 1]."""

    def __init__(self, output_type=np.float32):
        self.output_type = np.dtype(getattr(output_type, "np_dtype", output_type))

    def _apply(self, img):
        img = np.asarray(img)
        if img.ndim == 2:
            img = img[..., None]
        # MindSpore multiplies by the float 1/255 (not a division: they differ in the last bit)
        scaled = img.transpose(2, 0, 1).astype(np.float32) * np.float32(1 / 255)
        return scaled.astype(self.output_type)


class ToPIL(TensorOperation):
    """An HWC uint8 array to a PIL image."""

    def _apply(self, img):
        return img if is_pil(img) else pil_image().fromarray(np.asarray(img))


def _factor_range(value, name: str, center: float, bound: float | None) -> tuple:
    if isinstance(value, numbers.Number):
        if value < 0:
            raise ValueError(f"Input {name} should be non-negative.")
        lo, hi = center - value, center + value
        lo = max(lo, 0.0) if center else lo
    else:
        lo, hi = float(value[0]), float(value[1])
    if lo > hi or (bound is not None and (lo < -bound or hi > bound)):
        raise ValueError(f"Input {name} should be an increasing range within bounds.")
    return lo, hi


def _blend(img: np.ndarray, other, factor: float) -> np.ndarray:
    """``img * factor + other * (1 - factor)`` rounded to uint8 as MindSpore's OpenCV
    computes it: float32 weights (the second from the float32 first), ``img * factor``
    rounded to float32, then one fused multiply-add of ``other`` (exact products in
    float64, one rounding to float32)."""
    weight = np.float32(factor)
    scaled = img.astype(np.float32) * weight
    other = np.asarray(other, dtype=np.float32).astype(np.float64)
    # both terms in float64 under NumPy 1 too (whose value-based casting would add a 0-d
    # float64 to the float32 image in float32)
    out = (other * np.float64(np.float32(1 - np.float64(weight))) +
           scaled.astype(np.float64)).astype(np.float32)
    return np.clip(np.rint(out), 0, 255).astype(np.uint8)


def _gray(img: np.ndarray) -> np.ndarray:
    return cv2().cvtColor(img, cv2().COLOR_RGB2GRAY)


class RandomColorAdjust(TensorOperation):
    """Random brightness, contrast, saturation and hue of an RGB uint8 image."""

    random = True

    def __init__(self, brightness=(1, 1), contrast=(1, 1), saturation=(1, 1), hue=(0, 0)):
        self.brightness = _factor_range(brightness, "brightness", 1.0, None)
        self.contrast = _factor_range(contrast, "contrast", 1.0, None)
        self.saturation = _factor_range(saturation, "saturation", 1.0, None)
        self.hue = _factor_range(hue, "hue", 0.0, 0.5)

    def _apply(self, img):
        img = np.asarray(img)
        if img.ndim != 3 or img.shape[2] != 3:
            raise RuntimeError(f"RandomColorAdjust: the image should be <H, W, 3> RGB, got "
                               f"shape {list(img.shape)}.")
        rng = draws(self)
        img = img.astype(np.uint8, copy=False)
        order = ["brightness", "contrast", "saturation", "hue"]
        rng.shuffle(order)  # MindSpore applies the four adjustments in a random order
        for name in order:
            lo, hi = getattr(self, name)
            if lo == hi == (0.0 if name == "hue" else 1.0):
                continue  # an identity range: MindSpore draws nothing for it
            img = _ADJUST[name](img, float(rng.uniform_float(lo, hi)))
        return img


def _adjust_hue(img: np.ndarray, h: float) -> np.ndarray:
    hsv = cv2().cvtColor(img, cv2().COLOR_RGB2HSV_FULL)
    hsv[..., 0] = (hsv[..., 0].astype(np.int32) + int(h * 255)) % 256
    return cv2().cvtColor(hsv, cv2().COLOR_HSV2RGB_FULL)


_ADJUST = {
    "brightness": lambda img, b: _blend(img, 0.0, b),
    "contrast": lambda img, c: _blend(img, np.float32(int(_gray(img).mean() + 0.5)), c),
    "saturation": lambda img, s: _blend(img, _gray(img).astype(np.float32)[..., None], s),
    "hue": _adjust_hue,
}


def _centered(rng, lo: float, hi: float) -> float:
    """MindSpore's draw of a value in [lo, hi) for rotations and sharpness: the middle
    plus a float in [-1, 1) times half the range, in float arithmetic."""
    lo, hi, two = np.float32(lo), np.float32(hi), np.float32(2)
    return float((hi + lo) / two + rng.uniform_float(-1, 1) * ((hi - lo) / two))


class RandomRotation(TensorOperation):
    """Rotate by a random angle from ``degrees`` (counter-clockwise, around ``center``)."""

    random = True

    def __init__(self, degrees, resample: Inter = Inter.NEAREST, expand: bool = False,
                 center=None, fill_value=0):
        if isinstance(degrees, numbers.Number):
            if degrees < 0:
                raise ValueError("Input degrees should be non-negative.")
            degrees = (-degrees, degrees)
        self.degrees = (float(degrees[0]), float(degrees[1]))
        self.resample = Inter(resample)
        self.expand = expand
        self.center = center
        self.fill_value = fill_value

    def _apply(self, img):
        img = _image(img, "RandomRotation")
        angle = _centered(draws(self), *self.degrees)
        return rotated(img, angle, self.resample, self.expand, self.center, self.fill_value)


def rotated(img: np.ndarray, angle: float, resample: Inter, expand: bool, center,
            fill_value) -> np.ndarray:
    """``img`` rotated counter-clockwise by ``angle`` degrees around ``center`` (the
    middle by default), as MindSpore's rotation does."""
    h, w = img.shape[:2]
    center = center if center is not None else ((w - 1) / 2, (h - 1) / 2)
    c = cv2()
    m = c.getRotationMatrix2D(tuple(map(float, center)), angle, 1.0)
    out_w, out_h = w, h
    if expand:  # the rotated image's bounding box, in OpenCV's float32 corners
        corners = c.boxPoints(((0.0, 0.0), (float(w), float(h)), angle))
        box_w, box_h = np.ptp(corners[:, 0]), np.ptp(corners[:, 1])
        out_w, out_h = int(np.rint(box_w)), int(np.rint(box_h))
        m[0, 2] += box_w / 2 - w / 2
        m[1, 2] += box_h / 2 - h / 2
    # MindSpore fills rotations with the fill value's channels reversed (BGR order)
    return warp_affine(img, m, Inter(resample), _fill3(fill_value)[::-1], (out_h, out_w))


def _affine_matrix(h: int, w: int, degrees: float, shift: tuple, scale: float,
                   shear: tuple) -> np.ndarray:
    """MindSpore's forward 2x3 matrix (float32, as it computes it): rotate by ``degrees``
    (clockwise in image coordinates), scale, shear by ``shear`` = (x, y) degrees about the
    image center ((w - 1) / 2, (h - 1) / 2), then shift by ``shift`` pixels."""
    a = math.radians(degrees)
    sx, sy = math.radians(shear[0]), math.radians(-shear[1])
    if math.cos(sy) == 0:
        raise RuntimeError("AffineOp: cos(shear_y) should not be zero.")
    f32 = np.float32
    m = [f32(scale * math.cos(a + sy) / math.cos(sy)),
         f32(scale * (-math.cos(a + sy) * math.tan(sx) / math.cos(sy) - math.sin(a))),
         f32(scale * math.sin(a + sy) / math.cos(sy)),
         f32(scale * (-math.sin(a + sy) * math.tan(sx) / math.cos(sy) + math.cos(a)))]
    cx, cy = f32((w - 1) / 2.0), f32((h - 1) / 2.0)
    tx = (f32(1) - m[0]) * cx - m[1] * cy + f32(shift[0])
    ty = (f32(1) - m[3]) * cy - m[2] * cx + f32(shift[1])
    return np.array([[m[0], m[1], tx], [m[2], m[3], ty]], dtype=np.float32)


def _fill3(fill_value) -> list:
    return list(fill_value) if isinstance(fill_value, (tuple, list)) else [fill_value] * 3


def _check_fill(fill_value) -> None:
    values = fill_value if isinstance(fill_value, (tuple, list)) else (fill_value,)
    if len(values) not in (1, 3) or not all(
            isinstance(v, numbers.Integral) and 0 <= v <= 255 for v in values):
        raise ValueError(f"Input fill_value should be an int or a 3-tuple of int within "
                         f"[0, 255], got {fill_value!r}.")


class Affine(TensorOperation):
    """Rotate (``degrees``, clockwise), shift (``translate`` as fractions of the width and
    height), scale and shear (``shear`` x degrees, or (x, y)) about the image center."""

    def __init__(self, degrees: float, translate, scale: float, shear, resample=Inter.NEAREST,
                 fill_value=0):
        if not isinstance(degrees, numbers.Real) or not -180 <= degrees <= 180:
            raise ValueError(f"Input degrees is not within the required interval of "
                             f"[-180, 180], got {degrees!r}.")
        if (not isinstance(translate, (tuple, list)) or len(translate) != 2
                or not all(-1 <= t <= 1 for t in translate)):
            raise TypeError("translate should be a sequence of two numbers within [-1, 1].")
        if not isinstance(scale, numbers.Real) or scale <= 0:
            raise ValueError(f"Input scale must be greater than 0, got {scale!r}.")
        shear = (shear, 0.0) if isinstance(shear, numbers.Real) else tuple(shear)
        if len(shear) != 2 or not all(-180 <= v <= 180 for v in shear):
            raise ValueError("Input shear should be a number or a pair within [-180, 180].")
        _check_fill(fill_value)
        self.degrees, self.translate, self.scale = float(degrees), tuple(translate), scale
        self.shear, self.resample, self.fill_value = shear, Inter(resample), fill_value

    def _apply(self, img):
        img = _image(img, "Affine")
        h, w = img.shape[:2]
        shift = (f := np.float32)(self.translate[0]) * f(w), f(self.translate[1]) * f(h)
        return warp_affine(img, _affine_matrix(h, w, self.degrees, shift, self.scale, self.shear),
                           self.resample, _fill3(self.fill_value))


def _signed_range(value, name: str) -> tuple[float, float]:
    """A number ``v`` as (-v, v) (v >= 0), or an increasing pair."""
    if isinstance(value, numbers.Real):
        if value < 0:
            raise ValueError(f"Input {name} is not within the required interval of "
                             f"[0, 16777216].")
        return -float(value), float(value)
    if not isinstance(value, (tuple, list)) or len(value) != 2:
        raise TypeError(f"If {name} is a sequence, the length must be 2.")
    if value[0] > value[1]:
        raise ValueError(f"{name} should be in (min,max) format. Got (max,min).")
    return float(value[0]), float(value[1])


class RandomAffine(TensorOperation):
    """``Affine`` with parameters drawn uniformly from ranges: ``degrees``, ``translate``
    (x range, or x and y ranges, fractions of the size), ``scale`` and ``shear`` (x range,
    or x and y ranges, degrees)."""

    random = True

    def __init__(self, degrees, translate=None, scale=None, shear=None, resample=Inter.NEAREST,
                 fill_value=0):
        self.degrees = _signed_range(degrees, "degrees")
        translate = (0.0, 0.0, 0.0, 0.0) if translate is None else tuple(translate)
        if len(translate) not in (2, 4):
            raise TypeError("translate should be a list or tuple of length 2 or 4.")
        if not all(-1 <= t <= 1 for t in translate):
            raise ValueError("Input translate is not within the required interval of "
                             "[-1.0, 1.0].")
        self.translate = translate if len(translate) == 4 else (*translate, 0.0, 0.0)
        scale = (1.0, 1.0) if scale is None else tuple(scale)
        if len(scale) != 2:
            raise TypeError("scale should be a list or tuple of length 2.")
        if scale[0] > scale[1] or scale[0] < 0 or scale[1] <= 0:
            raise ValueError("Input scale[1] must be equal to or greater than scale[0], and "
                             "both non-negative with scale[1] > 0.")
        self.scale = scale
        if shear is None:
            shear = (0.0, 0.0, 0.0, 0.0)
        elif isinstance(shear, numbers.Real):
            if shear <= 0:
                raise ValueError("Input shear must be greater than 0.")
            shear = (-shear, shear, 0.0, 0.0)
        elif len(shear) == 2:
            shear = (*_signed_range(tuple(shear), "shear"), 0.0, 0.0)
        elif len(shear) == 4:
            if shear[0] > shear[1] or shear[2] > shear[3]:
                raise ValueError("Input shear[1] must be equal to or greater than shear[0] and "
                                 "shear[3] must be equal to or greater than shear[2].")
        else:
            raise TypeError("shear must be of length 2 or 4.")
        self.shear = tuple(float(v) for v in shear)
        _check_fill(fill_value)
        self.resample, self.fill_value = Inter(resample), fill_value

    def _apply(self, img):
        img = _image(img, "RandomAffine")
        h, w = img.shape[:2]
        rng = draws(self)
        t = [np.float32(v) for v in self.translate]  # MindSpore's float parameters
        w32, h32 = np.float32(w), np.float32(h)
        degrees = math.fmod(float(rng.uniform_float(*self.degrees)), 360.0)
        shift = (float(rng.uniform_float(t[0] * w32, t[1] * w32)),
                 float(rng.uniform_float(t[2] * h32, t[3] * h32)))
        scale = float(rng.uniform_float(*self.scale))
        shear = (float(rng.uniform_float(*self.shear[:2])),
                 float(rng.uniform_float(*self.shear[2:])))
        return warp_affine(img, _affine_matrix(h, w, degrees, shift, scale, shear), self.resample,
                           _fill3(self.fill_value))


def _uint8_image(img, op: str) -> np.ndarray:
    img = np.asarray(img)
    if img.dtype != np.uint8 or img.ndim not in (2, 3):
        raise RuntimeError(f"{op}: the image should be uint8 <H, W> or <H, W, C>, got "
                           f"{img.dtype} of shape {list(img.shape)}.")
    return img


def _per_channel(img: np.ndarray, fn) -> np.ndarray:
    if img.ndim == 2:
        return fn(img)
    return np.stack([fn(np.ascontiguousarray(img[..., c])) for c in range(img.shape[2])], -1)


def _int_range(value, name: str, low: int, high: int) -> tuple[int, int]:
    pair = (value, value) if isinstance(value, numbers.Integral) else tuple(value)
    if len(pair) != 2 or not low <= pair[0] <= pair[1] <= high:
        raise ValueError(f"Input {name} should be an increasing pair within [{low}, {high}], "
                         f"got {value!r}.")
    return int(pair[0]), int(pair[1])


class Invert(TensorOperation):
    """``255 - image``."""

    def _apply(self, img):
        if is_pil(img):
            return image_ops("invert", img)
        return 255 - _uint8_image(img, "Invert")


class Equalize(TensorOperation):
    """Histogram equalization of each channel (OpenCV's, as MindSpore's)."""

    def _apply(self, img):
        if is_pil(img):
            return image_ops("equalize", img)
        return _per_channel(_uint8_image(img, "Equalize"), cv2().equalizeHist)


class AutoContrast(TensorOperation):
    """Stretch each channel to [0, 255], ignoring ``cutoff`` percent of the darkest and
    lightest pixels and the ``ignore`` values (Pillow's rule, with MindSpore's float32
    table)."""

    def __init__(self, cutoff: float = 0.0, ignore=None):
        if not 0 <= cutoff < 50:
            raise ValueError("Input cutoff is not within the required interval of [0, 50).")
        self.cutoff = cutoff
        self.ignore = [] if ignore is None else (
            [ignore] if isinstance(ignore, numbers.Integral) else list(ignore))

    def _apply(self, img):
        if is_pil(img):
            return image_ops("autocontrast", img, self.cutoff, self.ignore)
        img = _uint8_image(img, "AutoContrast")
        return _per_channel(img, lambda plane: self._table(plane)[plane])

    def _table(self, plane: np.ndarray) -> np.ndarray:
        hist = np.bincount(plane.ravel(), minlength=256).astype(np.int64)
        hist[self.ignore] = 0
        lo, hi = _cut_bounds(hist, self.cutoff)
        if hi <= lo:
            return np.arange(256, dtype=np.uint8)
        scale = np.float32(255) / np.float32(hi - lo)
        offset = np.float32(-lo) * scale
        levels = np.arange(256, dtype=np.float32) * scale + offset
        return np.clip(levels.astype(np.int32), 0, 255).astype(np.uint8)


def _cut_bounds(hist: np.ndarray, cutoff: float) -> tuple[int, int]:
    """The lowest and highest levels left after cutting ``cutoff`` percent of the pixels
    from each end of the histogram (Pillow's rule; (255, 0) for an empty one)."""
    hist = hist.copy()
    cut = int(hist.sum() * cutoff // 100)
    for order in (range(256), range(255, -1, -1)):
        left = cut
        for level in order:
            if left <= 0:
                break
            taken = min(left, hist[level])
            hist[level] -= taken
            left -= taken
    nonzero = np.flatnonzero(hist)
    return (int(nonzero[0]), int(nonzero[-1])) if nonzero.size else (255, 0)


class RandomSolarize(TensorOperation):
    """Invert the pixels within a [low, high] range whose two ends are drawn from
    ``threshold`` (MindSpore draws two values and sorts them; equal ends invert every pixel
    from there up)."""

    random = True

    def __init__(self, threshold=(0, 255)):
        self.threshold = _int_range(threshold, "threshold", 0, 255)

    def _apply(self, img):
        img = _uint8_image(img, "RandomSolarize")
        rng = draws(self)
        low, high = sorted(rng.uniform_int(*self.threshold) for _ in range(2))
        # MindSpore's SolarizeOp: one threshold inverts from it up, a range inverts within
        inside = img >= low if low == high else (img >= low) & (img <= high)
        return np.where(inside, 255 - img, img).astype(np.uint8)


class RandomPosterize(TensorOperation):
    """Keep the top bits (a count drawn from ``bits``) of each pixel."""

    random = True

    def __init__(self, bits=(8, 8)):
        self.bits = _int_range(bits, "bits", 1, 8)

    def _apply(self, img):
        img = _uint8_image(img, "RandomPosterize")
        lo, hi = self.bits
        b = lo if lo == hi else draws(self).uniform_int(lo, hi)  # MindSpore draws nothing then
        return img & np.uint8((0xFF << (8 - b)) & 0xFF)


def _degree_range(degrees) -> tuple[float, float]:
    lo, hi = (float(degrees[0]), float(degrees[1]))
    if not 0 <= lo <= hi:
        raise ValueError("Input degrees should be an increasing non-negative pair.")
    return lo, hi


class RandomColor(TensorOperation):
    """Blend an RGB image with its gray version by a factor drawn from ``degrees``."""

    random = True

    def __init__(self, degrees=(0.1, 1.9)):
        self.degrees = _degree_range(degrees)

    def _apply(self, img):
        img = _uint8_image(img, "RandomColor")
        factor = float(draws(self).uniform_float(*self.degrees))
        eps = 0.00195  # MindSpore: half a level of an 8-bit image
        if abs(factor - 1.0) < eps:
            return img
        gray = np.repeat(_gray(img)[..., None], 3, axis=2)
        if abs(factor) < eps:
            return gray
        return _blend(img, gray.astype(np.float32), factor)


class RandomSharpness(TensorOperation):
    """Blend with a smoothed copy (3x3 kernel, borders kept) by a factor from ``degrees``:
    below 1 blurs, above 1 sharpens."""

    random = True

    def __init__(self, degrees=(0.1, 1.9)):
        self.degrees = _degree_range(degrees)

    def _apply(self, img):
        img = _uint8_image(img, "RandomSharpness")
        return sharpened(img, _centered(draws(self), *self.degrees))


_SMOOTH = np.array([[1, 1, 1], [1, 5, 1], [1, 1, 1]], np.float32) / 13


def sharpened(img: np.ndarray, factor: float) -> np.ndarray:
    """``img`` blended with a smoothed copy (3x3 kernel, borders kept) by ``factor``:
    below 1 blurs, above 1 sharpens."""
    smooth = img.copy()
    blurred = cv2().filter2D(img, -1, _SMOOTH).reshape(img.shape)
    smooth[1:-1, 1:-1] = blurred[1:-1, 1:-1]
    return _blend(img, smooth.astype(np.float32), factor)


class CutOut(TensorOperation):
    """Zero ``num_patches`` random ``length`` x ``length`` squares, which may reach past the
    edges (MindSpore draws each corner in ``[-length, size]``, rows first)."""

    random = True

    def __init__(self, length: int, num_patches: int = 1, is_hwc: bool = True):
        if length <= 0 or num_patches <= 0:
            raise ValueError("length and num_patches should be positive.")
        self.length, self.num_patches, self.is_hwc = length, num_patches, is_hwc

    def _apply(self, img):
        img = np.array(img)
        h, w = img.shape[:2] if self.is_hwc or img.ndim == 2 else img.shape[1:3]
        if self.length > h or self.length > w:
            raise RuntimeError(f"CutOut: box size is too large for image erase, got box "
                               f"length: {self.length}, image size: {[h, w]}.")
        rng = draws(self)
        for _ in range(self.num_patches):
            top = rng.uniform_int(0, h + self.length) - self.length
            left = rng.uniform_int(0, w + self.length) - self.length
            rows = slice(max(top, 0), max(top + self.length, 0))
            cols = slice(max(left, 0), max(left + self.length, 0))
            if self.is_hwc or img.ndim == 2:
                img[rows, cols] = 0
            else:
                img[:, rows, cols] = 0
        return img


class RandomSelectSubpolicy(TensorOperation):
    """Pick one sub-policy (a list of ``(operation, probability)``) and apply its
    operations, each with its probability."""

    random = True

    def __init__(self, policy):
        if not policy or not all(isinstance(sub, (list, tuple)) and sub for sub in policy):
            raise ValueError("policy should be a non-empty list of non-empty sub-policies.")
        for sub in policy:
            for op, prob in sub:
                if not callable(op):
                    raise TypeError(f"{op!r} in the policy is not callable.")
                check_prob(prob)
        self.policy = [list(sub) for sub in policy]

    def __call__(self, *args):
        rng = draws(self)
        for op, prob in self.policy[rng.uniform_int(0, len(self.policy) - 1)]:
            if rng.uniform_double(0.0, 1.0) <= prob:
                out = op(*args)
                args = out if isinstance(out, tuple) else (out,)
        return args[0] if len(args) == 1 else args
