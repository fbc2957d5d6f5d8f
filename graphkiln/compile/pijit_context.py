"""``PIJitCaptureContext`` (``mindspore.common._pijit_context``): the decorator behind
``jit(capture_mode='bytecode')``, run by :mod:`graphkiln.compile.pijit`."""
from __future__ import annotations

from .pijit import Unsupported, bytecode_jit


class PIJitCaptureContext:
    """``PIJitCaptureContext(fullgraph=False, jit_config=None)(fn)``: ``fn`` run by the
    bytecode JIT. ``jit_config`` may hold ``_disable_pijit``, a callable of
    ``(args, kwargs)`` that sends a call to Python when true; its other keys tune
    MindSpore's capture and are kept."""

    def __init__(self, fullgraph: bool = False, jit_config=None, **kwargs):
        raw = getattr(jit_config, "jit_config_dict", jit_config)
        config = dict(raw) if isinstance(raw, dict) else {}
        config["fullgraph"] = fullgraph
        disable = config.get("_disable_pijit")
        if disable is not None and not callable(disable):
            raise TypeError(f"The config '_disable_pijit' must be callable but got {disable}")
        self.config = config
        self.fullgraph = fullgraph

    def __call__(self, fn):
        return bytecode_jit(fn, self.fullgraph, self.config.get("_disable_pijit"))


__all__ = ["PIJitCaptureContext", "Unsupported"]
