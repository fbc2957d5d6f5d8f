"""Arrays to ``Summary.Value`` messages, as MindSpore's summary files hold them.

- scalar: the first element as a float;
- tensor: dims, MindSpore's data type and the values as ``float_data``;
- histogram: count, nan/±inf counts, min/max/sum of the finite values, and equal-width
  buckets over ``[min, max]`` (2 buckets up to 5 values, 3 up to 10, then one per 10 values
  plus one, at most 90);
- image: an NCHW batch (C of 1 or 3) laid out on a grid of at most 8 columns, mapped to
  uint8 (values in [0, 1] scaled by 255, other ranges shifted and scaled linearly), PNG.
"""
from __future__ import annotations

import io

import numpy as np

from ..summary_pb2 import DATA_TYPES

_MAX_BINS, _PER_BIN, _GRID_COLUMNS = 90, 10, 8


def fill_scalar(value, array: np.ndarray) -> bool:
    if array.size == 0:
        return False
    value.scalar_value = float(array.reshape(-1)[0])
    return True


def fill_tensor(value, array: np.ndarray) -> bool:
    tensor = value.tensor
    tensor.data_type = DATA_TYPES.get(array.dtype.name, 0)
    tensor.float_data.extend(array.reshape(-1).tolist())
    tensor.dims.extend(array.shape)
    return True


def histogram_bins(count: int) -> int:
    if count == 0:
        return 1
    if count <= 5:
        return 2
    if count <= 10:
        return 3
    return min(count // _PER_BIN + 1, _MAX_BINS)


def fill_histogram(value, array: np.ndarray) -> bool:
    hist = value.histogram
    finite = np.isfinite(array) if array.dtype.kind == "f" else np.ones(array.shape, bool)
    hist.count = array.size
    floating = array.dtype.kind == "f"
    hist.nan_count = int(np.count_nonzero(np.isnan(array))) if floating else 0
    hist.pos_inf_count = int(np.count_nonzero(np.isposinf(array))) if floating else 0
    hist.neg_inf_count = int(np.count_nonzero(np.isneginf(array))) if floating else 0
    valid = array[finite]
    if valid.size == 0:
        return True
    hist.min, hist.max = float(valid.min()), float(valid.max())
    hist.sum = float(valid.sum(dtype=np.float64))
    lo, hi = hist.min, hist.max
    if not lo < hi:
        lo, hi = lo - 0.5, hi + 0.5
    edges = np.linspace(lo, hi, histogram_bins(valid.size) + 1, dtype=array.dtype)
    counts, edges = np.histogram(valid, bins=edges)
    for count, left, right in zip(counts, edges, edges[1:]):
        hist.buckets.add(left=float(left), width=float(right - left), count=int(count))
    return True


def image_grid(batch: np.ndarray) -> np.ndarray:
    """An NCHW batch as one HWC RGB canvas, images left to right, 8 to a row."""
    if batch.shape[1] == 1:
        batch = np.repeat(batch, 3, axis=1)
    n, _, h, w = batch.shape
    cols = min(n, _GRID_COLUMNS)
    rows = -(-n // cols)
    canvas = np.zeros((3, h * rows, w * cols))
    for i in range(n):
        y, x = divmod(i, cols)
        canvas[:, y * h:(y + 1) * h, x * w:(x + 1) * w] = batch[i]
    return canvas.transpose(1, 2, 0)


def to_uint8(image: np.ndarray, source_dtype: np.dtype) -> np.ndarray:
    if source_dtype == np.uint8:
        return image.astype(np.uint8)
    lo, hi = image.min(), image.max()
    scale, shift = 1.0, 0.0
    if lo >= 0 and hi <= 1:
        scale = 255.0
    else:
        if hi != lo:
            scale = 255.0 / (hi - lo + 1)
        shift = lo
    return ((image.astype(np.float32) - shift) * scale).astype(np.uint8)


def fill_image(value, array: np.ndarray) -> bool:
    """False (the value is skipped, as MindSpore does) unless a non-empty NCHW batch with
    1 or 3 channels."""
    if array.ndim != 4 or array.shape[1] not in (1, 3) or 0 in array.shape:
        return False
    from PIL import Image  # noqa: PLC0415 - optional dependency: only image summaries need it
    pixels = to_uint8(image_grid(array), array.dtype)
    buf = io.BytesIO()
    Image.fromarray(pixels).save(buf, format="PNG")
    img = value.image
    img.height, img.width, img.colorspace = pixels.shape
    img.encoded_image = buf.getvalue()
    return True


FILLERS = {"scalar": fill_scalar, "tensor": fill_tensor, "histogram": fill_histogram,
           "image": fill_image}
