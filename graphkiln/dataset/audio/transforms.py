"""Audio transforms (``mindspore.dataset.audio``): spectrograms, mel scales, decibels.
Outputs keep a float64 input's dtype, float32 otherwise, as MindSpore's."""
from __future__ import annotations

import numpy as np

from ..transforms.transforms import TensorOperation
from . import filters, spectral
from .utils import (
    BorderType,
    FadeShape,
    GainType,
    MelType,
    NormMode,
    NormType,
    ScaleType,
    WindowType,
)

__all__ = ["Spectrogram", "MelScale", "MelSpectrogram", "AmplitudeToDB", "MFCC",
           "DBToAmplitude", "ComplexNorm", "Angle", "MuLawEncoding", "MuLawDecoding",
           "ComputeDeltas", "LFilter", "Biquad", "LowpassBiquad", "HighpassBiquad",
           "BandpassBiquad", "BandrejectBiquad", "AllpassBiquad", "Gain", "Vol", "BandBiquad",
           "BassBiquad", "TrebleBiquad", "EqualizerBiquad", "DeemphBiquad", "Fade", "DCShift",
           "Magphase", "Contrast", "SpectralCentroid", "LFCC"]


def _out_dtype(x: np.ndarray):
    return np.float64 if x.dtype == np.float64 else np.float32


def _check_int(name: str, value, low: int) -> None:
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"Argument {name} with value {value!r} is not of type "
                        f"[<class 'int'>], but got {type(value)}.")
    if value < low:
        raise ValueError(f"Input {name} is not within the required interval of "
                         f"[{low}, 2147483647].")


def _matrix_input(op: str, x: np.ndarray) -> None:
    if x.ndim < 2:
        raise RuntimeError(f"{op}: the shape of input tensor does not match the requirement "
                           "of operator. Expecting tensor in shape of <..., freq, time>. But "
                           f"got tensor with dimension {x.ndim}.")


class Spectrogram(TensorOperation):
    """The power spectrogram of waveforms (..., time): (..., n_fft // 2 + 1, frames)."""

    def __init__(self, n_fft: int = 400, win_length: int | None = None,
                 hop_length: int | None = None, pad: int = 0,
                 window: WindowType = WindowType.HANN, power: float = 2.0,
                 normalized: bool = False, center: bool = True,
                 pad_mode: BorderType = BorderType.REFLECT, onesided: bool = True):
        _check_int("n_fft", n_fft, 1)
        win_length = n_fft if win_length is None else win_length
        _check_int("win_length", win_length, 1)
        if win_length > n_fft:
            raise ValueError(f"Input win_length should be no more than n_fft, but got "
                             f"win_length: {win_length} and n_fft: {n_fft}.")
        hop_length = win_length // 2 if hop_length is None else hop_length
        _check_int("hop_length", hop_length, 1)
        _check_int("pad", pad, 0)
        self.args = (n_fft, win_length, hop_length, pad, WindowType(window), float(power),
                     bool(normalized), bool(center), BorderType(pad_mode).value,
                     bool(onesided))

    def _apply(self, wave):
        x = np.asarray(wave)
        return spectral.stft_power(x, *self.args).astype(_out_dtype(x))


class MelScale(TensorOperation):
    """A spectrogram (..., n_stft, time) mapped onto ``n_mels`` mel bands."""

    def __init__(self, n_mels: int = 128, sample_rate: int = 16000, f_min: float = 0.0,
                 f_max: float | None = None, n_stft: int = 201,
                 norm: NormType = NormType.NONE, mel_type: MelType = MelType.HTK):
        _check_int("n_mels", n_mels, 1)
        _check_int("sample_rate", sample_rate, 1)
        _check_int("n_stft", n_stft, 1)
        f_max = sample_rate / 2 if f_max is None else float(f_max)
        if not 0 <= f_min < f_max:
            raise ValueError(f"MelScale: f_max should be greater than f_min, but got f_min: "
                             f"{f_min} and f_max: {f_max}.")
        self.filters = spectral.mel_filters(n_stft, float(f_min), f_max, n_mels, sample_rate,
                                            NormType(norm), MelType(mel_type))

    def _apply(self, spec):
        x = np.asarray(spec)
        _matrix_input(self.op_name, x)
        mel = np.swapaxes(np.swapaxes(x.astype(np.float64), -1, -2) @ self.filters, -1, -2)
        return mel.astype(_out_dtype(x))


