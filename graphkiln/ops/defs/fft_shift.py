"""``FFTShift(input, dim)`` and ``IFFTShift(input, dim)``: ``input`` rolled by half of each
dimension in ``dim`` (all of them when None), so that the zero frequency moves to the middle
(and back). ``dim`` is an input, an int or a tuple of ints that may be known only when the
graph runs (``mutable``), as MindSpore's primitives; the dimensions may be too."""
from __future__ import annotations

import numpy as np

from ...ir.abstract import AbstractScalar, AbstractTensor, AbstractTuple
from ...ir.primitive import OpDef
from ._infer import describe, tensor_type


def _infer_for(name: str):
    def infer(input, dim=None):  # noqa: A002
        t = tensor_type(name, "input", input)
        elements = dim.elements if isinstance(dim, AbstractTuple) else (
            () if dim is None else (dim,))
        for e in elements:
            ok = isinstance(e, AbstractScalar) and (
                e.value is None and len(elements) == 1 or
                issubclass(e.kind, (int, np.integer)) and not issubclass(e.kind, bool))
            if not ok:
                raise TypeError(f"For '{name}', the 'dim' must be None, an int or a tuple of "
                                f"ints, but got {describe(dim)}.")
            if e.is_known and e.value is not None and not -max(
                    len(input.shape), 1) <= e.value < max(len(input.shape), 1):
                raise ValueError(f"For '{name}', the 'dim' must be in [{-len(input.shape)}, "
                                 f"{len(input.shape)}), but got {e.value}.")
        return AbstractTensor(t, tuple(input.shape))
    return infer


def axes(x: np.ndarray, dim) -> tuple:
    """The dimensions ``dim`` names (every one when None)."""
    if dim is None:
        return tuple(range(x.ndim))
    return tuple(int(d) for d in (dim if isinstance(dim, (tuple, list)) else (dim,)))


FFTShift = OpDef("FFTShift", _infer_for("FFTShift"),
                 lambda input, dim=None: np.fft.fftshift(input, axes(input, dim)))  # noqa: A006
IFFTShift = OpDef("IFFTShift", _infer_for("IFFTShift"),
                  lambda input, dim=None: np.fft.ifftshift(input, axes(input, dim)))  # noqa: A006
