"""``nn.ParameterUpdate(param)``: a cell whose call writes its input into ``param``."""
from __future__ import annotations

import graphkiln.ops as ops

from ..common.parameter import Parameter
from .cell import Cell


class ParameterUpdate(Cell):
    """``ParameterUpdate(param)(x)`` assigns ``x`` to ``param`` (an Assign: ordered with the
    other effects of the graph) and returns the updated value."""

    def __init__(self, param: Parameter):
        super().__init__(auto_prefix=False)
        if not isinstance(param, Parameter):
            raise TypeError(f"For 'ParameterUpdate', the 'param' must be a Parameter, but got "
                            f"{type(param).__name__}.")
        self._param = param

    def construct(self, x):
        return ops.assign(self._param, x)
