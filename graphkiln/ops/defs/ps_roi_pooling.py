"""Position-sensitive ROI pooling (R-FCN): ``PSROIPooling`` and its backward
``PSROIPoolingGrad``, as MindSpore's CPU kernels.

``rois`` (``(batch, 5, rois_number)``, each column ``[image, x1, y1, x2, y2]``) is scaled by
``spatial_scale`` and rounded (half away from zero), cut into ``group_size ** 2`` bins (a
side at least 0.1), each bin clipped to the map. ``PSROIPooling`` averages the feature map
``(batch, output_dim * group_size ** 2, H, W)`` over each bin in channel
``(c * group_size + row) * group_size + column`` (an empty bin gives 0), giving
``(batch * rois_number, output_dim, group_size, group_size)``; ``PSROIPoolingGrad`` spreads
``dy`` of that shape back evenly over the cells of each bin. The forward takes float16 and
float32, the backward float32 only (MindSpore 2.10 refuses float16 there); the backward has
no gradient of its own.
"""
from __future__ import annotations

import numpy as np

from ...common import dtype as mstype
from ...ir.abstract import AbstractTensor
from ...ir.primitive import OpDef
from ._infer import dims_match, quiet, require_dtype, tensor_type

_NAME = "PSROIPoolingGrad"
_FWD = "PSROIPooling"
_FLOATS = (mstype.float32,)
_FWD_FLOATS = (mstype.float16, mstype.float32)


def _positive_int(name: str, v, op: str = _NAME) -> None:
    if isinstance(v, bool) or not isinstance(v, int):
        raise TypeError(f"For '{op}', the '{name}' must be an int, but got "
                        f"{type(v).__name__}.")
    if v <= 0:
        raise ValueError(f"For '{op}', the '{name}' must be positive, but got {v}.")


def _check_attrs(attrs: dict) -> None:
    size = attrs["input_size"]
    if isinstance(size, bool) or not isinstance(size, (int, tuple)):
        raise TypeError(f"For '{_NAME}', the 'input_size' must be an int or a tuple, but got "
                        f"{type(size).__name__}.")
    for v in (size,) if isinstance(size, int) else size:
        _positive_int("input_size", v)
    if isinstance(size, tuple) and len(size) != 2:
        raise ValueError(f"For '{_NAME}', the 'input_size' must hold 2 ints, but got {size}.")
    _check_pool_attrs(attrs, _NAME)


def _check_pool_attrs(attrs: dict, op: str = _FWD) -> None:
    scale = attrs["spatial_scale"]
    if isinstance(scale, bool) or not isinstance(scale, (int, float)):
        raise TypeError(f"For '{op}', the 'spatial_scale' must be a float, but got "
                        f"{type(scale).__name__}.")
    if scale <= 0:
        raise ValueError(f"For '{op}', the 'spatial_scale' must be positive, but got "
                         f"{scale}.")
    _positive_int("group_size", attrs["group_size"], op)
    _positive_int("output_dim", attrs["output_dim"], op)


def _hw(input_size) -> tuple:
    return (input_size, input_size) if isinstance(input_size, int) else tuple(input_size)


def _infer(*args, input_size=1, spatial_scale=1.0, group_size=1, output_dim=1):
    if len(args) != 2:
        raise ValueError(f"For '{_NAME}', the inputs must be 'dy' and 'rois' (2 inputs), but "
                         f"got {len(args)} inputs.")
    dy, rois = args
    t = tensor_type(_NAME, "dy", dy)
    require_dtype(_NAME, "dy", t, _FLOATS)
    if tensor_type(_NAME, "rois", rois) != t:
        raise TypeError(f"For '{_NAME}', the 'rois' must have the dtype of 'dy' ({t}), but got "
                        f"{rois.dtype}.")
    ds, rs = tuple(dy.shape), tuple(rois.shape)
    if len(ds) != 4 or len(rs) != 3 or not dims_match(rs[1], 5):
        raise ValueError(f"For '{_NAME}', 'dy' must be 4-D and 'rois' of shape (batch, 5, "
                         f"rois_number), but got shapes {list(ds)} and {list(rs)}.")
    want = (rs[0] * rs[2], output_dim, group_size, group_size)
    if min(ds + rs) >= 0 and ds != want:
        raise RuntimeError(f"For '{_NAME}', the 'dy' must have shape (batch * rois_number, "
                           f"output_dim, group_size, group_size) = {list(want)}, but got "
                           f"{list(ds)}.")
    return AbstractTensor(t, (rs[0], output_dim * group_size * group_size) + _hw(input_size))


def _round(v):
    """Half away from zero (C's roundf)."""
    return np.sign(v) * np.floor(np.abs(v) + v.dtype.type(0.5))


