"""``ops.fft`` and its family (``ifft``, ``fft2``, ``fftn``, ``rfft``, ``irfft``, ``hfft``,
``ihfft``... with MindSpore 2.10's arguments: ``n``/``s`` lengths, ``dim``, ``norm``), the
shifts ``fftshift``/``ifftshift`` and the frequencies ``fftfreq``/``rfftfreq``, over the
primitives of :mod:`.defs.fft`."""
from __future__ import annotations

import numpy as np

import graphkiln.ops.functional as F

from ..common import dtype as mstype
from ..common.symbolic_scalar import SymbolicScalar
from ..common.symbolic_sequence import SymbolicSequence
from ..common.tensor import Tensor
from .array_ops import pad
from .defs import fft as FT
from .defs import fft_shift as FS

__all__ = ["fft", "ifft", "fft2", "ifft2", "fftn", "ifftn", "rfft", "irfft", "rfft2",
           "irfft2", "rfftn", "irfftn", "hfft", "ihfft", "hfft2", "ihfft2", "hfftn", "ihfftn",
           "fftshift", "ifftshift", "fftfreq", "rfftfreq", "stft"]

_NORMS = ("backward", "forward", "ortho")
_SWAP = {"backward": "forward", "forward": "backward", "ortho": "ortho"}


def _norm(name: str, norm) -> str:
    if norm is None:
        return "backward"
    if norm not in _NORMS:
        raise ValueError(f"For '{name}', 'norm' must be one of {list(_NORMS)} or None, but got "
                         f"{norm!r}.")
    return norm


def _plan(name: str, x, s, dim, half_input: bool = False) -> tuple:
    """The transform's ``(sizes, axes)`` as attributes when they are constants, else
    ``(s, dim)`` as run-time inputs (a ``mutable`` length or axis, or a length the input's
    dynamic shape gives) that the primitive's kernel resolves, as MindSpore's."""
    if not isinstance(x, Tensor):
        raise TypeError(f"For '{name}', the 'input' must be a Tensor, but got "
                        f"{type(x).__name__}.")
    if dim is None and (s is None or not isinstance(s, SymbolicSequence)):
        dim = tuple(range(x.ndim)) if s is None else tuple(range(x.ndim - len(s), x.ndim))
    dim = (dim,) if isinstance(dim, (int, SymbolicScalar)) else dim
    if _constant(s) and _constant(dim):
        lengths_known = s is not None or all(_constant(x.shape[d]) and x.shape[d] >= 0
                                             for d in dim if -x.ndim <= d < x.ndim)
        if lengths_known:
            return FT.plan(name, tuple(x.shape), s, dim, half_input), False
    return (tuple(s) if isinstance(s, list) else s,
            tuple(dim) if isinstance(dim, list) else dim), True


def _constant(v) -> bool:
    """A plain int, or None/a tuple or list of plain ints (no run-time values)."""
    if v is None or (isinstance(v, int) and not isinstance(v, bool)):
        return True
    return isinstance(v, (tuple, list)) and all(
        isinstance(e, int) and not isinstance(e, bool) for e in v)


def _apply(opdef, name: str, x, s, dim, half_input: bool = False, **attrs) -> Tensor:
    (sizes, axes), run_time = _plan(name, x, s, dim, half_input)
    if run_time:
        return opdef(x, sizes, axes, **attrs)
    return opdef(x, sizes=sizes, axes=axes, **attrs)


def cosine_transform(input, s=None, dim=None, inverse=False) -> Tensor:  # noqa: A002
    """The orthonormal type-2 DCT (or its inverse) over ``dim``, each axis cut or
    zero-padded to its length in ``s`` (lengths and axes may be run-time values)."""
    return _apply(FT.DCTN, "dctn", input, s, dim, inverse=inverse)


def _one(n):
    return None if n is None else (n,)