class MelSpectrogram(TensorOperation):
    """``MelScale(Spectrogram(wave))``: waveforms (..., time) to (..., n_mels, frames)."""

    def __init__(self, sample_rate: int = 16000, n_fft: int = 400,
                 win_length: int | None = None, hop_length: int | None = None,
                 f_min: float = 0.0, f_max: float | None = None, pad: int = 0,
                 n_mels: int = 128, window: WindowType = WindowType.HANN, power: float = 2.0,
                 normalized: bool = False, center: bool = True,
                 pad_mode: BorderType = BorderType.REFLECT, onesided: bool = True,
                 norm: NormType = NormType.NONE, mel_scale: MelType = MelType.HTK):
        self.spectrogram = Spectrogram(n_fft, win_length, hop_length, pad, window, power,
                                       normalized, center, pad_mode, onesided)
        self.mel = MelScale(n_mels, sample_rate, f_min, f_max, n_fft // 2 + 1, norm,
                            mel_scale)

    def _apply(self, wave):
        return self.mel._apply(self.spectrogram._apply(wave))


class AmplitudeToDB(TensorOperation):
    """A power (or magnitude) spectrogram in decibels, floored ``top_db`` below the peak of
    each (channel, freq, time) block."""

    def __init__(self, stype: ScaleType = ScaleType.POWER, ref_value: float = 1.0,
                 amin: float = 1e-10, top_db: float = 80.0):
        for name, value in (("ref_value", ref_value), ("amin", amin), ("top_db", top_db)):
            if isinstance(value, bool) or not isinstance(value, (int, float)):
                raise TypeError(f"Argument {name} with value {value} is not of type "
                                f"[<class 'int'>, <class 'float'>], but got {type(value)}.")
            if value <= 0:
                raise ValueError(f"Input {name} is not within the required interval of "
                                 f"(0, 16777216].")
        self.multiplier = 10.0 if ScaleType(stype) == ScaleType.POWER else 20.0
        self.ref_value, self.amin, self.top_db = float(ref_value), float(amin), float(top_db)

    def _apply(self, spec):
        x = np.asarray(spec)
        _matrix_input(self.op_name, x)
        db = self.multiplier * np.log10(np.maximum(x.astype(np.float64), self.amin))
        db -= self.multiplier * np.log10(max(self.amin, self.ref_value))
        peak_axes = tuple(range(max(0, x.ndim - 3), x.ndim))  # a (channel, freq, time) block
        floor = db.max(axis=peak_axes, keepdims=True) - self.top_db
        return np.maximum(db, floor).astype(_out_dtype(x))


class MFCC(TensorOperation):
    """Mel-frequency cepstral coefficients of waveforms: the DCT of the decibel (or, with
    ``log_mels``, log) mel spectrogram, (..., n_mfcc, frames)."""

    def __init__(self, sample_rate: int = 16000, n_mfcc: int = 40, dct_type: int = 2,
                 norm: NormMode = NormMode.ORTHO, log_mels: bool = False,
                 melkwargs: dict | None = None):
        if dct_type != 2:
            raise ValueError(f"MFCC: dct_type must be 2, but got: {dct_type}.")
        self.mel = MelSpectrogram(sample_rate=sample_rate, **(melkwargs or {}))
        n_mels = self.mel.mel.filters.shape[1]
        _check_int("n_mfcc", n_mfcc, 1)
        if n_mfcc > n_mels:
            raise ValueError(f"MFCC: n_mfcc should be less than or equal to n_mels, but got "
                             f"n_mfcc: {n_mfcc}, n_mels: {n_mels}.")
        self.dct = spectral.dct_matrix(n_mfcc, n_mels, NormMode(norm) == NormMode.ORTHO)
        self.log_mels = bool(log_mels)

    def _apply(self, wave):
        x = np.asarray(wave)
        mel = self.mel._apply(x.astype(np.float64))
        return _cepstrum(mel, self.log_mels, self.dct).astype(_out_dtype(x))


def _cepstrum(bands: np.ndarray, log: bool, dct: np.ndarray) -> np.ndarray:
    """The DCT of filter-bank energies (..., bands, time) in log or decibel scale."""
    scaled = np.log(bands + 1e-6) if log else AmplitudeToDB(ScaleType.POWER, 1.0, 1e-10,
                                                            80.0)._apply(bands)
    return np.swapaxes(np.swapaxes(scaled, -1, -2) @ dct, -1, -2)


