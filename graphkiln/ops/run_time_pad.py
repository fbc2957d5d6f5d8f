"""``ops.pad`` with paddings known only when the graph runs (an integer Tensor computed by
the graph, or run-time ints), as MindSpore's value-depend ``PadV3``: in ``constant`` mode,
per axis (the last first) a negative size crops, a positive one adds ``value``; the other
modes are ``PadV3``'s own (:func:`check_mode_rank`). The padded dimensions are known when the
graph runs."""

from __future__ import annotations

import graphkiln.ops.functional as F

from ..common.symbolic_scalar import SymbolicScalar
from ..common.tensor import Tensor
from .defs import scalar as SS
from .defs.pad_v3 import PadV3
from .dynamic_shape import shape_of

# ops.pad's modes as PadV3 names them
PAD_V3_MODES = {"constant": "constant", "reflect": "reflect", "replicate": "edge",
                "circular": "circular"}


def check_mode_rank(mode: str, ndim: int, count: int) -> bool:
    """MindSpore's rule for the ``reflect``/``replicate``/``circular`` modes: ``count``
    paddings (``count // 2`` padded dimensions) pad an input with one or two leading
    dimensions more (``reflect``: at most 4-D with them). True when the input lacks its
    batch dimension (one leading dimension only)."""
    padded = count // 2
    if ndim < 3 and not (ndim == 2 and count == 2):
        raise ValueError(f"For 'pad', the input dims for {mode} mode must be greater than or "
                         f"equal to 3 (or 2 with 2 paddings), but got {ndim}.")
    if ndim - padded not in (1, 2):
        raise ValueError(f"For 'pad' in {mode} mode, the input dims when padding's size equal "
                         f"{count} must be equal to {padded + 2} (or {padded + 1}), but got "
                         f"{ndim}.")
    if mode == "reflect" and padded + 2 > 4:
        raise ValueError(f"For 'pad', the input dims for reflect mode must be less than or "
                         f"equal to 4, but got {padded + 2}.")
    return ndim - padded == 1


def is_run_time_padding(padding) -> bool:
    """A padding some of whose sizes are known only when the graph runs."""
    if isinstance(padding, Tensor):
        return padding.is_symbolic
    return isinstance(padding, (tuple, list)) and \
        any(type(p) is SymbolicScalar for p in padding)


def pad_run_time(x: Tensor, padding, mode: str, value) -> Tensor:
    """``x`` padded by run-time sizes (see the module docstring)."""
    if mode != "constant":
        count = padding.shape[0] if isinstance(padding, Tensor) else len(padding)
        if check_mode_rank(mode, x.ndim, count):
            sizes = tuple(padding) if isinstance(padding, list) else padding
            return PadV3(F.expand_dims(x, 0), sizes, None, mode=PAD_V3_MODES[mode])[0]
        return PadV3(x, tuple(padding) if isinstance(padding, list) else padding, None,
                     mode=PAD_V3_MODES[mode])
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
