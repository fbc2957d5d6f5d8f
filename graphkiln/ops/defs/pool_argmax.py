"""Max pooling that also gives where each maximum is: ``MaxPoolWithArgmaxV2`` (NCHW) and
``MaxPool3DWithArgmax`` (NCDHW), as MindSpore's: dilated windows, symmetric ``pads`` of at
most half the kernel (counted as -inf), ``ceil_mode``; the index is the flat position of the
maximum in the unpadded spatial plane (``H*W`` or ``D*H*W``) of its (n, c), int64 or int32
(``argmax_type``). Their gradient (rules/pool3d.py) scatters ``dout`` to those positions.
"""
from __future__ import annotations

import numpy as np

import graphkiln.ops.windows as W

from ...common import dtype as mstype
from ...ir.abstract import AbstractTensor, AbstractTuple
from ...ir.primitive import OpDef
from ._infer import FLOATS, quiet, shapes_match, tensor_type
from .conv import spatial


class _ArgmaxPool:
    """One argmax pool: its name, spatial rank and attribute names."""

    def __init__(self, name: str, rank: int, kernel_attr: str, attrs: dict):
        self.name, self.rank, self.kernel_attr = name, rank, kernel_attr
        self.attrs = {kernel_attr: 1, "strides": None, "pads": 0, "dilation": (1,) * rank,
                      "ceil_mode": False, "argmax_type": mstype.int64, **attrs}

    def geometry(self, sizes, attrs: dict):
        """``(kernel, stride, dilation, pads, out)``."""
        a = {**self.attrs, **attrs}
        n = self.rank
        kernel = spatial(self.name, self.kernel_attr, a[self.kernel_attr], n)
        stride = kernel if a["strides"] is None else spatial(self.name, "strides",
                                                             a["strides"], n)
        dilation = spatial(self.name, "dilation", a["dilation"], n)
        pads = (a["pads"],) * n if isinstance(a["pads"], int) else tuple(a["pads"])
        if len(pads) != n or any(p < 0 or 2 * p > k for p, k in zip(pads, kernel)):
            raise ValueError(f"For '{self.name}', the 'pads' must be {n} ints in [0, kernel "
                             f"size / 2], but got {a['pads']!r}.")
        pairs = tuple((p, p) for p in pads)
        out = W.out_sizes(sizes, kernel, stride, dilation, pairs, bool(a["ceil_mode"]))
        if any(s >= 0 and o < 1 for o, s in zip(out, sizes)):
            raise ValueError(f"For '{self.name}', the input spatial shape {list(sizes)} is "
                             f"smaller than the dilated kernel after padding.")
        return kernel, stride, dilation, pairs, out

    def infer(self, x, **attrs):
        t = tensor_type(self.name, "x", x)
        if t not in FLOATS[:3]:
            raise TypeError(f"For primitive[{self.name}], the input argument[x] must be a type "
                            f"of {{Tensor[Float16], Tensor[Float32], Tensor[Float64]}}, but "
                            f"got Tensor[{t}].")
        if x.ndim != self.rank + 2:
            raise ValueError(f"For '{self.name}', the dimension of 'x' must be "
                             f"{self.rank + 2}, but got {x.ndim}.")
        index_type = {**self.attrs, **attrs}["argmax_type"]
        if index_type not in (mstype.int32, mstype.int64):
            raise TypeError(f"For '{self.name}', the 'argmax_type' must be int32 or int64, "
                            f"but got {index_type}.")
        shape = tuple(x.shape[:2]) + self.geometry(x.shape[2:], attrs)[4]
        return AbstractTuple([AbstractTensor(t, shape), AbstractTensor(index_type, shape)])

    def kernel(self, x, **attrs):
        kernel, stride, dilation, pairs, out = self.geometry(x.shape[2:], attrs)
        extra = tuple(max((o - 1) * s + (k - 1) * d + 1 - (n + b + e), 0)
                      for o, s, k, d, n, (b, e) in zip(out, stride, kernel, dilation,
                                                       x.shape[2:], pairs))
        xp = W.pad_input(x, pairs, -np.inf, extra)
        taps = W.windows(xp, kernel, stride, dilation, out).reshape(x.shape[:2] + out + (-1,))
        best = np.argmax(taps, axis=-1)
        values = np.take_along_axis(taps, best[..., None], -1)[..., 0]
        flat = np.zeros(best.shape, np.int64)
        for axis, (tap, s, d, (b, _), n) in enumerate(zip(
                np.unravel_index(best, kernel), stride, dilation, pairs, x.shape[2:])):
            start = np.arange(best.shape[2 + axis]) * s - b
            flat = flat * n + start.reshape((-1,) + (1,) * (self.rank - 1 - axis)) + tap * d
        index_type = mstype.dtype_to_nptype({**self.attrs, **attrs}["argmax_type"])
        return values.astype(x.dtype, copy=False), flat.astype(index_type)

    def opdef(self) -> OpDef:
        return OpDef(self.name, self.infer, quiet(self.kernel), attrs=dict(self.attrs))


