"""Complex-number primitives: ``Complex(real, imag)``, ``Real``, ``Imag``, ``Conj``,
``Angle``. A complex64 tensor has float32 parts, complex128 float64 parts."""
from __future__ import annotations

import numpy as np

from ...common import dtype as mstype
from ...ir.abstract import AbstractTensor
from ...ir.primitive import OpDef
from ._infer import (
    COMPLEX,
    FLOATS,
    NUMBERS,
    broadcast_shapes,
    quiet,
    require_dtype,
    shape,
    tensor_type,
)

_PART = {mstype.complex64: mstype.float32, mstype.complex128: mstype.float64}
_WHOLE = {mstype.float32: mstype.complex64, mstype.float64: mstype.complex128}


def _complex_infer(real, imag):
    tr = tensor_type("Complex", "real", real)
    ti = tensor_type("Complex", "imag", imag)
    require_dtype("Complex", "real", tr, (mstype.float32, mstype.float64))
    if ti is not tr:
        raise TypeError(f"For primitive[Complex], the input type must be same, but got "
                        f"'real' {tr} and 'imag' {ti}.")
    return AbstractTensor(_WHOLE[tr], broadcast_shapes("Complex", shape(real), shape(imag)))


@quiet
def _complex(real, imag):
    return np.asarray(real + 1j * np.asarray(imag)).astype(
        np.complex128 if np.asarray(real).dtype == np.float64 else np.complex64)


def _part_infer(name: str):
    """``Real``/``Imag``/``Angle``: the float part type of a complex tensor (a real tensor
    keeps its type)."""
    def infer(x):
        t = tensor_type(name, "input", x)
        require_dtype(name, "input", t, NUMBERS + COMPLEX if name != "Angle" else FLOATS + COMPLEX)
        return AbstractTensor(_PART.get(t, t), shape(x))
    return infer


def _part_kernel(fn):
    @quiet
    def kernel(x):
        x = np.asarray(x)
        part = {np.dtype(np.complex64): np.float32, np.dtype(np.complex128): np.float64}
        return np.asarray(fn(x)).astype(part.get(x.dtype, x.dtype))
    kernel.__name__ = fn.__name__
    return kernel


def _conj_infer(x):
    t = tensor_type("Conj", "input", x)
    require_dtype("Conj", "input", t, NUMBERS + COMPLEX)
    return AbstractTensor(t, shape(x))


Complex = OpDef("Complex", _complex_infer, _complex)
Real = OpDef("Real", _part_infer("Real"), _part_kernel(np.real))
Imag = OpDef("Imag", _part_infer("Imag"), _part_kernel(np.imag))
Angle = OpDef("Angle", _part_infer("Angle"), _part_kernel(np.angle))
Conj = OpDef("Conj", _conj_infer, quiet(np.conj))
