"""Neural-network functions composed of primitives: ``ops.lrn`` (local response
normalization across channels), ``ops.affine_grid`` (the sampling grid of an affine map),
``ops.grid_sample`` (bilinear or nearest sampling of an image at grid points),
``ops.mirror_pad`` and ``ops.deformable_conv2d`` (``DeformableOffsets`` then a convolution
with the kernel as its stride), with MindSpore 2.10's arguments; they differentiate and
batch like their parts."""
from __future__ import annotations

import numpy as np

import graphkiln.ops.functional as F

from ..common import dtype as mstype
from ..common.tensor import Tensor
from .defs import conv as CV
from .defs import deformable_offsets as DO
from .defs import grid_sampler as GS
from .defs import nn as N
from .interpolation import interpolate

__all__ = ["lrn", "lrn_grad", "affine_grid", "grid_sample", "mirror_pad", "upsample",
           "conv_transpose2d", "deformable_conv2d"]


def lrn(x, depth_radius: int = 5, bias: float = 1.0, alpha: float = 1.0, beta: float = 0.5,
        norm_region: str = "ACROSS_CHANNELS") -> Tensor:
    """``x / (bias + alpha * sum(x**2 over the 2 * depth_radius + 1 nearest channels))
    ** beta`` for a 4-D ``(N, C, H, W)`` float ``x``."""
    if isinstance(depth_radius, bool) or not isinstance(depth_radius, int):
        raise TypeError(f"For 'LRN', the 'depth_radius' must be an int, but got "
                        f"{type(depth_radius).__name__}.")
    if norm_region != "ACROSS_CHANNELS":
        raise ValueError(f"For 'LRN', the 'norm_region' must be 'ACROSS_CHANNELS', but got "
                         f"{norm_region!r}.")
    if not isinstance(x, Tensor) or x.ndim != 4 or not x.dtype.is_float:
        raise TypeError(f"For 'LRN', the 'x' must be a 4-D float Tensor, but got "
                        f"{getattr(x, 'shape', type(x).__name__)}.")
    return F.div(x, F.pow(F.add(F.mul(_channel_sums(F.square(x), depth_radius), alpha), bias),
                          beta))


def _channel_sums(t: Tensor, depth_radius: int) -> Tensor:
    """The sums of ``t`` (N, C, H, W) over the ``2 * depth_radius + 1`` nearest channels."""
    c = t.shape[1]
    window = np.abs(np.arange(c)[:, None] - np.arange(c)[None, :]) <= depth_radius
    return F.transpose(F.matmul(F.transpose(t, (0, 2, 3, 1)),
                                Tensor(window.astype(t.dtype.np_dtype))), (0, 3, 1, 2))


def lrn_grad(dy: Tensor, x: Tensor, depth_radius: int = 5, bias: float = 1.0,
             alpha: float = 1.0, beta: float = 0.5) -> Tensor:
    """The gradient of :func:`lrn` at ``x`` for the output gradient ``dy`` (MindSpore's
    ``LRNGrad``, which recomputes the normalisation from ``x``), in ``x``'s dtype; float16
    is computed in float32."""
    for name, t in (("grads", dy), ("x", x)):
        if not isinstance(t, Tensor) or not t.dtype.is_float or t.dtype == mstype.bfloat16:
            raise TypeError(f"For 'LRNGrad', the '{name}' must be a float16, float32 or "
                            f"float64 Tensor, but got {getattr(t, 'dtype', type(t).__name__)}.")
        if t.ndim != 4:
            raise ValueError(f"For primitive[LRNGrad], the rank of input must be equal to 4, "
                             f"but got {t.ndim}.")
    if tuple(dy.shape) != tuple(x.shape):
        raise ValueError(f"For 'LRNGrad', the 'x' and 'grads' must have the same shape, but "
                         f"got 'x' shape {list(x.shape)} and 'grads' shape {list(dy.shape)}.")
    wide = mstype.float64 if x.dtype == mstype.float64 else mstype.float32
    xw, dyw = F.cast(x, wide), F.cast(dy, wide)
    scale = F.add(F.mul(_channel_sums(F.square(xw), depth_radius), alpha), bias)
    factor = F.pow(scale, -beta)  # y = x * factor
    inner = _channel_sums(F.div(F.mul(F.mul(dyw, xw), factor), scale), depth_radius)
    dx = F.sub(F.mul(dyw, factor), F.mul(F.mul(xw, inner), 2.0 * alpha * beta))
    return F.cast(dx, x.dtype)


