"""Audio transforms (``mindspore.dataset.audio``): spectrograms, mel scales, decibels.
Outputs keep a float64 input's dtype, float32 otherwise, as MindSpore's."""
from __future__ import annotations

import numpy as np

from ..transforms.transforms import TensorOperation
from . import spectral
from .utils import BorderType, MelType, NormType, ScaleType, WindowType

__all__ = ["Spectrogram", "MelScale", "MelSpectrogram", "AmplitudeToDB"]


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
        if not onesided:
            raise NotImplementedError("Spectrogram(onesided=False) is not built: graphkiln "
                                      "gives the one-sided spectrum only.")
        self.args = (n_fft, win_length, hop_length, pad, WindowType(window), float(power),
                     bool(normalized), bool(center), BorderType(pad_mode).value)

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
