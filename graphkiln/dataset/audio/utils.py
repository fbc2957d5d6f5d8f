"""The enums of ``mindspore.dataset.audio``."""
from __future__ import annotations

from enum import Enum


class WindowType(str, Enum):
    """The window of a short-time Fourier transform (periodic, as torch's)."""

    BARTLETT = "bartlett"
    BLACKMAN = "blackman"
    HAMMING = "hamming"
    HANN = "hann"
    KAISER = "kaiser"


class BorderType(str, Enum):
    """How a centred transform pads the waveform's ends (NumPy's ``np.pad`` modes)."""

    CONSTANT = "constant"
    EDGE = "edge"
    REFLECT = "reflect"
    SYMMETRIC = "symmetric"


class NormType(str, Enum):
    """Normalisation of mel filters: none, or each filter's area (Slaney)."""

    NONE = "none"
    SLANEY = "slaney"


class MelType(str, Enum):
    """The Hz-to-mel formula: HTK's log curve, or Slaney's (linear below 1 kHz)."""

    HTK = "htk"
    SLANEY = "slaney"


class ScaleType(str, Enum):
    """What ``AmplitudeToDB`` reads: power (10 log10) or magnitude (20 log10)."""

    MAGNITUDE = "magnitude"
    POWER = "power"


class NormMode(str, Enum):
    """Normalisation of the DCT in ``MFCC``: none, or orthonormal."""

    NONE = "none"
    ORTHO = "ortho"


class GainType(str, Enum):
    """How ``Vol`` reads its gain: an amplitude ratio, decibels or a power ratio."""

    AMPLITUDE = "amplitude"
    DB = "db"
    POWER = "power"


class FadeShape(str, Enum):
    """The curve of ``Fade``."""

    QUARTER_SINE = "quarter_sine"
    HALF_SINE = "half_sine"
    LINEAR = "linear"
    LOGARITHMIC = "logarithmic"
    EXPONENTIAL = "exponential"
