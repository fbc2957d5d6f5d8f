"""``PixelShuffle``, ``PixelUnshuffle`` and ``ChannelShuffle``: cells over the ops of the
same names."""
from __future__ import annotations

import graphkiln.ops as ops

from .cell import Cell


class PixelShuffle(Cell):
    """``(*, C r^2, H, W) -> (*, C, H r, W r)`` with ``r = upscale_factor``."""

    def __init__(self, upscale_factor: int):
        super().__init__()
        self.upscale_factor = upscale_factor

    def construct(self, input):
        return ops.pixel_shuffle(input, self.upscale_factor)


class PixelUnshuffle(Cell):
    """``(*, C, H r, W r) -> (*, C r^2, H, W)`` with ``r = downscale_factor``."""

    def __init__(self, downscale_factor: int):
        super().__init__()
        self.downscale_factor = downscale_factor

    def construct(self, input):
        return ops.pixel_unshuffle(input, self.downscale_factor)


class ChannelShuffle(Cell):
    """Interleave the channels of ``groups`` groups."""

    def __init__(self, groups: int):
        super().__init__()
        if isinstance(groups, bool) or not isinstance(groups, int):
            raise TypeError(f"For ChannelShuffle, the param `groups` must be int, but got "
                            f"{type(groups)}.")
        if groups < 1:
            raise ValueError(f"For ChannelShuffle, the param `groups` must be larger than 0, "
                             f"but got {groups}.")
        self.groups = groups

    def construct(self, x):
        return ops.channel_shuffle(x, self.groups)
