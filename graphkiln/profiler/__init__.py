"""``mindspore.profiler``: :class:`Profiler` (see profiler.py)."""
from .profiler import Profiler

__all__ = ["Profiler"]
