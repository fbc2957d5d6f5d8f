"""Padding layers: ``ConstantPad1d/2d/3d`` and ``ZeroPad2d`` (a constant border; a negative
padding crops) and the ones that copy input values into the border: ``ReflectionPad1d/2d/3d``
(mirrored about the edge elements) and ``ReplicationPad1d/2d/3d`` (the edge elements
repeated; a negative padding crops). Each padded axis is a gather of the input at
constant source positions, so the gradient flows back to the copied elements."""
from __future__ import annotations

import numpy as np

import graphkiln.ops as ops

from ..common.tensor import Tensor
from .basic import _pad_index
from .cell import Cell


def _source_positions(size: int, before: int, after: int, mode: str) -> np.ndarray:
    if mode == "EDGE":
        return np.clip(np.arange(-before, size + after), 0, size - 1).astype(np.int32)
    return _pad_index(size, before, after, mode)


class _CopyPadNd(Cell):
    """``padding``: ``(left, right[, top, bottom[, front, back]])``, from the last axis
    backwards, as MindSpore's (an int pads every side of the ``rank`` last axes)."""

    def __init__(self, padding, rank: int, mode: str):
        super().__init__()
        name = type(self).__name__
        if isinstance(padding, int) and not isinstance(padding, bool):
            padding = (padding,) * (2 * rank)
        if not isinstance(padding, tuple):
            raise TypeError(f"For '{name}' the input 'padding' must be an integer or tuple, "
                            f"but got {type(padding).__name__}")
        if len(padding) % 2 != 0:
            raise ValueError(f"For '{name}' the length of input 'padding' must be divisible by "
                             f"2, but got padding of length {len(padding)}. ")
        if not all(isinstance(i, int) and not isinstance(i, bool) for i in padding):
            raise TypeError(f"For '{name}' every element in 'padding' must be integer, but got "
                            f"{padding}. ")
        if mode == "REFLECT" and not all(i >= 0 for i in padding):
            raise ValueError(f"For '{name}' every element in 'padding' must be >= 0. but got "
                             f"{padding}. ")
        self.padding = padding
        self.mode = mode

    def construct(self, x):
        pairs = len(self.padding) // 2
        if x.ndim < pairs:
            raise ValueError(f"For padding with length {len(self.padding)}, the dimension of "
                             f"the tensor should be at least {pairs}, but got {x.ndim}")
        if self.mode == "EDGE" and x.ndim not in (pairs + 1, pairs + 2):
            raise ValueError(f"For '{type(self).__name__}', the input must have {pairs + 1} or "
                             f"{pairs + 2} dims, but got {x.ndim}.")
        for i in range(pairs):
            before, after = self.padding[2 * i], self.padding[2 * i + 1]
            axis = x.ndim - 1 - i
            size = x.shape[axis]
            if self.mode == "REFLECT" and max(before, after) >= size:
                raise ValueError(f"For '{type(self).__name__}', the padding {before, after} of "
                                 f"axis {axis} must be less than its size {size}.")
            if before or after:
                index = _source_positions(size, before, after, self.mode)
                x = ops.gather(x, Tensor(index), axis)
        return x


class ReflectionPad1d(_CopyPadNd):
    """Mirror the last axis: ``padding`` is an int or ``(left, right)``."""

    def __init__(self, padding):
        super().__init__(padding, 1, "REFLECT")


class ReflectionPad2d(_CopyPadNd):
    """Mirror the last two axes: an int or ``(left, right, top, bottom)``."""

    def __init__(self, padding):
        super().__init__(padding, 2, "REFLECT")


class ReflectionPad3d(_CopyPadNd):
    """Mirror the last three axes: an int or ``(left, right, top, bottom, front, back)``."""

    def __init__(self, padding):
        super().__init__(padding, 3, "REFLECT")


class ReplicationPad1d(_CopyPadNd):
    """Repeat the edge elements of the last axis: an int or ``(left, right)``."""

    def __init__(self, padding):
        super().__init__(padding, 1, "EDGE")


class ReplicationPad2d(_CopyPadNd):
    """Repeat the edges of the last two axes: an int or ``(left, right, top, bottom)``."""

    def __init__(self, padding):
        super().__init__(padding, 2, "EDGE")


class ReplicationPad3d(_CopyPadNd):
    """Repeat the edges of the last three axes: an int or ``(left, right, top, bottom,
    front, back)``."""

    def __init__(self, padding):
        super().__init__(padding, 3, "EDGE")


class _ConstantPadNd(Cell):
    """``padding``: an int (every side of the ``rank`` last axes) or a tuple of at most
    ``2 * rank`` ints, from the last axis backwards; ``value`` fills the border."""

    def __init__(self, padding, value, rank: int):
        super().__init__()
        name = type(self).__name__
        if isinstance(padding, int) and not isinstance(padding, bool):
            padding = (padding,) * (2 * rank)
        elif isinstance(padding, tuple):
            if len(padding) % 2 != 0:
                raise ValueError(f"For '{name}', the length of parameter 'padding' with tuple "
                                 f"type must be a multiple of 2, but got {len(padding)}")
            if rank == 1 and len(padding) != 2:
                raise ValueError(f"For '{name}', the length of parameter 'padding' with tuple "
                                 f"type must equal to 2.but got {len(padding)}")
            if len(padding) > 2 * rank:
                raise ValueError(f"For '{name}', the length of parameter 'padding' with tuple "
                                 f"type must no more than {2 * rank}.but got {len(padding)}")
        else:
            raise TypeError(f"For '{name}', the type of parameter 'padding' must be in [int, "
                            f"tuple], but got {type(padding)}")
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise TypeError(f"For '{name}', the type of parameter 'value' must be in [int, "
                            f"float], but got {type(value)}")
        self.padding = padding
        self.value = value

    def construct(self, x):
        return ops.pad(x, self.padding, mode="constant", value=self.value)


class ConstantPad1d(_ConstantPadNd):
    """Pad the last axis with ``value``: an int or ``(left, right)``."""

    def __init__(self, padding, value):
        super().__init__(padding, value, 1)


class ConstantPad2d(_ConstantPadNd):
    """Pad the last two axes with ``value``: an int or ``(left, right, top, bottom)``."""

    def __init__(self, padding, value):
        super().__init__(padding, value, 2)


class ConstantPad3d(_ConstantPadNd):
    """Pad the last three axes with ``value``: an int or ``(left, right, top, bottom, front,
    back)``."""

    def __init__(self, padding, value):
        super().__init__(padding, value, 3)


class ZeroPad2d(_ConstantPadNd):
    """Pad the last two axes with zeros: an int or ``(left, right, top, bottom)``."""

    def __init__(self, padding):
        super().__init__(padding, 0, 2)
