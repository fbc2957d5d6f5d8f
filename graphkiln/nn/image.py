"""Image cells of MindSpore's ``nn.layer.image``: ``ImageGradients``, ``CentralCrop``,
``PSNR``, ``SSIM`` and ``MSSSIM`` (NCHW images; integer images are scaled to [0, 1] by their
dtype's maximum, as MindSpore's)."""
from __future__ import annotations

import numpy as np

import graphkiln.ops as ops

from ..common import dtype as mstype
from ..common.tensor import Tensor
from .cell import Cell
from .pooling import AvgPool2d
from .shuffle import PixelShuffle, PixelUnshuffle  # noqa: F401  (nn.layer.image's too)


def _check_4d(owner: str, arg: str, x) -> None:
    if x.ndim != 4:
        raise ValueError(f"For '{owner}', the dimension of '{arg}' must be 4d, but got "
                         f"{x.ndim}.")


def _check_same(owner: str, img1, img2) -> None:
    if img1.dtype != img2.dtype:
        raise TypeError(f"For '{owner}', the 'img2' must have the dtype of 'img1' "
                        f"({img1.dtype}), but got {img2.dtype}.")
    if tuple(img1.shape) != tuple(img2.shape):
        raise ValueError(f"For '{owner}', the 'img2' must have the shape of 'img1' "
                         f"({tuple(img1.shape)}), but got {tuple(img2.shape)}.")


def _check_max_val(owner: str, max_val) -> float:
    if isinstance(max_val, bool) or not isinstance(max_val, (int, float)):
        raise TypeError(f"For '{owner}', the 'max_val' must be int or float, but got "
                        f"{type(max_val).__name__}.")
    if max_val <= 0:
        raise ValueError(f"For '{owner}', the 'max_val' must be greater than 0, but got "
                         f"{max_val}.")
    return max_val


def _to_unit_float(img, max_val: float):
    """``img`` as float32; divided by ``max_val`` when that exceeds 1."""
    img = ops.cast(img, mstype.float32)
    return ops.mul(img, 1.0 / max_val) if max_val > 1.0 else img


def _dtype_max(dtype) -> float:
    np_type = mstype.dtype_to_nptype(dtype)
    return float(np.iinfo(np_type).max) if np.issubdtype(np_type, np.integer) else 1.0


def _scaled(owner: str, max_val, img1, img2) -> tuple:
    """``(max_val, img1, img2)`` brought to float32 on the images' dtype scale."""
    _check_same(owner, img1, img2)
    top = _dtype_max(img1.dtype)
    scaled_max = max_val / top if top > 1.0 else float(max_val)
    return scaled_max, _to_unit_float(img1, top), _to_unit_float(img2, top)


class ImageGradients(Cell):
    """``(dy, dx)``: forward differences of an NCHW image along H and W, zero in the last
    row/column."""

    def construct(self, images):
        _check_4d("ImageGradients", "images", images)
        n, c, h, w = images.shape
        dy = ops.fill(images.dtype, (n, c, 1, w), 0)
        if h > 1:
            dy = ops.concat((ops.sub(images[:, :, 1:, :], images[:, :, :h - 1, :]), dy), 2)
        dx = ops.fill(images.dtype, (n, c, h, 1), 0)
        if w > 1:
            dx = ops.concat((ops.sub(images[:, :, :, 1:], images[:, :, :, :w - 1]), dx), 3)
        return dy, dx


class CentralCrop(Cell):
    """The central ``central_fraction`` of the H and W axes of a CHW or NCHW image."""

    def __init__(self, central_fraction: float):
        super().__init__()
        if not isinstance(central_fraction, float):
            raise TypeError(f"For 'CentralCrop', the 'central_fraction' must be float, but got "
                            f"{type(central_fraction).__name__}.")
        if not 0.0 < central_fraction <= 1.0:
            raise ValueError(f"For 'CentralCrop', the 'central_fraction' must be in range of "
                             f"(0.0, 1.0], but got {central_fraction}.")
        self.central_fraction = central_fraction

    def construct(self, image):
        if image.ndim not in (3, 4):
            raise ValueError(f"CentralCrop image must be 3d or 4d, but got shape "
                             f"{tuple(image.shape)}")
        if self.central_fraction == 1.0:
            return image
        h, w = image.shape[-2:]
        top = int((float(h) - float(h * self.central_fraction)) / 2)
        left = int((float(w) - float(w * self.central_fraction)) / 2)
        return image[..., top:h - top, left:w - left]


class PSNR(Cell):
    """Peak signal-to-noise ratio per image: ``10 log10(max_val^2 / mse)``."""

    def __init__(self, max_val=1.0):
        super().__init__()
        self.max_val = _check_max_val("PSNR", max_val)

    def construct(self, img1, img2):
        _check_4d("PSNR", "img1", img1)
        _check_4d("PSNR", "img2", img2)
        max_val, img1, img2 = _scaled("PSNR", self.max_val, img1, img2)
        mse = ops.reduce_mean(ops.square(ops.sub(img1, img2)), (-3, -2, -1))
        return ops.mul(ops.log(ops.div(max_val * max_val, mse)), 10.0 / float(np.log(10.0)))


