"""``combine_tensor_list_contiguous``: move a list of Tensors into one host buffer, in
order and without padding (MindSpore's CPU layout), so they share its memory; the handle
reads that buffer as elements of the first Tensor's dtype. In-place updates (``Assign``,
optimizer steps) write the buffer; ``x[i] = v`` on a plain Tensor gives it new data
(graphkiln's copy on write), which the buffer does not see."""
from __future__ import annotations

import numpy as np

from ..common.tensor import Tensor


def combine_tensor_list_contiguous(tensor_list, enable_mem_align: bool = True):
    """A :class:`ContiguousTensorsHandle` over ``tensor_list``."""
    return ContiguousTensorsHandle(tensor_list, enable_mem_align)


class ContiguousTensorsHandle:
    """One buffer holding the Tensors of ``tensor_list`` one after another: each Tensor
    keeps its dtype and shape and now reads and writes its part of the buffer."""

    def __init__(self, tensor_list, enable_mem_align: bool = True):
        if not isinstance(tensor_list, (list, tuple)) or \
                not all(isinstance(t, Tensor) for t in tensor_list):
            raise TypeError("input list must be [Tensor, ...].")
        if not isinstance(enable_mem_align, bool):
            raise TypeError("enable_mem_align must be bool.")
        self.tensor_list = tuple(tensor_list)
        arrays = [np.ascontiguousarray(t.asnumpy()) for t in self.tensor_list]
        self.before_padding_sizes = [a.nbytes for a in arrays]
        self.after_padding_sizes = list(self.before_padding_sizes)  # no padding on the host
        self.total_padding_size = sum(self.after_padding_sizes)
        self._buffer = np.empty(self.total_padding_size, np.uint8)
        self._offsets = np.cumsum([0, *self.after_padding_sizes]).tolist()
        for t, a, start in zip(self.tensor_list, arrays, self._offsets):
            part = self._buffer[start:start + a.nbytes].view(a.dtype).reshape(a.shape)
            part[...] = a
            t._data = part  # the Tensor now lives in the buffer
        self._itemsize = arrays[0].dtype.itemsize if arrays else 1
        self.handle_shape = self.total_padding_size / self._itemsize
        self.enable_mem_align = enable_mem_align

    def _elements(self, start: int, end: int) -> Tensor:
        dtype = self.tensor_list[0].dtype
        flat = self._buffer[start * self._itemsize:end * self._itemsize]
        return Tensor(flat.view(dtype.np_dtype).copy(), dtype)

    def __getitem__(self, item) -> Tensor:
        """Elements ``item`` (an int or a slice without step) of the buffer, read in the
        first Tensor's dtype."""
        if isinstance(item, slice):
            start = 0 if item.start is None else item.start
            end = int(self.handle_shape) if item.stop is None else item.stop
            if not isinstance(start, int) or not isinstance(end, int):
                raise TypeError("slice input error.")
            if start < 0 or end > self.handle_shape or start >= end:
                raise ValueError("slice input error.")
            return self._elements(start, end)
        if not isinstance(item, int):
            raise TypeError("slice input must be 1.index -> int.2.[start: end: step] -> "
                            "[int: int: int].")
        if item < 0 or item > self.handle_shape:
            raise ValueError("slice input is out of tensor_list size.")
        return self._elements(item, item + 1)

    def __str__(self) -> str:
        lines = [f"Handle total size: {self.total_padding_size}"]
        lines += [f"Tensor[{i}]: {t.asnumpy()}" for i, t in enumerate(self.tensor_list)]
        return "\n".join(lines) + "\n"

    def slice_by_tensor_index(self, start=None, end=None) -> Tensor:
        """Tensors ``start`` to ``end`` (exclusive; ``end`` defaults to ``start + 1``) as one
        flat Tensor of the first Tensor's dtype."""
        first = 0 if start is None else start
        last = len(self.tensor_list) if start is None and end is None else \
            (first + 1 if end is None else end)
        if not isinstance(first, int) or not isinstance(last, int):
            raise TypeError("slice input error.")
        if first < 0 or last > len(self.tensor_list) or first >= last:
            raise ValueError("slice input error.")
        lo, hi = self._offsets[first], self._offsets[last]
        return self._elements(lo // self._itemsize, hi // self._itemsize)


__all__ = ["ContiguousTensorsHandle", "combine_tensor_list_contiguous"]
