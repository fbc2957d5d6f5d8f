"""``PIJitCaptureContext`` (``mindspore.common._pijit_context``): the decorator behind
``jit(capture_mode='bytecode')``; graphkiln compiles the function the same way as ``jit``."""
from __future__ import annotations

from .api import jit


class PIJitCaptureContext:
    """``PIJitCaptureContext(jit_config=None, fullgraph=False)(fn)``: ``fn`` compiled with
    :func:`jit` in ``capture_mode='bytecode'``."""

    def __init__(self, jit_config=None, input_signature=None, wrapper=None, fullgraph=False,
                 **kwargs):
        self.jit_config = jit_config
        self.input_signature = input_signature
        self.fullgraph = fullgraph

    def __call__(self, fn):
        return jit(fn, capture_mode="bytecode", jit_config=self.jit_config,
                   input_signature=self.input_signature, fullgraph=self.fullgraph)


__all__ = ["PIJitCaptureContext"]