MaxPoolWithArgmaxV2 = _ArgmaxPool("MaxPoolWithArgmaxV2", 2, "kernel_size", {}).opdef()
MaxPool3DWithArgmax = _ArgmaxPool("MaxPool3DWithArgmax", 3, "ksize",
                                  {"strides": 1, "data_format": "NCDHW"}).opdef()


# ------------------------------------------------------------------ MaxPoolGradGradWithArgmax

_GG = "MaxPoolGradGradWithArgmax"


def _check_window_attr(name: str, arg: str, v) -> None:
    ok = (isinstance(v, int) and not isinstance(v, bool) and v > 0) or (
        isinstance(v, (tuple, list)) and len(v) in (2, 4)
        and all(isinstance(e, int) and not isinstance(e, bool) and e > 0 for e in v))
    if not ok:
        raise ValueError(f"For '{name}' the '{arg}' must be an positive int number or a tuple "
                         f"of two or four positive int numbers, but got {v}")


def _window_check_attrs(name: str):
    """MindSpore's checks of the window attributes (which the kernels do not use)."""
    def check(attrs: dict) -> None:
        _check_window_attr(name, "kernel_size", attrs.get("kernel_size", 1))
        _check_window_attr(name, "strides", attrs.get("strides", 1))
        mode = attrs.get("pad_mode", "VALID")
        if not isinstance(mode, str) or mode.upper() not in ("VALID", "SAME"):
            raise ValueError(f"For '{name}', the 'pad_mode' must be str and must be in "
                             f"'['VALID', 'SAME']', but got {mode.upper()!r}.")
    return check


def _gg_infer(x, grad, argmax, **attrs):
    for arg, a in (("x", x), ("grad", grad)):
        t = tensor_type(_GG, arg, a)
        if t not in (mstype.float16, mstype.float32):
            raise TypeError(f"For primitive[{_GG}], the input argument[{arg}] must be a type "
                            f"of {{Tensor[Float16], Tensor[Float32]}}, but got Tensor[{t}].")
    if x.dtype != grad.dtype:
        raise TypeError(f"For primitive[{_GG}], the 'x' and 'grad' must have the same type, "
                        f"but got Tensor[{x.dtype}] and Tensor[{grad.dtype}].")
    ti = tensor_type(_GG, "argmax", argmax)
    if ti not in (mstype.int32, mstype.int64):
        raise TypeError(f"For primitive[{_GG}], the input argument[argmax] must be a type of "
                        f"{{Tensor[Int32], Tensor[Int64]}}, but got Tensor[{ti}].")
    for arg, a in (("x", x), ("grad", grad), ("argmax", argmax)):
        if a.ndim != 4:
            raise ValueError(f"For primitive[{_GG}], the dimension of '{arg}' must be 4, but "
                             f"got {a.ndim}.")
    if not shapes_match(grad.shape, x.shape):
        raise ValueError(f"For primitive[{_GG}], the shape of 'grad' {list(grad.shape)} must "
                         f"be the shape of 'x' {list(x.shape)}.")
    return AbstractTensor(grad.dtype, tuple(argmax.shape))


def flat_argmax(argmax: np.ndarray, plane: int) -> np.ndarray:
    """``argmax`` (indices into the ``C*H*W`` elements of its batch entry) as indices into the
    whole flattened input."""
    lead = (np.arange(argmax.shape[0], dtype=np.int64) * plane).reshape((-1, 1, 1, 1))
    return argmax.astype(np.int64) + lead


@quiet
def _gg_kernel(x, grad, argmax, **attrs):
    """``grad``'s element at each flat index ``n*C*H*W + argmax[n, ...]``; an index outside
    ``grad`` gives 0 (MindSpore 2.10's CPU kernel reads outside its buffer there). The window
    attributes are not used, as by that kernel."""
    idx = flat_argmax(argmax, int(np.prod(x.shape[1:])))
    flat = grad.reshape(-1)
    inside = (idx >= 0) & (idx < flat.size)
    if not flat.size:
        return np.zeros(argmax.shape, grad.dtype)
    return np.where(inside, flat[np.where(inside, idx, 0)], 0).astype(grad.dtype)


