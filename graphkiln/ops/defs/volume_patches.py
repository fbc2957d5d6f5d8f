"""``ExtractVolumePatches(kernel_size, strides, padding)``: the ``kd x kh x kw`` patches of
an ``(N, C, D, H, W)`` volume, each flattened into the channels of one output position:
output channel ``((i * kh + j) * kw + k) * C + c`` of position ``(d, h, w)`` is
``x[n, c, d * sd + i, h * sh + j, w * sw + k]`` (``VALID``), or of the volume zero-padded
as TensorFlow's ``SAME`` (``ceil(size / stride)`` positions, the odd padding after). A
gather of input elements: the backward adds each cotangent back to where it was read."""
from __future__ import annotations

import numpy as np

from ...common import dtype as mstype
from ...ir.abstract import AbstractTensor
from ...ir.primitive import OpDef
from ._infer import NUMBERS, UNKNOWN_DIM, quiet, require_dtype, tensor_type

_NAME = "ExtractVolumePatches"
_TYPES = NUMBERS + (mstype.uint16, mstype.uint32, mstype.uint64)
_ATTRS = {"kernel_size": 1, "strides": 1, "padding": "VALID"}


def _three(arg: str, v) -> tuple[int, int, int]:
    """``kernel_size``/``strides`` as (depth, height, width): an int, 3 ints or 5 ints whose
    first two are 1."""
    if isinstance(v, int) and not isinstance(v, bool):
        v = (v,) * 3
    ok = isinstance(v, (tuple, list)) and len(v) in (3, 5) and all(
        isinstance(e, int) and not isinstance(e, bool) and e > 0 for e in v)
    if not ok:
        raise ValueError(f"For '{_NAME}', the parameter '{arg}' must be an positive integer or "
                         f"a tuple of three or five positive integer, but got {v}")
    if len(v) == 5:
        for i in (0, 1):
            if v[i] != 1:
                raise ValueError(f"For '{_NAME}', the '{arg}[{i}]' must be int and must = 1, "
                                 f"but got '{v[i]}' with type 'int'.")
        v = v[2:]
    return tuple(int(e) for e in v)


def _padding(v) -> str:
    if not isinstance(v, str) or v.upper() not in ("VALID", "SAME"):
        raise ValueError(f"For '{_NAME}', the 'padding' must be str and must be in "
                         f"'['VALID', 'SAME']', but got '{v}'.")
    return v.upper()


def _check_attrs(attrs: dict) -> None:
    _three("kernel_size", attrs.get("kernel_size", 1))
    _three("strides", attrs.get("strides", 1))
    _padding(attrs.get("padding", "VALID"))


def _out_size(size: int, k: int, s: int, padding: str) -> int:
    if size < 0:
        return UNKNOWN_DIM
    return -(-size // s) if padding == "SAME" else (size - k) // s + 1


def _infer(x, kernel_size=1, strides=1, padding="VALID"):
    require_dtype(_NAME, "x", tensor_type(_NAME, "x", x), _TYPES)
    ks, ss, pad = _three("kernel_size", kernel_size), _three("strides", strides), \
        _padding(padding)
    if len(x.shape) != 5:
        raise ValueError(f"For '{_NAME}', the 'x' must be 5-D (N, C, D, H, W), but got shape "
                         f"{list(x.shape)}.")
    n, c, *sizes = x.shape
    if pad == "VALID":
        for i, (size, k) in enumerate(zip(sizes, ks)):
            if 0 <= size < k:
                raise ValueError(f"For primitive[{_NAME}], the padding = VALID, input[{i + 2}] "
                                 f"- kernel_size[{i + 2}] must be greater than or equal to 0, "
                                 f"but got {size - k}.")
    channels = UNKNOWN_DIM if c < 0 else c * int(np.prod(ks))
    return AbstractTensor(x.dtype, (n, channels) + tuple(
        _out_size(size, k, s, pad) for size, k, s in zip(sizes, ks, ss)))


def patch_index(shape: tuple, kernel_size, strides, padding) -> np.ndarray:
    """``(C * kd * kh * kw, Do, Ho, Wo)`` flat positions in ``(C, D, H, W)`` that each
    output element of one example reads; -1 where it reads the zero padding."""
    c, *sizes = shape
    ks, ss, pad = _three("kernel_size", kernel_size), _three("strides", strides), \
        _padding(padding)
    axes = []  # per spatial axis: (k, out) input positions, -1 outside
    for size, k, s in zip(sizes, ks, ss):
        out = _out_size(size, k, s, pad)
        before = max((out - 1) * s + k - size, 0) // 2 if pad == "SAME" else 0
        pos = np.arange(out)[None, :] * s + np.arange(k)[:, None] - before
        axes.append(np.where((pos >= 0) & (pos < size), pos, -1))
    (pd, ph, pw), (d, h, w) = axes, sizes
    flat = (pd[:, None, None, :, None, None] * h + ph[None, :, None, None, :, None]) * w + \
        pw[None, None, :, None, None, :]
    inside = (pd[:, None, None, :, None, None] >= 0) & (ph[None, :, None, None, :, None] >= 0) \
        & (pw[None, None, :, None, None, :] >= 0)
    flat = np.where(inside, flat, -1)  # (kd, kh, kw, Do, Ho, Wo)
    chan = np.arange(c)[:, None, None, None, None, None, None] * (d * h * w)
    idx = np.where(flat[None] >= 0, flat[None] + chan, -1)  # (C, kd, kh, kw, Do, Ho, Wo)
    idx = np.moveaxis(idx, 0, 3)  # channels fastest: (kd, kh, kw, C, Do, Ho, Wo)
    return idx.reshape((-1,) + idx.shape[-3:])


@quiet
def _extract(x, kernel_size=1, strides=1, padding="VALID"):
    idx = patch_index(x.shape[1:], kernel_size, strides, padding)
    flat = np.concatenate([x.reshape(x.shape[0], -1), np.zeros((x.shape[0], 1), x.dtype)], 1)
    return flat[:, idx]


ExtractVolumePatches = OpDef(_NAME, _infer, _extract, attrs=dict(_ATTRS),
                             check_attrs=_check_attrs)