def _coords(n: int, align_corners: bool) -> np.ndarray:
    """The normalized ``[-1, 1]`` coordinates of ``n`` pixel centres (corners when
    ``align_corners``)."""
    if n == 1:
        return np.zeros(1)
    line = np.linspace(-1.0, 1.0, n)
    return line if align_corners else line * (n - 1) / n


def affine_grid(theta, size, align_corners: bool = False) -> Tensor:
    """The ``(N, H, W, 2)`` (or ``(N, D, H, W, 3)``) sampling grid that ``theta``, a batch
    of 2x3 (3x4) affine matrices, maps the output pixels of ``size`` to."""
    if not isinstance(theta, Tensor) or theta.ndim != 3:
        raise TypeError("For 'AffineGrid', the 'theta' must be a 3-D Tensor.")
    size = tuple(int(v) for v in size)
    spatial = len(size) - 2
    if spatial not in (2, 3) or tuple(theta.shape[1:]) != (spatial, spatial + 1) or \
            theta.shape[0] != size[0]:
        raise ValueError(f"For 'AffineGrid', 'theta' must be (N, {spatial}, {spatial + 1}) "
                         f"with N = size[0], but got {theta.shape} and size {size}.")
    axes = [_coords(n, align_corners) for n in size[2:]][::-1]  # x (width) first
    mesh = np.meshgrid(*axes, indexing="ij")  # x varies along the first axis here
    points = np.stack([m.transpose(tuple(range(spatial))[::-1]) for m in mesh] +
                      [np.ones(size[2:])], -1).reshape(-1, spatial + 1)
    base = Tensor(points.astype(theta.dtype.np_dtype))
    grid = F.matmul(F.broadcast_to(base, (size[0],) + base.shape), F.transpose(theta, (0, 2, 1)))
    return F.reshape(grid, (size[0],) + size[2:] + (spatial,))


def grid_sample(input, grid, mode: str = "bilinear", padding_mode: str = "zeros",  # noqa: A002
                align_corners=None) -> Tensor:
    """``input`` (N, C, H, W) sampled at the normalized ``grid`` points (N, Ho, Wo, 2) (x then
    y, in ``[-1, 1]``), or (N, C, D, H, W) at (N, Do, Ho, Wo, 3): ``bilinear`` (trilinear
    for 5-D) or ``nearest``, outside points giving 0 (``zeros``), the edge (``border``) or the
    mirror image (``reflection``); MindSpore's GridSampler2D/3D."""
    if mode not in ("bilinear", "nearest"):
        raise ValueError(f"For 'grid_sample', 'mode' must be 'bilinear' or 'nearest', but got "
                         f"{mode!r}.")
    if padding_mode not in ("zeros", "border", "reflection"):
        raise ValueError(f"For 'grid_sample', 'padding_mode' must be 'zeros', 'border' or "
                         f"'reflection', but got {padding_mode!r}.")
    rank = input.ndim - 2 if isinstance(input, Tensor) else 0
    if rank not in (2, 3) or not isinstance(grid, Tensor) or grid.ndim != input.ndim or \
            grid.shape[-1] != rank or grid.shape[0] != input.shape[0]:
        raise ValueError("For 'grid_sample', 'input' must be (N, C, H, W) and 'grid' "
                         "(N, Ho, Wo, 2), or 'input' (N, C, D, H, W) and 'grid' "
                         "(N, Do, Ho, Wo, 3).")
    sampler = GS.GridSampler2D if rank == 2 else GS.GridSampler3D
    return sampler(input, grid, interpolation_mode=mode, padding_mode=padding_mode,
                   align_corners=bool(align_corners))


