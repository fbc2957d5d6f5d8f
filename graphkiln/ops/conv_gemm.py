"""Stride-1 convolutions as one GEMM per example over the flattened padded image.

With stride 1, the tap ``(i, j)`` of output ``(h, w)`` is element ``(h + i*dh) * Wp + w + j*dw``
of the flattened padded image (``Wp`` its padded width). Computing the outputs on the padded
grid (``Wp`` columns per output row, the last ``Wp - Wout`` of them thrown away) turns every
im2col row into one contiguous run of memory, so im2col is a plain block copy and each
example is a single BLAS call whose operands stay in cache. The input gradient is the same
convolution of the output gradient with the flipped, transposed filter (no scatter); 1x1
convolutions without padding use the input itself as the GEMM operand (no copy at all).

The padded image and column matrix of one example are scratch buffers kept per shape and
thread, so a training step allocates only its results.
"""
from __future__ import annotations

import math
import threading

import numpy as np
from numpy.lib.stride_tricks import as_strided

# the extra compute on the padded grid (padded / output positions) above which the general
# strided im2col is used instead
MAX_GRID_WASTE = 1.5
_MAX_SCRATCH = 16  # buffers kept per thread before the oldest go


class _Scratch(threading.local):
    """Per-thread buffers keyed by (role, shape, dtype); a new one starts zero-filled."""

    def __init__(self):
        self.buffers: dict = {}

    def get(self, role: str, shape: tuple, dtype: np.dtype) -> np.ndarray:
        key = (role, shape, dtype)
        buf = self.buffers.pop(key, None)
        if buf is None:
            buf = np.zeros(shape, dtype)
            while len(self.buffers) >= _MAX_SCRATCH:
                self.buffers.pop(next(iter(self.buffers)))
        self.buffers[key] = buf  # most recently used last
        return buf


_SCRATCH = _Scratch()


class FlatGrid:
    """How a stride-1 convolution of an image with ``sizes`` lays out on its padded grid."""

    __slots__ = ("kernel", "dilation", "pads", "sizes", "padded", "out", "pointwise")

    def __init__(self, sizes, kernel, dilation, pads):
        self.sizes, self.kernel, self.dilation, self.pads = (tuple(sizes), tuple(kernel),
                                                             tuple(dilation), tuple(pads))
        self.padded = tuple(n + b + a for n, (b, a) in zip(sizes, pads))
        self.out = tuple(p - (k - 1) * d for p, k, d in zip(self.padded, kernel, dilation))
        self.pointwise = all(k == 1 for k in kernel) and not any(b or a for b, a in pads)

    @property
    def length(self) -> int:
        """Output positions computed per example: the output rows on the padded width."""
        return self.out[0] * math.prod(self.padded[1:])

    def worthwhile(self) -> bool:
        return self.length <= MAX_GRID_WASTE * math.prod(self.out)

    def buffer_shape(self, channels: int) -> tuple:
        """One padded image plus a slab on the first axis for the last rows' overrun."""
        return (channels, self.padded[0] + 1) + self.padded[1:]

    def interior(self) -> tuple:
        """Where the unpadded image sits in the padded buffer."""
        return (slice(None),) + tuple(slice(b, b + n) for (b, _), n in zip(self.pads,
                                                                            self.sizes))

    def valid(self) -> tuple:
        """The output positions inside the computed ``(C, out[0], *padded[1:])`` grid."""
        return (slice(None),) + tuple(slice(0, o) for o in self.out)

    def grid_shape(self, channels: int) -> tuple:
        return (channels, self.out[0]) + self.padded[1:]


def _taps(flat: np.ndarray, grid: FlatGrid) -> np.ndarray:
    """The ``(C, *kernel, L)`` view of a flattened padded image ``(C, buffer)``: row
    ``(c, tap)`` is the run of ``L`` elements the tap reads for every output position."""
    item = flat.itemsize
    steps = [item * math.prod(grid.padded[a + 1:]) * d for a, d in enumerate(grid.dilation)]
    return as_strided(flat, (flat.shape[0],) + grid.kernel + (grid.length,),
                      (flat.strides[0], *steps, item), writeable=False)


