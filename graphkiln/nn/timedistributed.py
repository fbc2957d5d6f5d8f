"""``nn.TimeDistributed``: apply a layer to every time step of its input.

The time steps (slices along ``time_axis``) go through ``layer`` one by one and the results
are stacked back along ``time_axis``; with ``reshape_with_axis`` MindSpore folds the time
axis into that axis and makes one call instead, which gives the same results for layers
that treat the examples of a batch independently (the layers it is documented for).
"""
from __future__ import annotations

from ..common.tensor import Tensor
from ..ops import functional as F
from ..ops.primitive import Primitive
from .cell import Cell


class TimeDistributed(Cell):
    """``layer`` applied to each slice of the input along ``time_axis``."""

    def __init__(self, layer, time_axis: int, reshape_with_axis: int | None = None):
        super().__init__()
        if not isinstance(layer, (Cell, Primitive)):
            raise TypeError(f"For 'TimeDistributed', please initialize TimeDistributed with "
                            f"mindspore.nn.Cell or mindspore.ops.Primitive instance. You "
                            f"passed: {layer!r}")
        for arg, v in (("time_axis", time_axis), ("reshape_with_axis", reshape_with_axis)):
            if v is not None and (isinstance(v, bool) or not isinstance(v, int)):
                raise TypeError(f"For 'TimeDistributed', the '{arg}' must be an int, but got "
                                f"{type(v).__name__}.")
        self.layer = layer
        self.time_axis = time_axis
        self.reshape_with_axis = reshape_with_axis

    def construct(self, inputs):
        if not isinstance(inputs, Tensor):
            raise TypeError(f"For 'TimeDistributed', the 'inputs' must be a Tensor, but got "
                            f"{type(inputs).__name__}.")
        if inputs.ndim < 3:
            raise ValueError(f"For 'TimeDistributed', the dims of 'inputs' must be greater "
                             f"than or equal to 3, but got {inputs.ndim}.")
        axis = self.time_axis % inputs.ndim
        steps = F.unstack(inputs, axis)
        outputs = [self.layer(step) for step in steps]
        return F.stack(outputs, min(axis, outputs[0].ndim))
