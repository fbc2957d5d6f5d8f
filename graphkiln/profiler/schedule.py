"""``mindspore.profiler.schedule``: which profiler action each training step takes (skip the
first steps, wait, warm up, record; optionally repeated), and the settings objects of
MindSpore's newer profiler interface (``_ExperimentalConfig`` and its enums)."""
from __future__ import annotations

import warnings
from enum import Enum


class ProfilerAction(Enum):
    """What the profiler does during one step."""
    NONE = 0
    WARM_UP = 1
    RECORD = 2
    RECORD_AND_SAVE = 3

    @property
    def records(self) -> bool:
        return self in (ProfilerAction.RECORD, ProfilerAction.RECORD_AND_SAVE)


class Schedule:
    """``skip_first`` steps, then cycles of ``wait`` idle, ``warmup`` and ``active`` recorded
    steps (the last of a cycle saves: ``on_trace_ready``), ``repeat`` times (0: forever).
    Out-of-range values are reset to their defaults with a warning, as MindSpore does."""

    _DEFAULTS = {"wait": 0, "warmup": 0, "active": 1, "repeat": 0, "skip_first": 0}

    def __init__(self, *, wait: int, active: int, warmup: int = 0, repeat: int = 0,
                 skip_first: int = 0) -> None:
        values = {"wait": wait, "active": active, "warmup": warmup, "repeat": repeat,
                  "skip_first": skip_first}
        for name, value in values.items():
            smallest = 1 if name == "active" else 0
            if isinstance(value, bool) or not isinstance(value, int) or value < smallest:
                warnings.warn(f"Parameter '{name}' should be of type int, but got "
                              f"{type(value).__name__}. reset to int {self._DEFAULTS[name]}.",
                              stacklevel=2)
                values[name] = self._DEFAULTS[name]
            setattr(self, name, values[name])

    def __call__(self, step: int) -> ProfilerAction:
        if step < 0:
            raise ValueError("Invalid parameter step, which must be not less than 0.")
        if step < self.skip_first:
            return ProfilerAction.NONE
        step -= self.skip_first
        cycle = self.wait + self.warmup + self.active
        if 0 < self.repeat <= step / cycle:
            return ProfilerAction.NONE
        at = step % cycle
        if at < self.wait:
            return ProfilerAction.NONE
        if at < self.wait + self.warmup:
            return ProfilerAction.WARM_UP
        return ProfilerAction.RECORD if at < cycle - 1 else ProfilerAction.RECORD_AND_SAVE

    def to_dict(self) -> dict:
        return {name: getattr(self, name) for name in ("wait", "active", "warmup", "repeat",
                                                       "skip_first")}

    def __repr__(self) -> str:
        return (f"Schedule(wait={self.wait!r}, active={self.active!r}, warmup={self.warmup!r}, "
                f"repeat={self.repeat!r}, skip_first={self.skip_first!r})")


class ProfilerLevel(Enum):
    LevelNone = "LevelNone"
    Level0 = "Level0"
    Level1 = "Level1"
    Level2 = "Level2"


class ProfilerActivity(Enum):
    NPU = "NPU"
    GPU = "GPU"
    CPU = "CPU"


class AicoreMetrics(Enum):
    PipeUtilization = "PipeUtilization"
    ArithmeticUtilization = "ArithmeticUtilization"
    Memory = "Memory"
    MemoryL0 = "MemoryL0"
    MemoryUB = "MemoryUB"
    ResourceConflictRatio = "ResourceConflictRatio"
    L2Cache = "L2Cache"
    MemoryAccess = "MemoryAccess"
    AiCoreNone = "None"


class ExportType(Enum):
    Db = "db"
    Text = "text"


class HostSystem(Enum):
    CPU = "cpu"
    MEM = "mem"
    DISK = "disk"
    NETWORK = "network"
    OSRT = "osrt"


class _ExperimentalConfig:
    """Device-profiling options of MindSpore's interface. They select Ascend hardware
    counters; graphkiln's CPU profile is the same whatever they say, so they are kept only to
    be read back."""

    def __init__(self, profiler_level: ProfilerLevel = ProfilerLevel.Level0,
                 aic_metrics: AicoreMetrics = AicoreMetrics.AiCoreNone, l2_cache: bool = False,
                 mstx: bool = False, data_simplification: bool = True, export_type=None,
                 mstx_domain_include=None, mstx_domain_exclude=None, sys_io: bool = False,
                 sys_interconnection: bool = False, host_sys=None):
        self.profiler_level = profiler_level
        self.aic_metrics = aic_metrics
        self.l2_cache = l2_cache
        self.mstx = mstx
        self.data_simplification = data_simplification
        self.export_type = export_type if export_type is not None else [ExportType.Text]
        self.mstx_domain_include = mstx_domain_include
        self.mstx_domain_exclude = mstx_domain_exclude
        self.sys_io = sys_io
        self.sys_interconnection = sys_interconnection
        self.host_sys = host_sys