def fftn(input, s=None, dim=None, norm=None) -> Tensor:  # noqa: A002 - MindSpore's names
    """The n-dimensional discrete Fourier transform over ``dim``."""
    return _apply(FT.FFTN, "fftn", input, s, dim, norm=_norm("fftn", norm))


def ifftn(input, s=None, dim=None, norm=None) -> Tensor:  # noqa: A002
    """The inverse of :func:`fftn`."""
    return _apply(FT.FFTN, "ifftn", input, s, dim, norm=_norm("ifftn", norm), inverse=True)


def rfftn(input, s=None, dim=None, norm=None) -> Tensor:  # noqa: A002
    """:func:`fftn` keeping the non-negative frequencies of the last axis (of a real
    ``input``, the half that determines the rest)."""
    return _apply(FT.RFFTN, "rfftn", input, s, dim, norm=_norm("rfftn", norm))


def irfftn(input, s=None, dim=None, norm=None) -> Tensor:  # noqa: A002
    """The inverse of :func:`rfftn`: real values (the last axis ``2 * (m - 1)`` long unless
    ``s`` says)."""
    return _apply(FT.IRFFTN, "irfftn", input, s, dim, half_input=True,
                  norm=_norm("irfftn", norm))


def fft(input, n=None, dim=-1, norm=None) -> Tensor:  # noqa: A002
    """The one-dimensional discrete Fourier transform along ``dim``."""
    return fftn(input, _one(n), (dim,), norm)


def ifft(input, n=None, dim=-1, norm=None) -> Tensor:  # noqa: A002
    return ifftn(input, _one(n), (dim,), norm)


def rfft(input, n=None, dim=-1, norm=None) -> Tensor:  # noqa: A002
    return rfftn(input, _one(n), (dim,), norm)


def irfft(input, n=None, dim=-1, norm=None) -> Tensor:  # noqa: A002
    return irfftn(input, _one(n), (dim,), norm)


def fft2(input, s=None, dim=(-2, -1), norm=None) -> Tensor:  # noqa: A002
    return fftn(input, s, dim, norm)


def ifft2(input, s=None, dim=(-2, -1), norm=None) -> Tensor:  # noqa: A002
    return ifftn(input, s, dim, norm)


def rfft2(input, s=None, dim=(-2, -1), norm=None) -> Tensor:  # noqa: A002
    return rfftn(input, s, dim, norm)


def irfft2(input, s=None, dim=(-2, -1), norm=None) -> Tensor:  # noqa: A002
    return irfftn(input, s, dim, norm)


def hfftn(input, s=None, dim=None, norm=None) -> Tensor:  # noqa: A002
    """The transform of a signal whose spectrum is Hermitian (``input``, its half along the
    last of ``dim``): real values."""
    x = F.conj(input) if input.dtype.is_complex else input
    return irfftn(x, s, dim, _SWAP[_norm("hfftn", norm)])


def ihfftn(input, s=None, dim=None, norm=None) -> Tensor:  # noqa: A002
    """The inverse of :func:`hfftn`: the half spectrum of a real ``input``."""
    return F.conj(rfftn(input, s, dim, _SWAP[_norm("ihfftn", norm)]))


def hfft(input, n=None, dim=-1, norm=None) -> Tensor:  # noqa: A002
    return hfftn(input, _one(n), (dim,), norm)


def ihfft(input, n=None, dim=-1, norm=None) -> Tensor:  # noqa: A002
    return ihfftn(input, _one(n), (dim,), norm)


def hfft2(input, s=None, dim=(-2, -1), norm=None) -> Tensor:  # noqa: A002
    return hfftn(input, s, dim, norm)


def ihfft2(input, s=None, dim=(-2, -1), norm=None) -> Tensor:  # noqa: A002
    return ihfftn(input, s, dim, norm)


def fftshift(input, dim=None) -> Tensor:  # noqa: A002
    """``input`` rolled so that the zero frequency is in the middle of ``dim``."""
    return FS.FFTShift(input, dim)


