"""Discrete Fourier transforms over a set of axes: ``FFTN(x, sizes, axes, norm, inverse)``
(complex to complex; a real or integer ``x`` is taken as complex), ``RFFTN`` (the half
spectrum along the last axis; of a complex ``x``, the first half of its full transform, as
MindSpore's) and ``IRFFTN`` (a half spectrum back to real values).

``axes`` are non-negative and distinct; ``sizes`` gives each axis' transform length (the
input is cut or zero-padded to it, as NumPy's ``s``; for ``IRFFTN`` the last one is the
output length); ``norm`` is ``"backward"`` (the forward transform unscaled, the inverse
scaled by ``1/n``), ``"forward"`` or ``"ortho"``. Results are complex128 (float64 for
``IRFFTN``) from float64/complex128 inputs, else complex64 (float32), as MindSpore's."""
from __future__ import annotations

import numpy as np

from ...common import dtype as mstype
from ...ir.abstract import AbstractTensor
from ...ir.primitive import OpDef
from ._infer import COMPLEX, NUMBERS, quiet, require_dtype, tensor_type

_WIDE = (mstype.float64, mstype.complex128)


def _complex_type(t: mstype.Type) -> mstype.Type:
    return mstype.complex128 if t in _WIDE else mstype.complex64


def _real_type(t: mstype.Type) -> mstype.Type:
    return mstype.float64 if t in _WIDE else mstype.float32


def _out_shape(shape: tuple, sizes: tuple, axes: tuple, half: bool) -> tuple:
    out = list(shape)
    for a, n in zip(axes, sizes):
        out[a] = n
    if half:
        out[axes[-1]] = sizes[-1] // 2 + 1
    return tuple(out)


def _infer(name: str, allowed, result, half: bool):
    def infer(x, sizes=(), axes=(), norm="backward", inverse=False):
        sizes, axes = tuple(sizes), tuple(axes)
        t = tensor_type(name, "input", x)
        require_dtype(name, "input", t, allowed)
        return AbstractTensor(result(t), _out_shape(tuple(x.shape), sizes, axes, half))
    return infer


@quiet
def _fftn(x, sizes=(), axes=(), norm="backward", inverse=False):
    x = np.asarray(x)
    fn = np.fft.ifftn if inverse else np.fft.fftn
    out_type = np.complex128 if x.dtype in (np.float64, np.complex128) else np.complex64
    return fn(x, s=sizes, axes=axes, norm=norm).astype(out_type)


@quiet
def _rfftn(x, sizes=(), axes=(), norm="backward"):
    x = np.asarray(x)
    out_type = np.complex128 if x.dtype in (np.float64, np.complex128) else np.complex64
    if x.dtype.kind != "c":
        return np.fft.rfftn(x, s=sizes, axes=axes, norm=norm).astype(out_type)
    full = np.fft.fftn(x, s=sizes, axes=axes, norm=norm)  # MindSpore's: the first half
    return np.take(full, range(sizes[-1] // 2 + 1), axis=axes[-1]).astype(out_type)


@quiet
def _irfftn(x, sizes=(), axes=(), norm="backward"):
    x = np.asarray(x)
    out_type = np.float64 if x.dtype in (np.float64, np.complex128) else np.float32
    return np.fft.irfftn(x, s=sizes, axes=axes, norm=norm).astype(out_type)


_ATTRS = {"sizes": (), "axes": (), "norm": "backward"}
FFTN = OpDef("FFTN", _infer("FFTN", NUMBERS + COMPLEX, _complex_type, False), _fftn,
             attrs={**_ATTRS, "inverse": False})
RFFTN = OpDef("RFFTN", _infer("RFFTN", NUMBERS + COMPLEX, _complex_type, True), _rfftn,
              attrs=_ATTRS)
IRFFTN = OpDef("IRFFTN", _infer("IRFFTN", NUMBERS + COMPLEX, _real_type, False), _irfftn,
               attrs=_ATTRS)
