"""``DeformableOffsets`` (the sampling step of a deformable convolution, v2) and its gradient
``DeformableOffsetsGrad``, as MindSpore 2.10's CPU kernels.

``x`` is ``(N, C, H, W)``; ``offsets`` is ``(N, 3 * G * kh * kw, oh, ow)``, its channels
ordered (x offsets, y offsets, masks), each ``G`` deformable groups of ``kh * kw`` kernel
positions, where ``oh = (H + top + bottom - (kh - 1) dh - 1) // sh + 1`` (likewise ``ow``).
Kernel position ``(ky, kx)`` of output pixel ``(i, j)`` reads ``x`` bilinearly at
``(j sw + kx dw - left + dx, i sh + ky dh - top + dy)`` (zero outside ``(-1, W)`` x
``(-1, H)``, and for each corner outside the image), times its mask; channel ``c`` uses the
offsets of group ``c // (C / G)``. The result is ``(N, C, oh * kh, ow * kw)``: each output
pixel's ``kh x kw`` samples side by side, so a convolution with stride ``(kh, kw)`` finishes
the deformable convolution (``ops.deformable_conv2d``). MindSpore's CPU kernel reads every
layout as NCHW (``data_format`` only decides which axes of ``strides`` and ``dilations``
must be 1), and so does this one. The gradient op takes ``(grad, x, offsets)`` and gives
``(d x, d offsets)``.
"""
from __future__ import annotations

import numpy as np

from ...common import dtype as mstype
from ...ir.abstract import AbstractTensor, AbstractTuple
from ...ir.primitive import OpDef
from ._infer import UNKNOWN_DIM, describe, quiet, require_constructor_args

_NAME = "DeformableOffsets"
_TYPES = (mstype.float16, mstype.float32)
_ATTRS = {"strides": None, "pads": None, "ksize": None, "dilations": (1, 1, 1, 1),
          "data_format": "NCHW", "deformable_groups": 1, "modulated": True}


def _int_tuple(name: str, arg: str, value, size: int) -> tuple:
    if not isinstance(value, (tuple, list)):
        raise TypeError(f"For '{name}', the '{arg}' must be a tuple, but got "
                        f"'{type(value).__name__}'.")
    if len(value) != size:
        raise ValueError(f"For '{name}', the '{arg} size' must be int and must = {size}, but "
                         f"got '{len(value)}' with type 'int'.")
    for v in value:
        if isinstance(v, bool) or not isinstance(v, int):
            raise TypeError(f"For '{name}', the element of '{arg}' must be int, but got "
                            f"'{type(v).__name__}'.")
    return tuple(value)


def check_attrs(attrs: dict, name: str = _NAME, ksize: str = "ksize") -> None:
    """MindSpore's checks of the constructor arguments."""
    require_constructor_args(attrs, ("strides", "pads", ksize))
    fmt = attrs["data_format"]
    if fmt not in ("NCHW", "NHWC"):
        raise ValueError(f"For '{name}', the 'data_format' must be str and must be in "
                         f"'['NCHW', 'NHWC']', but got '{fmt}'.")
    channel = 3 if fmt == "NHWC" else 1
    for arg, size in (("strides", 4), ("pads", 4), (ksize, 2), ("dilations", 4)):
        value = _int_tuple(name, "kernel_size" if arg == ksize else arg, attrs[arg], size)
        if arg in ("strides", "dilations") and (value[0] != 1 or value[channel] != 1):
            raise ValueError(f"For '{name}', The N and C dimensions of '{arg}' must be set "
                             f"to 1.")
    groups = attrs["deformable_groups"]
    if isinstance(groups, bool) or not isinstance(groups, int):
        raise TypeError(f"For '{name}', the 'deformable_groups' must be int, but got "
                        f"'{type(groups).__name__}'.")
    if groups <= 0:
        raise ValueError(f"For '{name}', the 'deformable_groups' must be int and must > 0, "
                         f"but got '{groups}' with type 'int'.")
    if not isinstance(attrs["modulated"], bool):
        raise TypeError(f"For '{name}', the 'modulated' must be a bool, but got "
                        f"{type(attrs['modulated']).__name__}.")
    if attrs["modulated"] is not True:
        raise ValueError(f"For '{name}', The modulated must be set to True.")


def _float_tensor(name: str, arg: str, a) -> None:
    if not isinstance(a, AbstractTensor) or a.dtype not in _TYPES:
        got = f"Tensor[{a.dtype}]" if isinstance(a, AbstractTensor) else describe(a)
        raise TypeError(f"For primitive[{name}], the input argument[{arg}] must be a type of "
                        f"{{Tensor[Float16], Tensor[Float32]}}, but got {got}.")