MaxPoolGradGradWithArgmax = OpDef(_GG, _gg_infer, _gg_kernel,
                                  attrs={"kernel_size": 1, "strides": 1, "pad_mode": "VALID"},
                                  check_attrs=_window_check_attrs(_GG))


# ------------------------------------------------------------------ MaxPoolGradWithArgmax

_G = "MaxPoolGradWithArgmax"


def _grad_infer(x, grad, argmax, **attrs):
    for arg, a in (("x", x), ("grad", grad)):
        t = tensor_type(_G, arg, a)
        if t not in FLOATS[:3]:
            raise TypeError(f"For primitive[{_G}], the input argument[{arg}] must be a type "
                            f"of {{Tensor[Float16], Tensor[Float32], Tensor[Float64]}}, but "
                            f"got Tensor[{t}].")
    ti = tensor_type(_G, "argmax", argmax)
    if ti not in (mstype.int32, mstype.int64):
        raise TypeError(f"For primitive[{_G}], the input argument[argmax] must be a type of "
                        f"{{Tensor[Int32], Tensor[Int64]}}, but got Tensor[{ti}].")
    for arg, a in (("x", x), ("grad", grad), ("argmax", argmax)):
        if a.ndim != 4:
            raise ValueError(f"For primitive[{_G}], the {arg}_rank must be equal to 4, but "
                             f"got {a.ndim}.")
    if not shapes_match(grad.shape, argmax.shape):
        raise ValueError(f"For primitive[{_G}], the shape of 'argmax' {list(argmax.shape)} "
                         f"must be the shape of 'grad' {list(grad.shape)}.")
    return AbstractTensor(grad.dtype, tuple(x.shape))


@quiet
def _grad_kernel(x, grad, argmax, **attrs):
    """Zeros of ``x``'s shape (in ``grad``'s dtype) with each element of ``grad`` added at
    the flat index ``n*C*H*W + argmax[n, ...]``; as MindSpore's CPU kernel, an index past its
    batch entry lands in the next one, one outside the whole output adds nothing, and the
    window attributes are not used."""
    out = np.zeros(x.shape, grad.dtype)
    idx = flat_argmax(argmax, int(np.prod(x.shape[1:]))).reshape(-1)
    inside = (idx >= 0) & (idx < out.size)
    np.add.at(out.reshape(-1), idx[inside], grad.reshape(-1)[inside])
    return out


MaxPoolGradWithArgmax = OpDef(_G, _grad_infer, _grad_kernel,
                              attrs={"kernel_size": 1, "strides": 1, "pad_mode": "VALID",
                                     "data_format": "NCHW"},
                              check_attrs=_window_check_attrs(_G))


# ------------------------------------------------------------------ MaxPoolGradWithArgmaxV2

_G2 = "MaxPoolGradWithArgmaxV2"
_G2_TYPES = (mstype.float16, mstype.float32, mstype.float64, mstype.int16, mstype.int32,
             mstype.int64, mstype.int8, mstype.uint16, mstype.uint32, mstype.uint64,
             mstype.uint8)
_G2_DEFAULTS = {"kernel_size": 1, "strides": None, "pads": 0, "dilation": (1, 1),
                "ceil_mode": False, "argmax_type": mstype.int64}


def _v2_pair(arg: str, v, positive: bool = True) -> tuple:
    """An int or a tuple of 2 (or MindSpore's 4, whose last two count) ints as ``(h, w)``."""
    if isinstance(v, bool) or not isinstance(v, (int, tuple, list)):
        raise TypeError(f"For '{_G2}', the type of '{arg}' should be one of '['int', "
                        f"'tuple']', but got type '{type(v).__name__}'.")
    vals = (v, v) if isinstance(v, int) else tuple(v)
    if len(vals) in (2, 4) and all(isinstance(e, int) and not isinstance(e, bool)
                                   and (e > 0 or not positive and e == 0) for e in vals):
        return vals[-2:]
    raise ValueError(f"For '{_G2}' attr '{arg}' must be an positive int number or a tuple of "
                     f"two or four positive int numbers, but got {v}")