class DBToAmplitude(TensorOperation):
    """Decibels back to amplitude: ``ref * 10 ** (0.1 * x * power)``."""

    def __init__(self, ref: float, power: float):
        self.ref, self.power = float(ref), float(power)

    def _apply(self, x):
        x = np.asarray(x)
        out = self.ref * np.power(10.0, 0.1 * x.astype(np.float64) * self.power)
        return out.astype(_out_dtype(x))


def _complex_input(op: str, x: np.ndarray) -> None:
    if x.ndim < 1 or x.shape[-1] != 2:
        raise RuntimeError(f"{op}: the shape of input tensor does not match the requirement "
                           "of operator. Expecting tensor in shape of <..., complex=2>. But got "
                           f"tensor with shape {list(x.shape)}.")


class ComplexNorm(TensorOperation):
    """``|z| ** power`` of complex values stored as (..., 2) real and imaginary parts."""

    def __init__(self, power: float = 1.0):
        self.power = float(power)

    def _apply(self, x):
        x = np.asarray(x)
        _complex_input(self.op_name, x)
        norm = np.hypot(x[..., 0].astype(np.float64), x[..., 1]) ** self.power
        return norm.astype(_out_dtype(x))


class Angle(TensorOperation):
    """The phase of complex values stored as (..., 2) real and imaginary parts."""

    def _apply(self, x):
        x = np.asarray(x)
        _complex_input(self.op_name, x)
        angle = np.arctan2(x[..., 1].astype(np.float64), x[..., 0])
        return angle.astype(_out_dtype(x))


class MuLawEncoding(TensorOperation):
    """Mu-law companding of waveforms in [-1, 1] to int32 codes in [0, channels)."""

    def __init__(self, quantization_channels: int = 256):
        _check_int("quantization_channels", quantization_channels, 1)
        self.mu = float(quantization_channels - 1)

    def _apply(self, x):
        x = np.asarray(x, dtype=np.float64)
        mu = self.mu
        companded = np.sign(x) * np.log1p(mu * np.abs(x)) / np.log1p(mu)
        return np.floor((companded + 1) / 2 * mu + 0.5).astype(np.int32)


class MuLawDecoding(TensorOperation):
    """Mu-law codes in [0, channels) back to waveforms in [-1, 1]."""

    def __init__(self, quantization_channels: int = 256):
        _check_int("quantization_channels", quantization_channels, 1)
        self.mu = float(quantization_channels - 1)

    def _apply(self, x):
        x = np.asarray(x)
        mu = self.mu
        y = x.astype(np.float64) / mu * 2 - 1.0
        out = np.sign(y) * np.expm1(np.abs(y) * np.log1p(mu)) / mu
        return out.astype(_out_dtype(x))


class ComputeDeltas(TensorOperation):
    """Delta coefficients along time of (..., freq, time): a ``win_length`` regression
    over the ends padded with ``pad_mode``."""

    def __init__(self, win_length: int = 5, pad_mode: BorderType = BorderType.EDGE):
        _check_int("win_length", win_length, 3)
        self.half = (win_length - 1) // 2
        self.pad_mode = BorderType(pad_mode).value

    def _apply(self, x):
        x = np.asarray(x)
        _matrix_input(self.op_name, x)
        n = self.half
        padded = np.pad(x.astype(np.float64), [(0, 0)] * (x.ndim - 1) + [(n, n)],
                        mode=self.pad_mode)
        frames = x.shape[-1]
        out = sum(k * padded[..., n + k:n + k + frames] for k in range(-n, n + 1))
        return (out / (n * (n + 1) * (2 * n + 1) / 3)).astype(_out_dtype(x))


class LFilter(TensorOperation):
    """An IIR filter of waveforms (..., time) by ``a_coeffs`` and ``b_coeffs`` (same
    length), the output clamped to [-1, 1] unless ``clamp`` is False."""

    def __init__(self, a_coeffs, b_coeffs, clamp: bool = True):
        self.a = [float(c) for c in a_coeffs]
        self.b = [float(c) for c in b_coeffs]
        if len(self.a) != len(self.b) or not self.a:
            raise ValueError("Input a_coeffs and b_coeffs should have the same, non-zero "
                             "length.")
        if self.a[0] == 0:
            raise ValueError("Input a_coeffs[0] should not be 0.")
        self.clamp = bool(clamp)

    def _apply(self, wave):
        x = np.asarray(wave)
        return filters.lfilter(x, self.a, self.b, self.clamp).astype(_out_dtype(x))