def _out_size(name: str, x, axis: int, before: int, after: int, k: int, dilation: int,
              stride: int) -> int:
    size = x.shape[axis]
    if size == UNKNOWN_DIM:
        return UNKNOWN_DIM
    out = (size + before + after - (k - 1) * dilation - 1) // stride + 1
    if out <= 0:
        raise ValueError(f"For '{name}', the computed H and W dims of the output must be "
                         f"positive, but got {out} along axis {axis} for input 'x' of shape "
                         f"{list(x.shape)}.")
    return out


def _check_inputs(name: str, x, offsets, strides, pads, ksize, dilations,
                  deformable_groups, offsets_grid: bool = False) -> tuple:
    """The output pixels ``(oh, ow)`` after MindSpore's checks of ``x`` and ``offsets``
    (``offsets_grid``: those of ``offsets``, which MindSpore's gradient kernel takes as they
    come, without comparing them with the ones ``x`` gives)."""
    _float_tensor(name, "offsets", offsets)
    _float_tensor(name, "x", x)
    if x.dtype != offsets.dtype:
        raise TypeError(f"For primitive[{name}], the input type must be same.")
    for arg, a in (("x", x), ("offsets", offsets)):
        if len(a.shape) != 4:
            raise ValueError(f"For primitive[{name}], the {arg} shape size must be equal to 4, "
                             f"but got {len(a.shape)}.")
    c = x.shape[1]
    kh, kw = ksize
    if c != UNKNOWN_DIM and c % deformable_groups:
        raise ValueError(f"For '{name}', 'C_in' of input 'x' shape must be divisible by "
                         f"'deformable_groups', but got 'C_in' of input 'x' shape: {c}, and "
                         f"'deformable_groups': {deformable_groups}.")
    channels = offsets.shape[1]
    if channels not in (3 * kh * kw * deformable_groups, UNKNOWN_DIM):
        raise ValueError(f"For '{name}', 'C_in' of input 'offsets' shape must be equal to 3 * "
                         f"kernel_height * kernel_width * deformable_groups, but got 'C_in' of "
                         f"input 'offsets' shape: {channels}, kernel_height: {kh}, "
                         f"kernel_width: {kw}, deformable_groups: {deformable_groups}.")
    oh = _out_size(name, x, 2, pads[0], pads[1], kh, dilations[2], strides[2])
    ow = _out_size(name, x, 3, pads[2], pads[3], kw, dilations[3], strides[3])
    given = tuple(offsets.shape[2:])
    if offsets_grid:
        return given
    if all(d != UNKNOWN_DIM for d in given + (oh, ow)) and given != (oh, ow):
        raise ValueError(f"For '{name}, the H and W dims of offsets input should be equal to "
                         f"the computed H and W dims of the output of deformable_conv2d. But "
                         f"got H and W dims of offsets input: {given}, computed H and W dims "
                         f"of the output of deformable_conv2d: ({oh}, {ow}).")
    oh = given[0] if oh == UNKNOWN_DIM else oh
    ow = given[1] if ow == UNKNOWN_DIM else ow
    return oh, ow


def _scaled(d: int, k: int) -> int:
    return UNKNOWN_DIM if d == UNKNOWN_DIM else d * k


def _infer(x, offsets, strides=None, pads=None, ksize=None, dilations=(1, 1, 1, 1),
           data_format="NCHW", deformable_groups=1, modulated=True):
    check_attrs(dict(strides=strides, pads=pads, ksize=ksize, dilations=dilations,
                     data_format=data_format, deformable_groups=deformable_groups,
                     modulated=modulated))
    oh, ow = _check_inputs(_NAME, x, offsets, strides, pads, ksize, dilations,
                           deformable_groups)
    n, c = x.shape[:2]
    return AbstractTensor(x.dtype, (n, c, _scaled(oh, ksize[0]), _scaled(ow, ksize[1])))


