"""Spectral math of the audio transforms (NumPy, float64 inside): windows, the short-time
Fourier transform, mel filter banks. The formulas are torchaudio's, which MindSpore's
C++ audio ops follow."""
from __future__ import annotations

import numpy as np

from .utils import MelType, NormType, WindowType

_KAISER_BETA = 12.0


def window(kind: WindowType, length: int) -> np.ndarray:
    """A periodic window of ``length`` samples (the symmetric one of ``length + 1``, less
    its last sample)."""
    make = {WindowType.HANN: np.hanning, WindowType.HAMMING: np.hamming,
            WindowType.BLACKMAN: np.blackman, WindowType.BARTLETT: np.bartlett,
            WindowType.KAISER: lambda n: np.kaiser(n, _KAISER_BETA)}[WindowType(kind)]
    return make(length + 1)[:-1] if length > 1 else np.ones(length)


def stft_power(wave: np.ndarray, n_fft: int, win_length: int, hop: int, pad: int,
               kind: WindowType, power: float, normalized: bool, center: bool,
               pad_mode: str, onesided: bool = True) -> np.ndarray:
    """``|STFT(wave)| ** power`` over the last axis, as (..., n_fft // 2 + 1, frames), or
    every one of the ``n_fft`` frequencies (..., n_fft, frames) when not ``onesided``."""
    x = np.asarray(wave, dtype=np.float64)
    lead = [(0, 0)] * (x.ndim - 1)
    if pad:
        x = np.pad(x, lead + [(pad, pad)])
    if center:
        x = np.pad(x, lead + [(n_fft // 2, n_fft // 2)], mode=pad_mode)
    win = np.zeros(n_fft)
    left = (n_fft - win_length) // 2
    win[left:left + win_length] = window(kind, win_length)
    frames = 1 + (x.shape[-1] - n_fft) // hop
    starts = np.arange(frames) * hop
    framed = x[..., starts[:, None] + np.arange(n_fft)] * win  # (..., frames, n_fft)
    spec = np.abs((np.fft.rfft if onesided else np.fft.fft)(framed, axis=-1))
    if normalized:
        spec /= np.sqrt(np.sum(win ** 2))
    return np.swapaxes(spec ** power, -1, -2)


def _hz_to_mel(freq, mel_type: MelType):
    freq = np.asarray(freq, dtype=np.float64)
    if MelType(mel_type) == MelType.HTK:
        return 2595.0 * np.log10(1.0 + freq / 700.0)
    linear = freq / (200.0 / 3)
    logs = 15.0 + np.log(np.maximum(freq, 1e-10) / 1000.0) / (np.log(6.4) / 27.0)
    return np.where(freq >= 1000.0, logs, linear)


def _mel_to_hz(mels, mel_type: MelType):
    mels = np.asarray(mels, dtype=np.float64)
    if MelType(mel_type) == MelType.HTK:
        return 700.0 * (10.0 ** (mels / 2595.0) - 1.0)
    linear = mels * (200.0 / 3)
    logs = 1000.0 * np.exp((np.log(6.4) / 27.0) * (mels - 15.0))
    return np.where(mels >= 15.0, logs, linear)


def mel_filters(n_freqs: int, f_min: float, f_max: float, n_mels: int, sample_rate: int,
                norm: NormType, mel_type: MelType) -> np.ndarray:
    """Triangular mel filters, (n_freqs, n_mels)."""
    mels = np.linspace(_hz_to_mel(f_min, mel_type), _hz_to_mel(f_max, mel_type), n_mels + 2)
    return _triangles(n_freqs, sample_rate, _mel_to_hz(mels, mel_type), n_mels, norm)


def linear_filters(n_freqs: int, f_min: float, f_max: float, n_filter: int,
                   sample_rate: int) -> np.ndarray:
    """Triangular filters evenly spaced in Hz, (n_freqs, n_filter)."""
    points = np.linspace(f_min, f_max, n_filter + 2)
    return _triangles(n_freqs, sample_rate, points, n_filter, NormType.NONE)


def _triangles(n_freqs: int, sample_rate: int, points: np.ndarray, count: int,
               norm: NormType) -> np.ndarray:
    freqs = np.linspace(0, sample_rate // 2, n_freqs)
    n_mels = count
    gaps = np.diff(points)
    slopes = points[None, :] - freqs[:, None]
    down = -slopes[:, :-2] / gaps[:-1]
    up = slopes[:, 2:] / gaps[1:]
    filters = np.maximum(0.0, np.minimum(down, up))
    if NormType(norm) == NormType.SLANEY:
        filters *= 2.0 / (points[2:n_mels + 2] - points[:n_mels])
    return filters


def dct_matrix(n_mfcc: int, n_mels: int, ortho: bool) -> np.ndarray:
    """The DCT-II basis, (n_mels, n_mfcc): orthonormal, or unnormalised times 2."""
    k = np.arange(n_mfcc)[:, None]
    dct = np.cos(np.pi / n_mels * (np.arange(n_mels) + 0.5) * k)
    if ortho:
        dct[0] *= 1.0 / np.sqrt(2.0)
        dct *= np.sqrt(2.0 / n_mels)
    else:
        dct *= 2.0
    return dct.T
