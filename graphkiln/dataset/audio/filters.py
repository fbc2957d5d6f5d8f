"""IIR filtering of the audio transforms: ``lfilter`` (direct form, normalised by
``a[0]``, optionally clamped to [-1, 1]) and the biquad coefficients of torchaudio's
formulas, which MindSpore's C++ filters follow."""
from __future__ import annotations

import math

import numpy as np


def lfilter(wave: np.ndarray, a: list[float], b: list[float], clamp: bool) -> np.ndarray:
    """``y[n] = (sum_k b[k] x[n-k] - sum_{k>0} a[k] y[n-k]) / a[0]`` over the last axis."""
    x = np.asarray(wave, dtype=np.float64)
    lead = float(a[0])
    a = np.asarray(a, dtype=np.float64) / lead
    b = np.asarray(b, dtype=np.float64) / lead
    order = max(len(a), len(b))
    a = np.pad(a, (0, order - len(a)))
    b = np.pad(b, (0, order - len(b)))
    y = np.zeros_like(x)
    for n in range(x.shape[-1]):
        acc = b[0] * x[..., n]
        for k in range(1, order):
            if n - k < 0:
                break
            acc = acc + b[k] * x[..., n - k] - a[k] * y[..., n - k]
        y[..., n] = acc
    return np.clip(y, -1.0, 1.0) if clamp else y


def _w0_alpha(sample_rate: int, freq: float, q: float) -> tuple[float, float]:
    w0 = 2 * math.pi * freq / sample_rate
    return w0, math.sin(w0) / 2 / q


def lowpass(sample_rate: int, freq: float, q: float) -> tuple[list, list]:
    """(b, a) of a second-order low-pass filter."""
    w0, alpha = _w0_alpha(sample_rate, freq, q)
    c = math.cos(w0)
    return [(1 - c) / 2, 1 - c, (1 - c) / 2], [1 + alpha, -2 * c, 1 - alpha]


def highpass(sample_rate: int, freq: float, q: float) -> tuple[list, list]:
    w0, alpha = _w0_alpha(sample_rate, freq, q)
    c = math.cos(w0)
    return [(1 + c) / 2, -1 - c, (1 + c) / 2], [1 + alpha, -2 * c, 1 - alpha]


def bandpass(sample_rate: int, freq: float, q: float, const_skirt_gain: bool):
    w0, alpha = _w0_alpha(sample_rate, freq, q)
    gain = math.sin(w0) / 2 if const_skirt_gain else alpha
    return [gain, 0.0, -gain], [1 + alpha, -2 * math.cos(w0), 1 - alpha]


def bandreject(sample_rate: int, freq: float, q: float) -> tuple[list, list]:
    w0, alpha = _w0_alpha(sample_rate, freq, q)
    c = math.cos(w0)
    return [1.0, -2 * c, 1.0], [1 + alpha, -2 * c, 1 - alpha]


def allpass(sample_rate: int, freq: float, q: float) -> tuple[list, list]:
    w0, alpha = _w0_alpha(sample_rate, freq, q)
    c = math.cos(w0)
    return [1 - alpha, -2 * c, 1 + alpha], [1 + alpha, -2 * c, 1 - alpha]
