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


def band(sample_rate: int, freq: float, q: float, noise: bool) -> tuple[list, list]:
    """A band-pass resonator (for tuned sounds; ``noise`` for unpitched ones)."""
    w0 = 2 * math.pi * freq / sample_rate
    a2 = math.exp(-2 * math.pi * (freq / q) / sample_rate)
    a1 = -4 * a2 / (1 + a2) * math.cos(w0)
    b0 = math.sqrt(1 - a1 * a1 / (4 * a2)) * (1 - a2)
    if noise:
        b0 *= math.sqrt(((1 + a2) ** 2 - a1 * a1) * (1 - a2) / (1 + a2)) / b0
    return [b0, 0.0, 0.0], [1.0, a1, a2]


def _shelf(sample_rate: int, gain: float, freq: float, alpha_of, treble: bool):
    w0 = 2 * math.pi * freq / sample_rate
    amp = math.exp(gain / 40 * math.log(10))
    alpha = alpha_of(w0, amp)
    t1, t2, t3 = 2 * math.sqrt(amp) * alpha, (amp - 1) * math.cos(w0), (amp + 1) * math.cos(w0)
    sign = 1 if treble else -1
    b = [amp * ((amp + 1) + sign * t2 + t1), -sign * 2 * amp * ((amp - 1) + sign * t3),
         amp * ((amp + 1) + sign * t2 - t1)]
    a = [(amp + 1) - sign * t2 + t1, sign * 2 * ((amp - 1) - sign * t3),
         (amp + 1) - sign * t2 - t1]
    return b, a


def bass(sample_rate: int, gain: float, freq: float, q: float) -> tuple[list, list]:
    """A low-shelf filter: ``gain`` dB below ``freq``."""
    return _shelf(sample_rate, gain, freq, lambda w0, amp: math.sin(w0) / 2 / q, False)


def treble(sample_rate: int, gain: float, freq: float, q: float) -> tuple[list, list]:
    """A high-shelf filter: ``gain`` dB above ``freq``."""
    return _shelf(sample_rate, gain, freq, lambda w0, amp: math.sin(w0) / 2 / q, True)


def equalizer(sample_rate: int, freq: float, gain: float, q: float) -> tuple[list, list]:
    """A peaking filter: ``gain`` dB around ``freq``."""
    w0 = 2 * math.pi * freq / sample_rate
    amp = math.exp(gain / 40 * math.log(10))
    alpha = math.sin(w0) / 2 / q
    c = math.cos(w0)
    return [1 + alpha * amp, -2 * c, 1 - alpha * amp], [1 + alpha / amp, -2 * c,
                                                          1 - alpha / amp]


_DEEMPHASIS = {44100: (5283.0, 0.4845, -9.477), 48000: (5356.0, 0.479, -9.62)}


def deemphasis(sample_rate: int) -> tuple[list, list]:
    """The CD de-emphasis high shelf for 44.1 or 48 kHz."""
    freq, slope, gain = _DEEMPHASIS[sample_rate]
    return _shelf(sample_rate, gain, freq, lambda w0, amp: math.sin(w0) / 2 * math.sqrt(
        (amp + 1 / amp) * (1 / slope - 1) + 2), True)