def _columns(image: np.ndarray, grid: FlatGrid, group: int) -> np.ndarray:
    """The ``(group, C/group*K, L)`` GEMM operand of one ``(C, *sizes)`` image."""
    c = image.shape[0]
    if grid.pointwise:
        return image.reshape(group, c // group, grid.length)
    buf = _SCRATCH.get("image", grid.buffer_shape(c), image.dtype)
    buf[grid.interior()] = image  # the padding was zeroed when the buffer was made
    cols = _SCRATCH.get("columns", (c,) + grid.kernel + (grid.length,), image.dtype)
    np.copyto(cols, _taps(buf.reshape(c, -1), grid))
    return cols.reshape(group, -1, grid.length)


def forward(x: np.ndarray, w: np.ndarray, grid: FlatGrid, group: int) -> np.ndarray:
    """``y[n] = W_g (O/g, C/g*K) @ cols(x[n])`` per example, the grid cut to the output."""
    n, o = x.shape[0], w.shape[0]
    wg = w.reshape(group, o // group, -1)
    y = np.empty((n, o) + grid.out, x.dtype)
    res = _SCRATCH.get("result", (group, o // group, grid.length), x.dtype)
    for i in range(n):
        np.matmul(wg, _columns(x[i], grid, group), out=res)
        y[i] = res.reshape(grid.grid_shape(o))[grid.valid()]
    return y


def input_grad(dy: np.ndarray, w: np.ndarray, in_sizes, kernel, dilation, pads,
               group: int) -> np.ndarray | None:
    """The input gradient as the convolution of ``dy`` with the flipped filter, transposed
    per group, over ``dy`` padded by ``(k-1)*d - pad`` per side; ``None`` when a padding is
    wider than that (the caller scatters instead)."""
    back = tuple(((k - 1) * d - b, (k - 1) * d - a)
                 for k, d, (b, a) in zip(kernel, dilation, pads))
    if any(b < 0 or a < 0 for b, a in back):
        return None
    grid = FlatGrid(dy.shape[2:], kernel, dilation, back)
    if grid.out != tuple(in_sizes) or not grid.worthwhile():
        return None
    o, cg = w.shape[:2]
    flip = (slice(None),) * 3 + (slice(None, None, -1),) * len(kernel)
    wt = w.reshape((group, o // group) + w.shape[1:])[flip].swapaxes(1, 2)
    wt = np.ascontiguousarray(wt).reshape((group * cg, o // group) + tuple(kernel))
    return forward(dy, wt, grid, group)


def filter_grad(dy: np.ndarray, x: np.ndarray, w_shape, grid: FlatGrid,
                group: int) -> np.ndarray:
    """``dW_g^T = sum_n cols(x[n]) (C/g*K, L) @ dy[n]^T`` (this orientation is the faster
    GEMM), with the grid's extra columns zero in both operands (so non-finite inputs there
    cannot leak in)."""
    o = dy.shape[1]
    dy_grid = _SCRATCH.get("dout", grid.grid_shape(o), dy.dtype)  # extra columns stay 0
    valid = grid.valid()
    acc = np.zeros((group, math.prod(w_shape[1:]), o // group), dy.dtype)
    part = _SCRATCH.get("filter", acc.shape, dy.dtype)
    for i in range(dy.shape[0]):
        cols = _columns(x[i], grid, group)
        if not grid.pointwise:
            _zero_extra(cols.reshape((-1,) + grid.grid_shape(1)[1:]), grid)
        dy_grid[valid] = dy[i]
        np.matmul(cols, dy_grid.reshape(group, o // group, -1).swapaxes(1, 2), out=part)
        acc += part
    return np.ascontiguousarray(acc.swapaxes(1, 2)).reshape(w_shape)


def _zero_extra(grid_rows: np.ndarray, grid: FlatGrid) -> None:
    """Zero the positions of ``(rows, out[0], *padded[1:])`` beyond the output on the
    padded axes."""
    for axis, o in enumerate(grid.out[1:], start=2):
        index = [slice(None)] * grid_rows.ndim
        index[axis] = slice(o, None)
        grid_rows[tuple(index)] = 0