def _gaussian_window(size: int, sigma: float) -> np.ndarray:
    """The normalised ``size x size`` Gaussian window, shaped as a (1, 1, k, k) kernel."""
    pos = np.arange(-size // 2 + 1, size // 2 + 1, dtype=np.float32)
    g = np.exp(-(pos[:, None] ** 2 + pos[None, :] ** 2) / (2 * sigma ** 2))
    return (g / g.sum()).astype(np.float32)[None, None]


class _SSIMBase(Cell):
    """Arguments and the per-channel statistics shared by ``SSIM`` and ``MSSSIM``."""

    def __init__(self, max_val, filter_size, filter_sigma, k1, k2):
        super().__init__()
        name = type(self).__name__
        self.max_val = _check_max_val(name, max_val)
        if isinstance(filter_size, bool) or not isinstance(filter_size, int):
            raise TypeError(f"For '{name}', the 'filter_size' must be int, but got "
                            f"{type(filter_size).__name__}.")
        if filter_size < 1:
            raise ValueError(f"For '{name}', the 'filter_size' must be >= 1, but got "
                             f"{filter_size}.")
        if isinstance(filter_sigma, bool) or not isinstance(filter_sigma, float) or \
                filter_sigma <= 0:
            raise (TypeError if not isinstance(filter_sigma, float) else ValueError)(
                f"For '{name}', the 'filter_sigma' must be a positive float, but got "
                f"{filter_sigma!r}.")
        for arg, v in (("k1", k1), ("k2", k2)):
            if not isinstance(v, float):
                raise TypeError(f"For '{name}', the '{arg}' must be float, but got "
                                f"{type(v).__name__}.")
        self.filter_size, self.k1, self.k2 = filter_size, k1, k2
        self.window = Tensor(_gaussian_window(filter_size, filter_sigma))

    def _blur(self, x):
        n, c, h, w = x.shape
        y = ops.conv2d(ops.reshape(x, (n * c, 1, h, w)), self.window)
        return ops.reshape(y, (n, c) + tuple(y.shape[2:]))

    def _ssim_cs(self, max_val: float, img1, img2) -> tuple:
        """Per-image-and-channel mean SSIM and contrast-structure terms, shape (N, C)."""
        c1, c2 = (self.k1 * max_val) ** 2, (self.k2 * max_val) ** 2
        mu1, mu2 = self._blur(img1), self._blur(img2)
        mu1_sq, mu2_sq, mu12 = ops.mul(mu1, mu1), ops.mul(mu2, mu2), ops.mul(mu1, mu2)
        var1 = ops.sub(self._blur(ops.mul(img1, img1)), mu1_sq)
        var2 = ops.sub(self._blur(ops.mul(img2, img2)), mu2_sq)
        cov = ops.sub(self._blur(ops.mul(img1, img2)), mu12)
        v1 = ops.add(ops.mul(cov, 2.0), c2)
        v2 = ops.add(ops.add(var1, var2), c2)
        num = ops.mul(ops.add(ops.mul(mu12, 2.0), c1), v1)
        ssim = ops.div(num, ops.mul(ops.add(ops.add(mu1_sq, mu2_sq), c1), v2))
        cs = ops.div(v1, v2)
        return ops.reduce_mean(ssim, (2, 3)), ops.reduce_mean(cs, (2, 3))


def _check_float_images(owner: str, img, types) -> None:
    if img.dtype not in types:
        raise TypeError(f"For '{owner}', the 'img1' must be one of {[str(t) for t in types]}, "
                        f"but got {img.dtype}.")


class SSIM(_SSIMBase):
    """Structural similarity of two NCHW images with a Gaussian window, per image."""

    def __init__(self, max_val=1.0, filter_size=11, filter_sigma=1.5, k1=0.01, k2=0.03):
        super().__init__(max_val, filter_size, filter_sigma, k1, k2)

    def construct(self, img1, img2):
        _check_float_images("SSIM", img1, (mstype.float32, mstype.float16))
        _check_4d("SSIM", "img1", img1)
        if min(img1.shape[2:]) < self.filter_size:
            raise ValueError(f"For 'SSIM', the height and width of 'img1' must be >= "
                             f"'filter_size' ({self.filter_size}), but got shape "
                             f"{tuple(img1.shape)}.")
        max_val, img1, img2 = _scaled("SSIM", self.max_val, img1, img2)
        ssim, _ = self._ssim_cs(max_val, img1, img2)
        return ops.reduce_mean(ssim, -1)


class MSSSIM(_SSIMBase):
    """Multi-scale SSIM: the contrast-structure terms of the first scales and the SSIM of
    the last, each halved in size by 2x2 average pooling, weighted by ``power_factors``."""

    def __init__(self, max_val=1.0, power_factors=(0.0448, 0.2856, 0.3001, 0.2363, 0.1333),
                 filter_size=11, filter_sigma=1.5, k1=0.01, k2=0.03):
        super().__init__(max_val, filter_size, filter_sigma, k1, k2)
        if not isinstance(power_factors, (tuple, list)):
            raise TypeError(f"For 'MSSSIM', the 'power_factors' must be tuple or list, but got "
                            f"{type(power_factors).__name__}.")
        self.level = len(power_factors)
        self.power_factors = Tensor(np.asarray(power_factors, np.float32))
        self.avg_pool = AvgPool2d(kernel_size=2, stride=2, pad_mode="valid")

    def construct(self, img1, img2):
        _check_4d("MSSSIM", "img1", img1)
        _check_4d("MSSSIM", "img2", img2)
        _check_float_images("MSSSIM", img1, (mstype.float64, mstype.float32, mstype.float16,
                                             mstype.uint8))
        max_val, img1, img2 = _scaled("MSSSIM", self.max_val, img1, img2)
        terms = []
        ssim = None
        for i in range(self.level):
            ssim, cs = self._ssim_cs(max_val, img1, img2)
            if i < self.level - 1:
                terms.append(ops.relu(cs))
                img1, img2 = self.avg_pool(img1), self.avg_pool(img2)
        stacked = ops.stack(tuple(terms) + (ops.relu(ssim),), -1)
        return ops.reduce_mean(ops.reduce_prod(ops.pow(stacked, self.power_factors), -1), -1)
