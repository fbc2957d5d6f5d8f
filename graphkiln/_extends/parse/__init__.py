"""``mindspore._extends.parse``: ``compile_config`` is :mod:`graphkiln.compile_config`."""
import sys

from ... import compile_config

sys.modules[f"{__name__}.compile_config"] = compile_config

__all__ = ["compile_config"]
