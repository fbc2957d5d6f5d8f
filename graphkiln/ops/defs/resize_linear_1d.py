"""``ResizeLinear1D(coordinate_transformation_mode)(x, size)`` (an ``(N, C, W)`` Tensor
resized linearly to width ``size``) and its backward ``ResizeLinear1DGrad(grads, input_x)``,
as MindSpore's CPU kernels compute them.

Output position ``w`` reads source coordinate ``s = w * (in - 1) / (out - 1)``
(``align_corners``; 0 when ``out`` is 1) or ``(w + 0.5) * in / out - 0.5`` (``half_pixel``,
in double; 0 when ``out`` is 1), in the data's type, and blends ``max(floor(s), 0)`` and
``min(ceil(s), in - 1)`` by ``s - floor(s)`` as ``left + (right - left) * lerp``. The
backward adds ``g * (1.0 - lerp)`` (in double, rounded) and ``g * lerp`` to the two sources
of each output position in order. Equal widths copy. ``size`` (a 1-element int Tensor or a
tuple of one int) may be known only when the graph runs; float16 is computed in float32.
"""
from __future__ import annotations

import numpy as np

from ...common import dtype as mstype
from ...ir.abstract import AbstractScalar, AbstractTensor, AbstractTuple
from ..primitive import OpDef
from ._infer import UNKNOWN_DIM, describe, quiet, tensor_type

_FLOATS = (mstype.float16, mstype.float32, mstype.float64)
_MODES = ("align_corners", "half_pixel")
_ATTRS = {"coordinate_transformation_mode": "align_corners"}


def _check_mode(name: str, mode) -> None:
    if mode not in _MODES:
        raise RuntimeError(f"For '{name}', coordinate_transformation_mode not support now: "
                           f"{mode!r} (CPU: 'align_corners', 'half_pixel').")


def _check_x(name: str, arg: str, x) -> None:
    t = tensor_type(name, arg, x)
    if t not in _FLOATS:
        raise TypeError(f"For primitive[{name}], the input argument[{arg}] must be a type of "
                        f"{{Tensor[Float16], Tensor[Float32], Tensor[Float64]}}, but got "
                        f"Tensor[{t}].")
    if x.ndim != 3:
        raise ValueError(f"For '{name}', the '{arg}' must be 3-D (N, C, W), but got shape "
                         f"{list(x.shape)}.")


def _size_width(size) -> int:
    """The output width ``size`` names (:data:`UNKNOWN_DIM` when known only at run time)."""
    if isinstance(size, AbstractTuple) and len(size.elements) == 1 and isinstance(
            size.elements[0], AbstractScalar) and size.elements[0].kind in (int, np.int64):
        e = size.elements[0]
        return int(e.value) if e.is_known else UNKNOWN_DIM
    if isinstance(size, AbstractTensor) and size.dtype in (mstype.int32, mstype.int64) and \
            tuple(size.shape) in ((1,), (), (UNKNOWN_DIM,)):
        return UNKNOWN_DIM if size.value is None else int(np.asarray(size.value).reshape(-1)[0])
    raise TypeError(f"For 'ResizeLinear1D', the 'size' must be a 1-element int32/int64 Tensor "
                    f"or a tuple of one int, but got {describe(size)}.")


def _forward_infer(x, size, coordinate_transformation_mode="align_corners"):
    _check_x("ResizeLinear1D", "x", x)
    _check_mode("ResizeLinear1D", coordinate_transformation_mode)
    width = _size_width(size)
    if width != UNKNOWN_DIM and width <= 0:
        raise ValueError(f"For 'ResizeLinear1D', the 'size' must be positive, but got {width}.")
    return AbstractTensor(x.dtype, tuple(x.shape[:2]) + (width,))


def _grad_infer(grads, input_x, coordinate_transformation_mode="align_corners"):
    _check_x("ResizeLinear1DGrad", "grads", grads)
    _check_x("ResizeLinear1DGrad", "input_x", input_x)
    _check_mode("ResizeLinear1DGrad", coordinate_transformation_mode)
    if grads.dtype != input_x.dtype:
        raise TypeError(f"For 'ResizeLinear1DGrad', 'grads' and 'input_x' must have one dtype, "
                        f"but got {grads.dtype} and {input_x.dtype}.")
    return AbstractTensor(input_x.dtype, tuple(input_x.shape))


def _caches(n_in: int, n_out: int, mode: str, t):
    """``(lower, upper, lerp)`` of each output position, in the computing type ``t``."""
    w = np.arange(n_out).astype(t)
    if n_out == 1:
        src = np.zeros(1, t)
    elif mode == "align_corners":
        src = (w * t(n_in - 1) / t(n_out - 1)).astype(t)
    else:  # the 0.5 is a double: the whole expression is double, then rounded to t
        src = ((w.astype(np.float64) + 0.5) * n_in / n_out - 0.5).astype(t)
    low = np.floor(src)
    lower = np.maximum(low, 0).astype(np.int64)
    upper = np.minimum(np.ceil(src), t(n_in - 1)).astype(np.int64)
    return lower, upper, (src - low).astype(t)


def _compute_type(dtype):
    return np.float32 if dtype == np.float16 else dtype.type


@quiet
def _forward(x, size, coordinate_transformation_mode="align_corners"):
    if np.size(size) != 1:  # a size Tensor whose length was known only at run time
        raise ValueError(f"For 'ResizeLinear1D', the 'size' must have one element, but got "
                         f"{np.size(size)}.")
    width = int(np.asarray(size).reshape(-1)[0])
    if width <= 0:
        raise ValueError(f"For 'ResizeLinear1D', the 'size' must be positive, but got {width}.")
    if width == x.shape[2]:
        return x.copy()
    t = _compute_type(x.dtype)
    lower, upper, lerp = _caches(x.shape[2], width, coordinate_transformation_mode, t)
    xc = x.astype(t, copy=False)
    left, right = xc[..., lower], xc[..., upper]
    return (left + (right - left) * lerp).astype(x.dtype, copy=False)


@quiet
def _backward(grads, input_x, coordinate_transformation_mode="align_corners"):
    n_in, n_out = input_x.shape[2], grads.shape[2]
    if n_in == n_out:
        return grads.copy()
    t = _compute_type(grads.dtype)
    lower, upper, lerp = _caches(n_in, n_out, coordinate_transformation_mode, t)
    g = grads.astype(t, copy=False)
    to_lower = (g.astype(np.float64) * (1.0 - lerp.astype(np.float64))).astype(t)
    to_upper = (g * lerp).astype(t)
    # the adds in the kernel's order: lower then upper of w = 0, 1, ... (interleaved)
    targets = np.stack([lower, upper], axis=1).reshape(-1)
    shares = np.stack([to_lower, to_upper], axis=-1).reshape(g.shape[:2] + (-1,))
    out = np.zeros(tuple(input_x.shape[:2]) + (n_in,), t)
    rows = out.reshape(-1, n_in)
    np.add.at(rows, (np.arange(rows.shape[0])[:, None], targets[None, :]),
              shares.reshape(rows.shape[0], -1))
    return out.astype(grads.dtype, copy=False)


ResizeLinear1D = OpDef("ResizeLinear1D", _forward_infer, _forward, attrs=dict(_ATTRS))
ResizeLinear1DGrad = OpDef("ResizeLinear1DGrad", _grad_infer, _backward, attrs=dict(_ATTRS))
