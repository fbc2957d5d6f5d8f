"""``mindspore.profiler``: :class:`Profiler` and ``profile`` (see profiler.py), ``schedule``
and the settings of MindSpore's newer interface (see schedule.py)."""
from .profiler import Profiler, profile, tensorboard_trace_handler
from .schedule import (
    AicoreMetrics,
    ExportType,
    HostSystem,
    ProfilerAction,
    ProfilerActivity,
    ProfilerLevel,
    _ExperimentalConfig,
)
from .schedule import Schedule as schedule

__all__ = ["Profiler", "profile", "schedule", "tensorboard_trace_handler", "ProfilerAction",
           "_ExperimentalConfig",
           "ProfilerActivity", "ProfilerLevel", "AicoreMetrics", "ExportType", "HostSystem"]
