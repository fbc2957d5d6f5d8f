"""``ops.pad`` in ``constant`` mode with paddings known only when the graph runs (an
integer Tensor computed by the graph, or run-time ints), as MindSpore's value-depend
``PadV3``: per axis (the last first) a negative size crops, a positive one adds ``value``;
the padded dimensions are known when the graph runs."""
from __future__ import annotations

import graphkiln.ops.functional as F

from ..common.symbolic_scalar import SymbolicScalar
from ..common.tensor import Tensor
from .defs import scalar as SS
from .dynamic_shape import shape_of


def is_run_time_padding(padding) -> bool:
    """A padding some of whose sizes are known only when the graph runs."""
    if isinstance(padding, Tensor):
        return padding.is_symbolic
    return isinstance(padding, (tuple, list)) and \
        any(type(p) is SymbolicScalar for p in padding)


def pad_run_time(x: Tensor, padding, mode: str, value) -> Tensor:
    """``x`` padded by run-time sizes (see the module docstring)."""
    if mode != "constant":
        raise ValueError(f"For 'pad', paddings known only when the graph runs are supported in "
                         f"'constant' mode, but got mode '{mode}'.")
    if isinstance(padding, Tensor):
        if len(padding.shape) != 1 or padding.shape[0] < 0:
            raise ValueError(f"For 'pad', a Tensor padding must be 1-D of a known length, but "
                             f"got shape {list(padding.shape)}.")
        sizes = [SS.TensorToScalar(padding[i]) for i in range(padding.shape[0])]
    else:
        sizes = list(padding)
    if len(sizes) % 2 or len(sizes) // 2 > x.ndim:
        raise ValueError(f"For 'pad', the size of padding must be divisible by 2 and cover at "
                         f"most the {x.ndim} dimensions of the input, but got {len(sizes)}.")
    fill = 0 if value is None else value
    for k in range(len(sizes) // 2):
        ax = x.ndim - 1 - k
        before, after = sizes[2 * k], sizes[2 * k + 1]
        size = shape_of(x)[ax]
        start, stop = SS.ScalarMax(-before, 0), size - SS.ScalarMax(-after, 0)
        x = x[(slice(None),) * ax + (slice(start, stop),)]  # negative sizes crop
        parts = []
        for width in (before, after):
            shape = list(shape_of(x))
            shape[ax] = SS.ScalarMax(width, 0)
            parts.append(F.fill(x.dtype, tuple(shape), fill))
        x = F.concat((parts[0], x, parts[1]), ax)
    return x