def mirror_pad(input_x, paddings, mode: str) -> Tensor:
    """``input_x`` padded by ``paddings`` ((before, after) per dimension, a Tensor) with its
    mirror image: ``REFLECT`` leaves the edge out, ``SYMMETRIC`` repeats it."""
    if mode not in ("REFLECT", "SYMMETRIC"):
        raise ValueError(f"For 'MirrorPad', the 'mode' must be 'REFLECT' or 'SYMMETRIC', but "
                         f"got {mode!r}.")
    pads = paddings.asnumpy() if isinstance(paddings, Tensor) else np.asarray(paddings)
    if pads.shape != (input_x.ndim, 2):
        raise ValueError(f"For 'MirrorPad', 'paddings' must be of shape ({input_x.ndim}, 2), "
                         f"but got {pads.shape}.")
    x = input_x
    for ax, (before, after) in enumerate(pads.astype(int)):
        size = x.shape[ax]
        limit = size - 1 if mode == "REFLECT" else size
        if before > limit or after > limit or before < 0 or after < 0:
            raise ValueError(f"For 'MirrorPad', the paddings of dimension {ax} must be in "
                             f"[0, {limit}], but got {(before, after)}.")
        if before or after:
            index = np.pad(np.arange(size), (before, after), mode=mode.lower())
            x = F.gather(x, Tensor(index.astype(np.int64)), ax)
    return x


def upsample(input, size=None, scale_factor=None, mode: str = "nearest",  # noqa: A002
             align_corners=None, recompute_scale_factor=None) -> Tensor:
    """``ops.interpolate`` under its other name."""
    return interpolate(input, size, scale_factor, mode, align_corners, recompute_scale_factor)


def _pair(name: str, arg: str, value, low: int) -> tuple:
    pair = (value, value) if isinstance(value, int) and not isinstance(value, bool) \
        else tuple(value)
    if len(pair) != 2 or any(isinstance(v, bool) or not isinstance(v, int) or v < low
                             for v in pair):
        raise ValueError(f"For '{name}', '{arg}' must be an int or a pair of ints >= {low}, "
                         f"but got {value!r}.")
    return pair


def conv_transpose2d(input, weight, bias=None, stride=1, padding=0,  # noqa: A002
                     output_padding=0, groups: int = 1, dilation=1) -> Tensor:
    """The transposed 2-D convolution of ``(N, C_in, H, W)`` with ``weight`` of shape
    ``(C_in, C_out / groups, kH, kW)`` (the gradient of a convolution with respect to its
    input), ``output_padding`` extra rows and columns at the end."""
    if not isinstance(input, Tensor) or input.ndim != 4 or not isinstance(weight, Tensor) or \
            weight.ndim != 4 or weight.shape[0] != input.shape[1]:
        raise ValueError("For 'conv_transpose2d', 'input' must be (N, C_in, H, W) and 'weight' "
                         "(C_in, C_out / groups, kH, kW).")
    name = "conv_transpose2d"
    step, pad = _pair(name, "stride", stride, 1), _pair(name, "padding", padding, 0)
    extra, dil = _pair(name, "output_padding", output_padding, 0), \
        _pair(name, "dilation", dilation, 1)
    kernel = tuple(weight.shape[2:])
    size = tuple((n - 1) * s - 2 * p + d * (k - 1) + e + 1 for n, s, p, d, k, e in
                 zip(input.shape[2:], step, pad, dil, kernel, extra))
    out_channels = weight.shape[1] * groups
    out = CV.Conv2DBackpropInput(
        input, weight, (input.shape[0], out_channels) + size, out_channel=input.shape[1],
        kernel_size=kernel, pad_mode="pad", pad=(pad[0], pad[0], pad[1], pad[1]), stride=step,
        dilation=dil, group=groups, data_format="NCHW")
    return out if bias is None else F.add(out, F.reshape(bias, (1, -1, 1, 1)))


def deformable_conv2d(x, weight, offsets, kernel_size, strides, padding, bias=None,
                      dilations=(1, 1, 1, 1), groups: int = 1, deformable_groups: int = 1,
                      modulated: bool = True) -> Tensor:
    """Deformable convolution v2 of ``(N, C_in, H, W)`` by ``(C_out, C_in / groups, kh, kw)``:
    each kernel position reads ``x`` bilinearly at its place moved by ``offsets`` and
    scaled by its mask (``offsets``: ``(N, 3 * deformable_groups * kh * kw, H_out, W_out)``,
    channels x offsets, y offsets, masks), plus ``bias``."""
    samples = DO.DeformableOffsets(x, offsets, strides=strides, pads=padding,
                                   ksize=kernel_size, dilations=dilations, data_format="NCHW",
                                   deformable_groups=deformable_groups, modulated=modulated)
    kernel = tuple(kernel_size)
    out = CV.Conv2D(samples, weight, out_channel=weight.shape[0], kernel_size=kernel,
                    mode=1, pad_mode="valid", pad=0, stride=kernel, dilation=1, group=groups)
    return out if bias is None else N.BiasAdd(out, bias)