class _Samples:
    """The bilinear reads of one call: for each (n, group, ky, kx, i, j) its four corners
    (flat indices into an image, weights and whether each is inside), the mask and the
    derivatives of the corner weights along x and y. Computed in the inputs' dtype, in the
    kernel's order of operations (float16 rounds after each one, as MindSpore's)."""

    def __init__(self, x, offsets, strides, pads, ksize, dilations, groups):
        n, c, h, w = x.shape
        kh, kw = ksize
        oh, ow = offsets.shape[2:]
        t = offsets.dtype.type
        self.dtype = t
        off = offsets.reshape(n, 3, groups, kh, kw, oh, ow)
        base_x = (np.arange(ow)[None, :] * strides[3] + np.arange(kw)[:, None] * dilations[3]
                  - pads[2]).astype(t)  # (kw, ow)
        base_y = (np.arange(oh)[None, :] * strides[2] + np.arange(kh)[:, None] * dilations[2]
                  - pads[0]).astype(t)  # (kh, oh)
        px = base_x[None, None, None, :, None, :] + off[:, 0]
        py = base_y[None, None, :, None, :, None] + off[:, 1]
        self.mask = off[:, 2]
        one = t(1)
        live = (py > -one) & (py < h) & (px > -one) & (px < w)
        left = np.floor(px).astype(np.int64)
        top = np.floor(py).astype(np.int64)
        lx = px - left.astype(t)
        ty = py - top.astype(t)
        rx, by = one - lx, one - ty
        self.corners = []
        for dy, dx, weight, d_x, d_y in ((0, 0, rx * by, -by, -rx), (0, 1, lx * by, by, -lx),
                                         (1, 0, rx * ty, -ty, rx), (1, 1, lx * ty, ty, lx)):
            cy, cx = top + dy, left + dx
            inside = live & (cy >= 0) & (cy <= h - 1) & (cx >= 0) & (cx <= w - 1)
            index = np.where(inside, cy * w + cx, 0)
            self.corners.append((index, np.where(inside, weight, 0), inside, d_x, d_y))
        self.shape = (n, groups, c // groups, kh * kw * oh * ow)

    def gather(self, x: np.ndarray, index: np.ndarray) -> np.ndarray:
        """``x`` (N, C, H, W) read at ``index`` (N, G, kh, kw, oh, ow): (N, G, C/G, K)."""
        n, g, cg, k = self.shape
        flat = x.astype(self.dtype, copy=False).reshape(n, g, cg, -1)
        return np.take_along_axis(flat, index.reshape(n, g, 1, k), axis=3)

    def values(self, x: np.ndarray) -> np.ndarray:
        """The bilinear value of every sample (N, G, C/G, K), before the mask."""
        n, g, _, k = self.shape
        total = None
        for index, weight, _, _, _ in self.corners:
            term = weight.reshape(n, g, 1, k) * self.gather(x, index)
            total = term if total is None else total + term
        return total


def _layout(samples: np.ndarray, x_shape: tuple, ksize: tuple, out_hw: tuple) -> np.ndarray:
    """(N, G, C/G, kh*kw*oh*ow) samples as the (N, C, oh*kh, ow*kw) output."""
    n, c = x_shape[:2]
    kh, kw = ksize
    oh, ow = out_hw
    s = samples.reshape(n, c, kh, kw, oh, ow).transpose(0, 1, 4, 2, 5, 3)
    return s.reshape(n, c, oh * kh, ow * kw)


@quiet
def _deformable_offsets(x, offsets, strides=None, pads=None, ksize=None,
                        dilations=(1, 1, 1, 1), data_format="NCHW", deformable_groups=1,
                        modulated=True):
    s = _Samples(x, offsets, strides, pads, ksize, dilations, deformable_groups)
    n, g, _, k = s.shape
    out = s.values(x) * s.mask.reshape(n, g, 1, k)
    return _layout(out, x.shape, ksize, offsets.shape[2:]).astype(x.dtype)


# the bilinear samples of a deformable convolution, each output pixel's kh x kw side by side
DeformableOffsets = OpDef(_NAME, _infer, _deformable_offsets, attrs=dict(_ATTRS),
                          check_attrs=check_attrs)

_GRAD = "DeformableOffsetsGrad"
_GRAD_ATTRS = {"strides": None, "pads": None, "kernel_size": None, "dilations": (1, 1, 1, 1),
               "data_format": "NCHW", "deformable_groups": 1, "modulated": True}


def _check_grad_attrs(attrs: dict) -> None:
    check_attrs(attrs, _GRAD, "kernel_size")


def _grad_infer(grad, x, offsets, strides=None, pads=None, kernel_size=None,
                dilations=(1, 1, 1, 1), data_format="NCHW", deformable_groups=1,
                modulated=True):
    _check_grad_attrs(dict(strides=strides, pads=pads, kernel_size=kernel_size,
                           dilations=dilations, data_format=data_format,
                           deformable_groups=deformable_groups, modulated=modulated))
    nhwc = data_format == "NHWC"
    as_nchw = (lambda a: AbstractTensor(a.dtype, _nchw(tuple(a.shape)))) if nhwc else (
        lambda a: a)
    for arg, a in (("x", x), ("offsets", offsets)):
        if isinstance(a, AbstractTensor) and len(a.shape) != 4:
            raise ValueError(f"For primitive[{_GRAD}], the {arg} shape size must be equal to "
                             f"4, but got {len(a.shape)}.")
    oh, ow = _check_inputs(_GRAD, as_nchw(x), as_nchw(offsets), _nchw(strides) if nhwc
                           else strides, pads, kernel_size, _nchw(dilations) if nhwc
                           else dilations, deformable_groups, offsets_grid=True)
    _float_tensor(_GRAD, "grad", grad)
    want = tuple(as_nchw(x).shape[:2]) + (_scaled(oh, kernel_size[0]),
                                          _scaled(ow, kernel_size[1]))
    want = _nhwc(want) if nhwc else want
    if len(grad.shape) != 4 or any(a != b and UNKNOWN_DIM not in (a, b)
                                   for a, b in zip(grad.shape, want)):
        raise ValueError(f"For '{_GRAD}', the shape of 'grad' must be {list(want)} (the "
                         f"output of DeformableOffsets), but got {list(grad.shape)}.")
    return AbstractTuple([AbstractTensor(x.dtype, tuple(x.shape)),
                          AbstractTensor(offsets.dtype, tuple(offsets.shape))])


def _nchw(v: tuple) -> tuple:
    """An NHWC shape (or strides, dilations) in NCHW order."""
    return (v[0], v[3], v[1], v[2])


def _nhwc(v: tuple) -> tuple:
    return (v[0], v[2], v[3], v[1])


@quiet
def _deformable_offsets_grad(grad, x, offsets, strides=None, pads=None, kernel_size=None,
                             dilations=(1, 1, 1, 1), data_format="NCHW", deformable_groups=1,
                             modulated=True):
    if data_format == "NHWC":
        to_nchw = (0, 3, 1, 2)
        dx, doff = _deformable_offsets_grad(
            grad.transpose(to_nchw), x.transpose(to_nchw), offsets.transpose(to_nchw),
            _nchw(strides), pads, kernel_size, _nchw(dilations), "NCHW", deformable_groups,
            modulated)
        return dx.transpose(0, 2, 3, 1).copy(), doff.transpose(0, 2, 3, 1).copy()
    if x.dtype == np.float16:  # MindSpore's gradient kernel computes float16 in float32
        dx, doff = _deformable_offsets_grad(
            grad, x.astype(np.float32), offsets.astype(np.float32), strides, pads,
            kernel_size, dilations, data_format, deformable_groups, modulated)
        return dx.astype(np.float16), doff.astype(np.float16)
    s = _Samples(x, offsets, strides, pads, kernel_size, dilations, deformable_groups)
    n, g, cg, k = s.shape
    kh, kw = kernel_size
    oh, ow = offsets.shape[2:]
    c, h, w = x.shape[1:]
    # the output's (N, C, oh*kh, ow*kw) back to the samples' (N, G, C/G, K)
    dout = grad.astype(np.float32).reshape(n, c, oh, kh, ow, kw).transpose(0, 1, 3, 5, 2, 4)
    dout = dout.reshape(n, g, cg, k)
    mask = s.mask.reshape(n, g, 1, k)
    dvalue = dout * mask
    d_px = np.zeros((n, g, k), np.float64)
    d_py = np.zeros((n, g, k), np.float64)
    dx = np.zeros(n * c * h * w, np.float64)
    planes = (np.arange(n * c) * (h * w)).reshape(n, g, cg, 1)
    for index, weight, inside, d_x, d_y in s.corners:
        corner = s.gather(x, index) * inside.reshape(n, g, 1, k)
        d_px += (dvalue * corner).sum(axis=2) * d_x.reshape(n, g, k)
        d_py += (dvalue * corner).sum(axis=2) * d_y.reshape(n, g, k)
        contrib = dvalue * weight.reshape(n, g, 1, k)
        dx += np.bincount((planes + index.reshape(n, g, 1, k)).reshape(-1),
                          contrib.reshape(-1), minlength=dx.size)
    dmask = (dout * s.values(x)).sum(axis=2)
    doff = np.stack([d_px, d_py, dmask], axis=1)  # (N, 3, G, K)
    return (dx.reshape(x.shape).astype(x.dtype),
            doff.reshape(offsets.shape).astype(offsets.dtype))


# (d x, d offsets) of DeformableOffsets for the cotangent ``grad`` of its output
DeformableOffsetsGrad = OpDef(_GRAD, _grad_infer, _deformable_offsets_grad, differentiable=False,
                              attrs=dict(_GRAD_ATTRS), check_attrs=_check_grad_attrs)