def v2_geometry(attrs: dict) -> tuple:
    """``(kernel, stride, pads, dilation)`` of ``MaxPoolGradWithArgmaxV2``'s attributes,
    each an ``(h, w)`` pair."""
    kernel = _v2_pair("kernel_size", attrs["kernel_size"])
    strides = attrs["strides"]
    stride = kernel if strides is None else _v2_pair("strides", strides)
    return (kernel, stride, _v2_pair("pads", attrs["pads"], positive=False),
            _v2_pair("dilation", attrs["dilation"]))


def _v2_check_attrs(attrs: dict) -> None:
    v2_geometry(attrs)
    if not isinstance(attrs["ceil_mode"], bool):
        raise TypeError(f"For '{_G2}', the type of 'ceil_mode' should be 'bool', but got type "
                        f"'{type(attrs['ceil_mode']).__name__}'.")


def _v2_infer(x, grad, argmax, **attrs):
    names = ", ".join(f"Tensor[{t}]" for t in sorted(_G2_TYPES, key=str))
    t = tensor_type(_G2, "x", x)
    if t not in _G2_TYPES:
        raise TypeError(f"For primitive[{_G2}], the input argument[x] must be a type of "
                        f"{{{names}}}, but got Tensor[{t}].")
    tg = tensor_type(_G2, "grad", grad)
    if tg is not t and not (tg in FLOATS[:3] and t in FLOATS[:3]):  # floats are cast
        raise TypeError(f"For primitive[{_G2}], the 'grad' must have the type of 'x', but got "
                        f"Tensor[{tg}] and Tensor[{t}].")
    ti = tensor_type(_G2, "argmax", argmax)
    if ti not in (mstype.int32, mstype.int64):
        raise TypeError(f"For primitive[{_G2}], the input argument[argmax] must be a type of "
                        f"{{Tensor[Int32], Tensor[Int64]}}, but got Tensor[{ti}].")
    for arg, a in (("x", x), ("grad", grad), ("argmax", argmax)):
        if a.ndim != 4:
            raise ValueError(f"For primitive[{_G2}], the {arg}_shape must be equal to 4, but "
                             f"got {a.ndim}.")
    if not shapes_match(grad.shape, argmax.shape) or \
            not shapes_match(grad.shape[:2], x.shape[:2]):
        raise ValueError(f"For primitive[{_G2}], the shape of 'argmax' {list(argmax.shape)} "
                         f"must be the shape of 'grad' {list(grad.shape)}, whose first two "
                         f"dimensions are those of 'x' {list(x.shape)}.")
    return AbstractTensor(t, tuple(x.shape))


def v2_window_mask(argmax: np.ndarray, size: tuple, attrs: dict) -> np.ndarray:
    """Which elements of ``argmax`` (flat indices into an ``H*W`` plane of ``size``) lie
    inside the span of their own pooling window; MindSpore's kernel drops the rest."""
    kernel, stride, pads, dilation = v2_geometry({**_G2_DEFAULTS, **attrs})
    idx = argmax.astype(np.int64)
    inside = (idx >= 0) & (idx < size[0] * size[1])
    coords = (idx // size[1], idx % size[1])
    for axis, (pos, k, s, p, d) in enumerate(zip(coords, kernel, stride, pads, dilation)):
        start = (np.arange(argmax.shape[2 + axis]) * s - p).reshape(
            (-1, 1) if axis == 0 else (-1,))
        inside &= (pos >= start) & (pos <= start + (k - 1) * d)
    return inside


@quiet
def _v2_kernel(x, grad, argmax, **attrs):
    """Zeros of ``x``'s shape and dtype with each element of ``grad`` added at its
    ``argmax`` position of the ``H*W`` plane of its (n, c), when that position lies in its
    window's span (MindSpore's kernel gathers each input element from the windows covering
    it)."""
    n, c, h, w = x.shape
    inside = v2_window_mask(argmax, (h, w), attrs)
    lead = (np.arange(n * c, dtype=np.int64) * (h * w)).reshape(n, c, 1, 1)
    out = np.zeros(x.size, x.dtype)
    np.add.at(out, (argmax.astype(np.int64) + lead)[inside], grad[inside].astype(x.dtype))
    return out.reshape(x.shape)


MaxPoolGradWithArgmaxV2 = OpDef(_G2, _v2_infer, _v2_kernel, attrs=dict(_G2_DEFAULTS),
                                check_attrs=_v2_check_attrs)