def _bins(rois, h: int, w: int, spatial_scale: float, group_size: int, op: str):
    """``(n, image, row, col, top, bottom, left, right)`` of each non-empty bin; ``n``
    counts the rois image by image (``rois[b, :, k]`` is row ``b * rois_number + k``)."""
    t = rois.dtype.type
    batch = rois.shape[0]
    boxes = rois.transpose(0, 2, 1).reshape(-1, 5)
    for n, box in enumerate(boxes):
        x1, y1, x2, y2 = _round(box[1:] * t(spatial_scale))
        bin_h = max(y2 - y1, t(0.1)) / t(group_size)
        bin_w = max(x2 - x1, t(0.1)) / t(group_size)
        image = int(box[0])
        if not 0 <= image < batch:
            raise ValueError(f"For '{op}', the image index of each roi must be in [0, "
                             f"{batch}), but got {image}.")
        for row in range(group_size):
            top = min(max(int(np.floor(t(row) * bin_h + y1)), 0), h)
            bottom = min(max(int(np.ceil(t(row + 1) * bin_h + y1)), 0), h)
            for col in range(group_size):
                left = min(max(int(np.floor(t(col) * bin_w + x1)), 0), w)
                right = min(max(int(np.ceil(t(col + 1) * bin_w + x1)), 0), w)
                if bottom > top and right > left:
                    yield n, image, row, col, top, bottom, left, right


@quiet
def _kernel(dy, rois, input_size=1, spatial_scale=1.0, group_size=1, output_dim=1):
    dy, rois = np.asarray(dy), np.asarray(rois)
    t = dy.dtype.type
    h, w = _hw(input_size)
    batch = rois.shape[0]
    dx = np.zeros((batch, output_dim * group_size * group_size, h, w), dy.dtype)
    starts = np.arange(output_dim) * group_size * group_size
    for n, image, row, col, top, bottom, left, right in _bins(rois, h, w, spatial_scale,
                                                              group_size, _NAME):
        share = dy[n, :, row, col] / t((bottom - top) * (right - left))
        channels = starts + row * group_size + col
        dx[image, channels, top:bottom, left:right] += share[:, None, None]
    return dx


def _fwd_infer(*args, spatial_scale=1.0, group_size=1, output_dim=1):
    if len(args) != 2:
        raise TypeError(f"For '{_FWD}', the inputs must be 'features' and 'rois' (2 inputs), "
                        f"but got {len(args)} inputs.")
    x, rois = args
    t = tensor_type(_FWD, "features", x)
    require_dtype(_FWD, "features", t, _FWD_FLOATS)
    if tensor_type(_FWD, "rois", rois) != t:
        raise TypeError(f"For '{_FWD}', the 'rois' must have the dtype of 'features' ({t}), "
                        f"but got {rois.dtype}.")
    xs, rs = tuple(x.shape), tuple(rois.shape)
    if len(xs) != 4 or len(rs) != 3 or not dims_match(rs[1], 5):
        raise RuntimeError(f"For '{_FWD}', 'features' must be 4-D and 'rois' of shape (batch, "
                           f"5, rois_number), but got shapes {list(xs)} and {list(rs)}.")
    channels = output_dim * group_size * group_size
    if not dims_match(xs[1], channels):
        raise RuntimeError(f"For '{_FWD}', the channels of 'features' must be output_dim * "
                           f"group_size * group_size = {channels}, but got {xs[1]}.")
    if not dims_match(xs[0], rs[0]):
        raise RuntimeError(f"For '{_FWD}', the batch of 'features' and 'rois' must be equal, "
                           f"but got {xs[0]} and {rs[0]}.")
    rows = rs[0] * rs[2] if min(rs[0], rs[2]) >= 0 else -1
    return AbstractTensor(t, (rows, output_dim, group_size, group_size))


@quiet
def _fwd_kernel(x, rois, spatial_scale=1.0, group_size=1, output_dim=1):
    x, rois = np.asarray(x), np.asarray(rois)
    batch, _, h, w = x.shape
    out = np.zeros((batch * rois.shape[2], output_dim, group_size, group_size), np.float32)
    starts = np.arange(output_dim) * group_size * group_size
    for n, image, row, col, top, bottom, left, right in _bins(rois, h, w, spatial_scale,
                                                              group_size, _FWD):
        cells = x[image, starts + row * group_size + col, top:bottom, left:right]
        out[n, :, row, col] = cells.astype(np.float32).mean(axis=(1, 2))
    return out.astype(x.dtype)


# (features, rois) -> (batch * rois_number, output_dim, group_size, group_size)
PSROIPooling = OpDef(_FWD, _fwd_infer, _fwd_kernel,
                     attrs={"spatial_scale": 1.0, "group_size": 1, "output_dim": 1},
                     check_attrs=_check_pool_attrs)
# (dy, rois) -> the gradient of the feature map PSROIPooling read
PSROIPoolingGrad = OpDef(_NAME, _infer, _kernel, differentiable=False,
                         attrs={"input_size": 1, "spatial_scale": 1.0, "group_size": 1,
                                "output_dim": 1}, check_attrs=_check_attrs)
