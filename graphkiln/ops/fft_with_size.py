"""``ops.FFTWithSize``: MindSpore's one primitive for FFT, IFFT, RFFT and IRFFT over the
last ``signal_ndim`` (1 to 3) axes, computed by graphkiln's ``FFTN``/``RFFTN``/``IRFFTN``
(so gradients and vmap come from their rules).

``real`` with ``inverse`` picks the transform; ``onesided=False`` makes RFFT return the
full spectrum and IRFFT take one (the real part of the inverse transform); IRFFT's
``signal_sizes`` gives the output lengths (the last one ``2 * (m - 1)`` or ``2 * m - 1``
for a last input axis of length ``m``; by default ``2 * (m - 1)``)."""
from __future__ import annotations

import graphkiln.ops.fft_ops as fft_ops

from ..common import dtype as mstype
from ..common.tensor import Tensor
from .composed_primitives import _check_bool, _Composed

__all__ = ["FFTWithSize"]

_NAME = "FFTWithSize"
_COMPLEX = (mstype.complex64, mstype.complex128)


class FFTWithSize(_Composed):
    """``FFTWithSize(signal_ndim, inverse, real, norm, onesided, signal_sizes)(x)``."""

    def __init__(self, signal_ndim: int, inverse: bool, real: bool, norm: str = "backward",
                 onesided: bool = True, signal_sizes=()):
        if isinstance(signal_ndim, bool) or not isinstance(signal_ndim, int):
            raise TypeError(f"For '{_NAME}', the 'signal_ndim' must be an int, but got "
                            f"{type(signal_ndim).__name__}.")
        if not 1 <= signal_ndim <= 3:
            raise ValueError(f"For '{_NAME}', the 'signal_ndim' must be 1, 2 or 3, but got "
                             f"{signal_ndim}.")
        self.signal_ndim = signal_ndim
        self.inverse = _check_bool(_NAME, "inverse", inverse)
        self.real = _check_bool(_NAME, "real", real)
        self.norm = fft_ops._norm(_NAME, norm)
        self.onesided = _check_bool(_NAME, "onesided", onesided)
        self.signal_sizes = tuple(signal_sizes)

    def _check_input(self, x) -> None:
        if not isinstance(x, Tensor):
            raise TypeError(f"For '{_NAME}', the 'x' must be a Tensor, but got "
                            f"{type(x).__name__}.")
        if x.ndim < self.signal_ndim:
            raise ValueError(f"For '{_NAME}', the dimension of 'x' must be at least "
                             f"signal_ndim = {self.signal_ndim}, but got {x.ndim}.")
        is_complex = x.dtype in _COMPLEX
        want_complex = not self.real or self.inverse
        if is_complex != want_complex:
            mode = {(False, False): "fft", (True, False): "ifft", (False, True): "rfft",
                    (True, True): "irfft"}[(self.inverse, self.real)]
            kinds = "complex64 or complex128" if want_complex else "a real or integer type"
            raise TypeError(f"For '{_NAME}', the input 'x' in {mode} mode must be {kinds}, "
                            f"but got {x.dtype}.")

    def _irfft_sizes(self, shape: tuple) -> tuple:
        """The output lengths of a one-sided IRFFT of an input of ``shape``."""
        m = shape[-1]
        if not self.signal_sizes:
            if m == 1:
                raise ValueError(f"For '{_NAME}', the last dimension of the input cannot be 1 "
                                 "when 'signal_sizes' is not given.")
            return tuple(shape[-self.signal_ndim:-1]) + (2 * (m - 1),)
        sizes = self.signal_sizes
        good = (len(sizes) == self.signal_ndim
                and tuple(sizes[:-1]) == tuple(shape[-self.signal_ndim:-1])
                and sizes[-1] in (2 * (m - 1), 2 * m - 1))
        if not good:
            raise ValueError(f"For '{_NAME}', got invalid signal_sizes {sizes} for an input "
                             f"of shape {tuple(shape)}: the last one must be {2 * (m - 1)} "
                             f"or {2 * m - 1}, the others the input's.")
        return sizes

    def __call__(self, x) -> Tensor:
        self._check_input(x)
        dims = tuple(range(-self.signal_ndim, 0))
        if not self.real:
            transform = fft_ops.ifftn if self.inverse else fft_ops.fftn
            return transform(x, None, dims, self.norm)
        if not self.inverse:
            if self.onesided:
                return fft_ops.rfftn(x, None, dims, self.norm)
            return fft_ops.fftn(x, None, dims, self.norm)
        if not self.onesided:
            return fft_ops.ifftn(x, None, dims, self.norm).real()
        return fft_ops.irfftn(x, self._irfft_sizes(tuple(x.shape)), dims, self.norm)
