"""Batch mixing (``mindspore.dataset.vision``'s MixUpBatch, CutMixBatch and the Python
MixUp): images of a batch mixed with a shuffled copy of the batch, and their one-hot labels
mixed by the same weight. The C++ ops draw MindSpore's stream (``std::mt19937`` per op
copy: a shuffle, libstdc++'s float gamma draws for a Beta weight, and CutMix's box and
probability draws); MixUp draws from ``numpy.random``, as MindSpore's Python op does."""
from __future__ import annotations

import math

import numpy as np

from ..randomness import draws
from ..stdrandom import GammaFloat
from ..transforms.transforms import TensorOperation
from .utils import ImageBatchFormat

__all__ = ["ImageBatchFormat", "MixUpBatch", "CutMixBatch", "MixUp"]

_F = np.float32
_FLOAT_MAX_INTEGER = 16777216


def _type_check(value, kinds: tuple, name: str) -> None:
    if (isinstance(value, bool) and bool not in kinds) or not isinstance(value, kinds):
        shown = "[" + ", ".join(repr(k) for k in kinds) + "]"
        raise TypeError(f"Argument {name} with value {value} is not of type {shown}, but got "
                        f"{type(value)}.")


def _check_alpha(alpha, with_name: bool) -> None:
    _type_check(alpha, (int, float), "alpha")
    if alpha <= 0:
        raise ValueError("Input alpha must be greater than 0." if with_name else
                         f"Input is not within the required interval of (0, "
                         f"{_FLOAT_MAX_INTEGER}].")
    if alpha > _FLOAT_MAX_INTEGER:
        raise ValueError(f"Input is not within the required interval of (0, "
                         f"{_FLOAT_MAX_INTEGER}].")


def _numeric_labels(label: np.ndarray, op: str) -> None:
    if label.dtype.kind not in "biuf":
        raise RuntimeError(f"{op}: invalid label type, label must be in a numeric type, but "
                           f"got: {label.dtype}. You may need to perform OneHot first.")


def _mix(first: np.ndarray, second: np.ndarray, weight: np.float32) -> np.ndarray:
    """``weight * first + (1 - weight) * second`` in float32, as MindSpore's label loop."""
    return weight * first + (_F(1) - weight) * second


def _blend_images(img: np.ndarray, other: np.ndarray, weight: np.float32) -> np.ndarray:
    """OpenCV's ``weight * img + (1 - weight) * other`` (``addWeighted``, recorded): on
    uint8 the second product rounded to float32, then one fused multiply-add, rounded to
    the nearest level; on floats in double, rounded once."""
    second = _F(1) - weight
    if img.dtype != np.uint8:
        out = img.astype(np.float64) * float(weight) + other.astype(np.float64) * float(second)
        return out.astype(img.dtype)
    out = img.astype(np.float64) * float(weight) + other.astype(np.float32) * second
    return np.clip(np.rint(out.astype(np.float32)), 0, 255).astype(np.uint8)


def _beta(gamma_a: GammaFloat, gamma_b: GammaFloat, rng) -> np.float32:
    x1, x2 = gamma_a.draw(rng), gamma_b.draw(rng)
    return x1 / (x1 + x2)


def _columns(args: tuple, op: str, message: str) -> tuple[np.ndarray, np.ndarray]:
    if len(args) < 2:
        raise RuntimeError(f"{op}: {message}{len(args)}" + (
            ", check 'input_columns' when call this operator." if op == "MixUpBatch" else ""))
    return np.asarray(args[0]), np.asarray(args[1])


class MixUpBatch(TensorOperation):
    """Mix each image of a batch with a shuffled one by a Beta(alpha, alpha) weight."""

    random = True

    def __init__(self, alpha: float = 1.0):
        _check_alpha(alpha, with_name=True)
        self.alpha = alpha

    def _apply(self, *args):
        images, label = _columns(args, "MixUpBatch", "size of input data should be 2 "
                                 "(including images or labels), but got: ")
        if images.ndim != 4 or label.ndim == 0 or images.shape[0] != label.shape[0]:
            raise RuntimeError(f"MixUpBatch: rank of image shape should be: 4, but got: "
                               f"{images.ndim}, make sure image shape are <H,W,C> or <C,H,W> "
                               f"and batched before calling MixUpBatch.")
        _numeric_labels(label, "MixUpBatch")
        if label.ndim not in (2, 3):
            raise RuntimeError(
                "MixUpBatch: wrong labels shape. The second column (labels) must have a shape "
                "of NC or NLC where N is the batch size, L is the number of labels in each "
                "row, and C is the number of classes. labels must be in one-hot format and in "
                f"a batch, but got rank: {label.ndim}")
        if images.shape[1] not in (1, 3) and images.shape[3] not in (1, 3):
            shape = ",".join(str(d) for d in images.shape)
            raise RuntimeError(f"MixUpBatch: images shape should in <N,H,W,C> or <N,C,H,W>, "
                               f"got shape:<{shape}>")
        rng = draws(self)
        weight = _beta(GammaFloat(self.alpha), GammaFloat(self.alpha), rng)
        index = list(range(len(images)))
        rng.shuffle(index)
        labels = label.astype(np.float32)
        return _blend_images(images, images[index], weight), _mix(labels, labels[index], weight)


