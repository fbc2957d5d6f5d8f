"""Writes to a weight attribute from graph code (``self.w = value``, ``self.w += 1``).

Inside a graph the write is an ``Assign`` on the memory chain, ordered like any other
effect (a later ``self.w`` reads the new value); outside a graph it replaces the weight's
data, as ``Parameter.set_data`` does.
"""
from __future__ import annotations

import graphkiln.ops.functional as F

from ..common.parameter import Parameter
from ..common.tensor import Tensor
from ..ir import tracing_state as state


def write_parameter(param: Parameter, value: Tensor) -> None:
    """``cell.<name> = value`` where ``<name>`` is the registered weight ``param``."""
    if state.current() is None:
        param.set_data(value)
        return
    F.assign(param, value)  # converts a lower-ranked value type, refuses a higher one