class Biquad(LFilter):
    """A second-order IIR filter with coefficients (b0, b1, b2) and (a0, a1, a2)."""

    def __init__(self, b0: float, b1: float, b2: float, a0: float, a1: float, a2: float):
        super().__init__([a0, a1, a2], [b0, b1, b2])


class _DesignedBiquad(LFilter):
    """A biquad designed for ``sample_rate`` around a frequency with quality ``Q``."""

    design = staticmethod(filters.lowpass)

    def __init__(self, sample_rate: int, freq: float, Q: float = 0.707):  # noqa: N803
        if isinstance(sample_rate, bool) or not isinstance(sample_rate, int) or \
                sample_rate == 0:
            raise ValueError("Input sample_rate should not be 0.")
        if not 0 < Q <= 1:
            raise ValueError("Input Q is not within the required interval of (0, 1].")
        b, a = self.design(sample_rate, float(freq), float(Q))
        super().__init__(a, b)


class LowpassBiquad(_DesignedBiquad):
    """A second-order low-pass filter at ``cutoff_freq``."""


class HighpassBiquad(_DesignedBiquad):
    """A second-order high-pass filter at ``cutoff_freq``."""

    design = staticmethod(filters.highpass)


class BandrejectBiquad(_DesignedBiquad):
    """A second-order band-reject filter around ``central_freq``."""

    design = staticmethod(filters.bandreject)


class AllpassBiquad(_DesignedBiquad):
    """A second-order all-pass filter around ``central_freq``."""

    design = staticmethod(filters.allpass)


class BandpassBiquad(_DesignedBiquad):
    """A second-order band-pass filter around ``central_freq`` (peak gain ``Q`` with
    ``const_skirt_gain``, else 0 dB)."""

    def __init__(self, sample_rate: int, central_freq: float, Q: float = 0.707,  # noqa: N803
                 const_skirt_gain: bool = False):
        self.design = lambda sr, f, q: filters.bandpass(sr, f, q, bool(const_skirt_gain))
        super().__init__(sample_rate, central_freq, Q)


class Gain(TensorOperation):
    """Amplify by ``gain_db`` decibels."""

    def __init__(self, gain_db: float = 1.0):
        self.factor = 10.0 ** (float(gain_db) / 20.0)

    def _apply(self, wave):
        x = np.asarray(wave)
        return (x.astype(np.float64) * self.factor).astype(_out_dtype(x))


class Vol(TensorOperation):
    """Scale by ``gain`` as an amplitude, decibels or power ratio, clamped to [-1, 1]."""

    def __init__(self, gain: float, gain_type: GainType = GainType.AMPLITUDE):
        gain_type = GainType(gain_type)
        if gain_type != GainType.DB and gain < 0:
            raise ValueError("Input gain should be non-negative for amplitude and power.")
        if gain_type == GainType.AMPLITUDE:
            self.factor = float(gain)
        elif gain_type == GainType.DB:
            self.factor = 10.0 ** (float(gain) / 20.0)
        else:
            self.factor = 10.0 ** (10.0 * np.log10(float(gain)) / 20.0)

    def _apply(self, wave):
        x = np.asarray(wave)
        return np.clip(x.astype(np.float64) * self.factor, -1, 1).astype(_out_dtype(x))


def _sample_rate(sample_rate) -> int:
    if isinstance(sample_rate, bool) or not isinstance(sample_rate, int) or sample_rate == 0:
        raise ValueError("Input sample_rate should not be 0.")
    return sample_rate


class BandBiquad(LFilter):
    """A band-pass resonator around ``central_freq`` (``noise`` for unpitched audio)."""

    def __init__(self, sample_rate: int, central_freq: float, Q: float = 0.707,  # noqa: N803
                 noise: bool = False):
        b, a = filters.band(_sample_rate(sample_rate), float(central_freq), float(Q),
                            bool(noise))
        super().__init__(a, b)