def _crop_box(rng, height: int, width: int, lam: np.float32) -> tuple[int, int, int, int]:
    """MindSpore's box: a centre drawn in ``[0, width] x [0, height]``, sides
    ``size * sqrt(1 - lam)``, clamped to the image; (x, y, width, height)."""
    ratio = _F(math.sqrt(float(_F(1) - lam)))
    cut_w, cut_h = int(_F(width) * ratio), int(_F(height) * ratio)
    cx = rng.uniform_int(0, width)
    cy = rng.uniform_int(0, height)
    x = min(max(cx - cut_w // 2, 0), width - 1)
    y = min(max(cy - cut_h // 2, 0), height - 1)
    x2 = min(max(cx + cut_w // 2, 0), width - 1)
    y2 = min(max(cy + cut_h // 2, 0), height - 1)
    return x, y, min(max(x2 - x, 1), width - 1), min(max(y2 - y, 1), height - 1)


class CutMixBatch(TensorOperation):
    """Paste a random box of a shuffled image into each image (with probability ``prob``)
    and mix the labels by the box's share of the area."""

    random = True

    def __init__(self, image_batch_format: ImageBatchFormat, alpha: float = 1.0,
                 prob: float = 1.0):
        _type_check(image_batch_format, (ImageBatchFormat,), "image_batch_format")
        _type_check(alpha, (int, float), "alpha")
        _type_check(prob, (int, float), "prob")
        _check_alpha(alpha, with_name=False)
        if not 0 <= prob <= 1:
            raise ValueError("Input prob is not within the required interval of [0, 1].")
        self.image_batch_format, self.alpha, self.prob = image_batch_format, alpha, prob

    def _validated(self, args) -> tuple[np.ndarray, np.ndarray]:
        images, label = _columns(args, "CutMixBatch", "invalid input size, input should have "
                                 "2 columns (image and label), but got: ")
        if images.ndim != 4:
            hint = ". You may need to perform Batch first." if images.ndim == 3 else ""
            raise RuntimeError(f"CutMixBatch: input image is not in shape of <B,H,W,C> or "
                               f"<B,C,H,W>, but got dimension: {images.ndim}{hint}")
        channels = images.shape[1 if self.image_batch_format == ImageBatchFormat.NCHW else 3]
        if channels not in (1, 3):
            raise RuntimeError(f"CutMixBatch: input image is not in channel of 1 or 3, but got "
                               f"channel: {channels}")
        _numeric_labels(label, "CutMixBatch")
        if label.ndim not in (2, 3):
            raise RuntimeError(f"CutMixBatch: input label is not in shape of <Batch,Class> or "
                               f"<Batch,Row,Class>, but got dimension: {label.ndim}. You may "
                               f"need to perform OneHot and Batch first.")
        if images.shape[0] != label.shape[0]:
            raise RuntimeError(f"CutMixBatch: batch sizes of image and label must be the same, "
                               f"but got image size: {images.shape[0]} and label size: "
                               f"{label.shape[0]}")
        return images, label

    def _apply(self, *args):
        images, label = self._validated(args)
        rng = draws(self)
        index = list(range(len(images)))
        rng.shuffle(index)
        gamma_a, gamma_b = GammaFloat(self.alpha), GammaFloat(self.alpha)
        out_images, labels = images.copy(), label.astype(np.float32)
        given = labels.copy()
        nchw = self.image_batch_format == ImageBatchFormat.NCHW
        height, width = images.shape[2:4] if nchw else images.shape[1:3]
        for i, j in enumerate(index):
            lam = _beta(gamma_a, gamma_b, rng)
            if not rng.uniform_double(0.0, 1.0) < self.prob:
                continue
            x, y, w, h = _crop_box(rng, height, width, lam)
            box = (slice(y, y + h), slice(x, x + w))
            if nchw:
                out_images[i][(slice(None), *box)] = images[j][(slice(None), *box)]
            else:
                out_images[i][box] = images[j][box]
            weight = _F(1) - _F(w * h) / _F(height * width)
            labels[i] = _mix(given[i], given[j], weight)
        return out_images, labels


class MixUp(TensorOperation):
    """The Python MixUp: each image and label mixed by a ``numpy.random.beta`` weight with
    the next one in the batch (``is_single``), or with the previous batch's output."""

    def __init__(self, batch_size: int, alpha: float, is_single: bool = True):
        _type_check(is_single, (bool,), "is_single")
        _type_check(batch_size, (int,), "batch_size")
        _type_check(alpha, (int, float), "alpha")
        if not 1 <= batch_size <= _FLOAT_MAX_INTEGER:
            raise ValueError(f"Input is not within the required interval of [1, "
                             f"{_FLOAT_MAX_INTEGER}].")
        if alpha <= 0:
            raise ValueError("Input alpha must be greater than 0.")
        self.batch_size, self.alpha, self.is_single = batch_size, alpha, is_single
        self._image = 0
        self._label = 0
        self._first = True

    def _apply(self, image, label):
        n = self.batch_size
        lam = np.random.beta(self.alpha, self.alpha, n)
        if self.is_single:
            index = [*range(1, n), 0]
            other_image, other_label = image[index, ...], label[index, ...]
        else:
            if self._first:
                lam = np.ones(n)
                self._first = False
            other_image, other_label = self._image, self._label
        lam_image = lam.reshape((n, 1, 1, 1))
        mixed_image = lam_image * image + (1 - lam_image) * other_image
        lam_label = lam.reshape((n, 1))
        mixed_label = lam_label * label + (1 - lam_label) * other_label
        if not self.is_single:
            self._image, self._label = mixed_image, mixed_label
        return mixed_image, mixed_label
