"""``JitConfig``: the compile options of a Cell (``cell.set_jit_config``) or a ``jit``
function. graphkiln has one compile pipeline and one backend, so the options are checked
and kept (``jit_config_dict``, as MindSpore exposes them) but select nothing."""
from __future__ import annotations

_CHOICES = {"jit_level": ("O0", "O1", "O2"), "exc_mode": ("auto", "sink", "no_sink"),
            "debug_level": ("RELEASE", "DEBUG"), "infer_boost": ("on", "off")}


class JitConfig:
    """Checked compile options; ``jit_config_dict`` holds them."""

    def __init__(self, jit_level: str = "", exc_mode: str = "auto",
                 jit_syntax_level: str = "", debug_level: str = "RELEASE",
                 infer_boost: str = "off", **kwargs):
        options = {"jit_level": jit_level, "exc_mode": exc_mode,
                   "jit_syntax_level": jit_syntax_level, "debug_level": debug_level,
                   "infer_boost": infer_boost}
        for name, allowed in _CHOICES.items():
            value = options[name]
            if value not in allowed and not (name == "jit_level" and value == ""):
                raise ValueError(f"For '{name}' must be one of {list(allowed)}.")
        self.jit_config_dict = {**options, "backend": kwargs.pop("backend", "ms_backend"),
                                **kwargs}
