"""``mindspore.dataset.audio``: spectrogram, mel and decibel transforms (NumPy)."""
from . import transforms as _transforms
from .transforms import *  # noqa: F403 - every transform, listed in transforms.__all__
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

__all__ = [*_transforms.__all__, "BorderType", "FadeShape", "GainType", "MelType", "NormMode",
           "NormType", "ScaleType", "WindowType"]