class BassBiquad(LFilter):
    """Boost or cut the bass by ``gain`` dB below ``central_freq``."""

    def __init__(self, sample_rate: int, gain: float, central_freq: float = 100.0,
                 Q: float = 0.707):  # noqa: N803
        b, a = filters.bass(_sample_rate(sample_rate), float(gain), float(central_freq),
                            float(Q))
        super().__init__(a, b)


class TrebleBiquad(LFilter):
    """Boost or cut the treble by ``gain`` dB above ``central_freq``."""

    def __init__(self, sample_rate: int, gain: float, central_freq: float = 3000,
                 Q: float = 0.707):  # noqa: N803
        b, a = filters.treble(_sample_rate(sample_rate), float(gain), float(central_freq),
                              float(Q))
        super().__init__(a, b)


class EqualizerBiquad(LFilter):
    """Boost or cut by ``gain`` dB around ``center_freq``."""

    def __init__(self, sample_rate: int, center_freq: float, gain: float,
                 Q: float = 0.707):  # noqa: N803
        b, a = filters.equalizer(_sample_rate(sample_rate), float(center_freq), float(gain),
                                 float(Q))
        super().__init__(a, b)


class DeemphBiquad(LFilter):
    """CD de-emphasis at 44.1 or 48 kHz."""

    def __init__(self, sample_rate: int):
        if sample_rate not in (44100, 48000):
            raise ValueError("Input sample_rate should be 44100 or 48000, but got "
                             f"{sample_rate}.")
        b, a = filters.deemphasis(sample_rate)
        super().__init__(a, b)


def _fade_in(n: int, shape: FadeShape) -> np.ndarray:
    ramp = np.linspace(0, 1, n)
    return {FadeShape.LINEAR: lambda r: r,
            FadeShape.EXPONENTIAL: lambda r: np.power(2.0, r - 1) * r,  # MindSpore's curve
            FadeShape.LOGARITHMIC: lambda r: np.log10(0.1 + r) + 1,
            FadeShape.QUARTER_SINE: lambda r: np.sin(r * np.pi / 2),
            FadeShape.HALF_SINE: lambda r: np.sin(r * np.pi - np.pi / 2) / 2 + 0.5}[shape](ramp)


def _fade_out(n: int, shape: FadeShape) -> np.ndarray:
    ramp = np.linspace(0, 1, n)
    return {FadeShape.LINEAR: lambda r: 1 - r,
            FadeShape.EXPONENTIAL: lambda r: np.power(2.0, -r) * (1 - r),
            FadeShape.LOGARITHMIC: lambda r: np.log10(1.1 - r) + 1,
            FadeShape.QUARTER_SINE: lambda r: np.sin(r * np.pi / 2 + np.pi / 2),
            FadeShape.HALF_SINE: lambda r: np.sin(r * np.pi + np.pi / 2) / 2 + 0.5}[shape](ramp)


class Fade(TensorOperation):
    """Fade the first ``fade_in_len`` samples in and the last ``fade_out_len`` out."""

    def __init__(self, fade_in_len: int = 0, fade_out_len: int = 0,
                 fade_shape: FadeShape = FadeShape.LINEAR):
        _check_int("fade_in_len", fade_in_len, 0)
        _check_int("fade_out_len", fade_out_len, 0)
        self.lengths = (fade_in_len, fade_out_len)
        self.shape = FadeShape(fade_shape)

    def _apply(self, wave):
        x = np.asarray(wave)
        n = x.shape[-1]
        fin, fout = self.lengths
        if fin > n or fout > n:
            raise RuntimeError(f"Fade: fade_in_len and fade_out_len should be no more than the "
                               f"length of the waveform {n}, but got {fin} and {fout}.")
        curve = np.ones(n)
        curve[:fin] *= _fade_in(fin, self.shape)
        curve[n - fout:] *= _fade_out(fout, self.shape)
        return (x.astype(np.float64) * curve).astype(_out_dtype(x))


