"""``ops.batch_to_space_nd`` and ``ops.space_to_batch_nd`` (see :mod:`.defs.space_rearrange`)."""
from __future__ import annotations

from ..common.tensor import Tensor
from .defs import space_rearrange as SR

__all__ = ["batch_to_space_nd", "space_to_batch_nd"]


def batch_to_space_nd(input_x: Tensor, block_shape, crops) -> Tensor:
    """The batch split into ``prod(block_shape)`` groups interleaved into the last
    ``len(block_shape)`` axes, with ``crops[k] = [begin, end]`` removed from each."""
    return SR.BatchToSpaceND(input_x, block_shape=block_shape, crops=crops)


def space_to_batch_nd(input_x: Tensor, block_size, paddings) -> Tensor:
    """The last ``len(paddings)`` axes padded by ``paddings[k] = [begin, end]`` and split
    into ``block_size[k]`` interleaved groups moved to the batch (an int ``block_size``
    serves every axis)."""
    return SR.SpaceToBatchND(input_x, block_shape=block_size, paddings=paddings)