def ifftshift(input, dim=None) -> Tensor:  # noqa: A002
    """The inverse of :func:`fftshift`."""
    return FS.IFFTShift(input, dim)


def _frequencies(values: np.ndarray, dtype) -> Tensor:
    t = mstype.float32 if dtype is None else mstype.to_type(dtype)
    return Tensor(values.astype(t.np_dtype), t)


def fftfreq(n: int, d: float = 1.0, dtype=None) -> Tensor:
    """The sample frequencies of an ``n``-point transform with spacing ``d``."""
    return _frequencies(np.fft.fftfreq(n, d), dtype)


def rfftfreq(n: int, d: float = 1.0, dtype=None) -> Tensor:
    """The non-negative sample frequencies of an ``n``-point real transform."""
    return _frequencies(np.fft.rfftfreq(n, d), dtype)


_STFT_PADS = {"REFLECT": "reflect", "CONSTANT": "constant", "REPLICATE": "replicate"}


def stft(x, n_fft: int, hop_length=None, win_length=None, window=None, center: bool = True,
         pad_mode: str = "REFLECT", normalized: bool = False, onesided=None,
         return_complex=None) -> Tensor:
    """The short-time Fourier transform of the 1-D signal ``x`` (or a batch of them, 2-D):
    ``(frequencies, frames)`` of the transforms of ``n_fft``-long windowed frames
    ``hop_length`` apart (the signal padded by ``n_fft // 2`` at both ends when
    ``center``); the real and imaginary parts on a last axis unless ``return_complex``."""
    if not isinstance(x, Tensor) or x.ndim not in (1, 2):
        raise ValueError(f"For 'stft', expected a 1-D tensor or a 2-D tensor, but got "
                         f"{getattr(x, 'ndim', type(x).__name__)}")
    hop = n_fft // 4 if hop_length is None else hop_length
    win = n_fft if win_length is None else win_length
    if not 0 < win <= n_fft or hop <= 0:
        raise ValueError(f"For 'stft', 'win_length' must be in (0, n_fft] and 'hop_length' "
                         f"positive, but got {win} and {hop}.")
    window = F.ones((win,), mstype.float32) if window is None else window
    complex_in = x.dtype.is_complex or window.dtype.is_complex
    onesided = not complex_in if onesided is None else onesided
    return_complex = complex_in if return_complex is None else return_complex
    if center:
        if pad_mode not in _STFT_PADS:
            raise ValueError(f"For 'stft', 'pad_mode' must be one of {list(_STFT_PADS)}, but "
                             f"got {pad_mode!r}.")
        x = pad(x, (n_fft // 2, n_fft // 2), _STFT_PADS[pad_mode])
    length = x.shape[-1]
    if length < n_fft:
        raise ValueError(f"For 'stft', the signal ({length}) is shorter than 'n_fft' "
                         f"({n_fft}).")
    frames = 1 + (length - n_fft) // hop
    index = np.arange(frames)[:, None] * hop + np.arange(n_fft)[None, :]
    cut = F.gather(x, Tensor(index.astype(np.int64)), x.ndim - 1)  # (..., frames, n_fft)
    left = (n_fft - win) // 2
    full_window = pad(window, (left, n_fft - win - left))
    if complex_in:  # (one complex dtype for both: double when either is)
        wide = {x.dtype, window.dtype} & {mstype.float64, mstype.complex128}
        ctype = mstype.complex128 if wide else mstype.complex64
        cut, full_window = F.cast(cut, ctype), F.cast(full_window, ctype)
    spectrum = (rfft if onesided else fft)(F.mul(cut, full_window), dim=-1,
                                           norm="ortho" if normalized else None)
    spectrum = F.swapaxes(spectrum, -1, -2)  # (..., frequencies, frames)
    if return_complex:
        return spectrum
    return F.stack([F.real(spectrum), F.imag(spectrum)], -1)