class DCShift(TensorOperation):
    """Add ``shift`` to waveforms, within [-1, 1]; with ``limiter_gain``, the samples that
    would pass the limit are compressed towards it instead of clipped."""

    def __init__(self, shift: float, limiter_gain: float | None = None):
        self.shift = float(shift)
        self.gain = None if limiter_gain is None else float(limiter_gain)

    def _apply(self, wave):
        x = np.asarray(wave)
        w = x.astype(np.float64)
        out = np.clip(w + self.shift, -1, 1)
        if self.gain is not None and self.shift != 0:
            limit = 1.0 - (abs(self.shift) - self.gain)
            sign = 1.0 if self.shift > 0 else -1.0
            over = sign * w > limit
            squeezed = (sign * w - limit) * self.gain / (1 - limit) + limit + abs(self.shift)
            out = np.where(over, sign * np.minimum(squeezed, limit), out)
        return out.astype(_out_dtype(x))


class Magphase(TensorOperation):
    """Magnitude (to ``power``) and phase of complex values stored as (..., 2): two
    outputs."""

    def __init__(self, power: float = 1.0):
        self.norm = ComplexNorm(power)

    def _apply(self, x):
        return self.norm._apply(x), Angle()._apply(x)


class Contrast(TensorOperation):
    """SoX's contrast, with MindSpore's strength: ``sin(x * pi / 2 + amount / 750 *
    sin(x * 2 * pi))``."""

    def __init__(self, enhancement_amount: float = 75.0):
        if not 0 <= enhancement_amount <= 100:
            raise ValueError("Input enhancement_amount is not within the required interval "
                             "of [0, 100].")
        self.amount = float(enhancement_amount)

    def _apply(self, wave):
        x = np.asarray(wave)
        quarter = x.astype(np.float64) * (np.pi / 2)
        out = np.sin(quarter + self.amount / 750.0 * np.sin(quarter * 4))
        return out.astype(_out_dtype(x))


class SpectralCentroid(TensorOperation):
    """The centre of mass of each frame's magnitude spectrum, in Hz: (..., 1, frames)."""

    def __init__(self, sample_rate: int, n_fft: int = 400, win_length: int | None = None,
                 hop_length: int | None = None, pad: int = 0,
                 window: WindowType = WindowType.HANN):
        _check_int("sample_rate", sample_rate, 1)
        self.spectrogram = Spectrogram(n_fft, win_length, hop_length, pad, window, 1.0)
        self.freqs = np.linspace(0, sample_rate // 2, n_fft // 2 + 1)[:, None]

    def _apply(self, wave):
        x = np.asarray(wave)
        spec = self.spectrogram._apply(x.astype(np.float64))
        centroid = (spec * self.freqs).sum(axis=-2, keepdims=True) / spec.sum(axis=-2,
                                                                              keepdims=True)
        return centroid.astype(_out_dtype(x))


class LFCC(TensorOperation):
    """Linear-frequency cepstral coefficients: the DCT of the decibel (or, with
    ``log_lf``, log) linear filter-bank spectrogram, (..., n_lfcc, frames)."""

    def __init__(self, sample_rate: int = 16000, n_filter: int = 128, n_lfcc: int = 40,
                 f_min: float = 0.0, f_max: float | None = None, dct_type: int = 2,
                 norm: NormMode = NormMode.ORTHO, log_lf: bool = False,
                 speckwargs: dict | None = None):
        if dct_type != 2:
            raise ValueError(f"LFCC: dct_type must be 2, but got: {dct_type}.")
        _check_int("n_filter", n_filter, 1)
        _check_int("n_lfcc", n_lfcc, 1)
        if n_lfcc > n_filter:
            raise ValueError(f"LFCC: n_lfcc should be less than or equal to n_filter, but got "
                             f"n_lfcc: {n_lfcc}, n_filter: {n_filter}.")
        self.spectrogram = Spectrogram(**(speckwargs or {}))
        n_fft = self.spectrogram.args[0]
        f_max = sample_rate // 2 if f_max is None else f_max
        self.filters = spectral.linear_filters(n_fft // 2 + 1, float(f_min), float(f_max),
                                               n_filter, sample_rate)
        self.dct = spectral.dct_matrix(n_lfcc, n_filter, NormMode(norm) == NormMode.ORTHO)
        self.log_lf = bool(log_lf)

    def _apply(self, wave):
        x = np.asarray(wave)
        spec = self.spectrogram._apply(x.astype(np.float64))
        bands = np.swapaxes(np.swapaxes(spec, -1, -2) @ self.filters, -1, -2)
        return _cepstrum(bands, self.log_lf, self.dct).astype(_out_dtype(x))
