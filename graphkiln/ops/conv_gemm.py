"""Stride-1 convolutions as GEMMs over the flattened padded images.

With stride 1, the tap ``(i, j)`` of output ``(h, w)`` is element ``(h + i*dh) * Wp + w + j*dw``
of the flattened padded image (``Wp`` its padded width). Computing the outputs on the padded
grid (``Wp`` columns per output row, the last ``Wp - Wout`` of them thrown away) turns every
im2col row into one contiguous run of memory, so im2col is a plain block copy. The columns
of a chunk of examples are laid side by side, ``(C*K, m, L)``, so the chunk is one GEMM per
group whatever its images' size (one BLAS call, not one per example; with several BLAS
threads, a GEMM wide enough for OpenBLAS to split), and chunks keep the operands in the L3
cache. The input gradient is the same convolution of the output gradient
with the flipped, transposed filter, or the adjoint of the forward (a scatter of the
columns' cotangent), whichever copies fewer columns; 1x1 convolutions without padding use
the input itself as the GEMM operand (no copy at all).

The padded images and column matrices of a chunk live in the thread's workspace
(``ops/workspace.py``), keyed by the whole grid (so the padding they keep zero is that
grid's), and each kernel writes into the caller's ``out=`` when given: a steady training
step allocates (almost) nothing here.
"""
from __future__ import annotations

import functools
import math

import numpy as np
from numpy.lib.stride_tricks import as_strided

from .workspace import (
    result_array,
    scratch,
    scratch_frame,
    set_source,
    source,
    with_scratch,
    workspace,
)

# the extra compute on the padded grid (padded / output positions) above which the general
# strided im2col is used instead
MAX_GRID_WASTE = 1.5
# bytes of one chunk's column matrices (in L3): a chunk is one GEMM, and fewer, longer
# calls (the scatter's tap adds above all) outweigh the L2 misses (LeNet's five
# convolutions 1.78 -> 1.58 ms from 1 to 4 MiB, one BLAS thread)
CACHE_BUDGET = 4 << 20
# filter gradients (per group) smaller than this many elements take a GEMM per example:
# (25, 6) 83 against 96 us over one long GEMM, (27, 32) 94 against 86 (LeNet's and RGB shapes)
PER_EXAMPLE_BELOW = 256
# the columns of a forward's whole batch kept for its filter gradient, at most (LeNet's two
# convolutions keep 2.9 and 2.7 MB and skip a 75 us copy each)
KEEP_BUDGET = 8 << 20


class FlatGrid:
    """How a stride-1 convolution of an image with ``sizes`` lays out on its padded grid."""

    __slots__ = ("kernel", "dilation", "pads", "sizes", "padded", "out", "pointwise", "key")

    def __init__(self, sizes, kernel, dilation, pads):
        self.sizes, self.kernel, self.dilation, self.pads = (tuple(sizes), tuple(kernel),
                                                             tuple(dilation), tuple(pads))
        self.padded = tuple(n + b + a for n, (b, a) in zip(sizes, pads))
        self.out = tuple(p - (k - 1) * d for p, k, d in zip(self.padded, kernel, dilation))
        self.pointwise = all(k == 1 for k in kernel) and not any(b or a for b, a in pads)
        self.key = (self.sizes, self.kernel, self.dilation, self.pads)  # workspace roles

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


@functools.lru_cache(maxsize=256)
def flat_grid(sizes: tuple, kernel: tuple, dilation: tuple, pads: tuple) -> FlatGrid:
    """The (immutable) :class:`FlatGrid` of these sizes, cached: kernels ask on every call."""
    return FlatGrid(sizes, kernel, dilation, pads)


def _taps(flat: np.ndarray, grid: FlatGrid, writeable: bool = False) -> np.ndarray:
    """The ``(N, C, *kernel, L)`` view of flattened padded images ``(N, C, buffer)``: row
    ``(n, c, tap)`` is the run of ``L`` elements the tap reads for every output position
    (runs overlap: write one tap at a time)."""
    item = flat.itemsize
    steps = [item * math.prod(grid.padded[a + 1:]) * d for a, d in enumerate(grid.dilation)]
    return as_strided(flat, flat.shape[:2] + grid.kernel + (grid.length,),
                      flat.strides[:2] + (*steps, item), writeable=writeable)


def _chunk(grid: FlatGrid, channels: int, itemsize: int) -> int:
    """Examples per GEMM: their column matrices stay within the cache budget."""
    if grid.pointwise:
        return 1 << 30  # the input itself is the operand: one batched GEMM
    per_example = channels * math.prod(grid.kernel) * grid.length * itemsize
    return max(1, CACHE_BUDGET // per_example)


def _kept(grid: FlatGrid, n: int, channels: int, itemsize: int) -> bool:
    """Whether a forward's columns of all ``n`` examples fit the budget for keeping them."""
    return n * channels * math.prod(grid.kernel) * grid.length * itemsize <= KEEP_BUDGET


def _columns(batch: np.ndarray, part: slice, grid: FlatGrid, group: int, chunk: int,
             keep: bool = False, reuse: bool = False) -> np.ndarray:
    """The ``(group, C/group*K, m*L)`` GEMM operand of the ``m <= chunk`` images
    ``batch[part]`` (pointwise grids: ``(m, group, C/group, L)``, the images themselves).
    With ``keep``, each part's padded images and columns have buffers of their own (a
    forward whose filter gradient follows), else all parts share one. With ``reuse``, when
    the columns built for this grid and part (kept ones first) came from images with the
    same bits (the filter gradient after its forward), they are used again."""
    images = batch[part]
    m, c = images.shape[:2]
    if grid.pointwise:
        return images.reshape(m, group, c // group, grid.length)
    shape = (c,) + grid.kernel + (m, grid.length)
    built = (grid.key, part.start, m)

    def buffers(slot):
        buf = workspace(("image", grid.key, slot), (chunk,) + grid.buffer_shape(c),
                        images.dtype)[:m]
        return buf, buf[(slice(None),) + grid.interior()], \
            workspace(("columns", slot), shape, images.dtype)

    for slot in (part.start, None) if reuse else ():
        if source(("columns", slot), shape, images.dtype) == built:
            _, inner, cols = buffers(slot)
            if _same_bits(inner, images):
                return cols.reshape(group, -1, m * grid.length)
    slot = part.start if keep else None
    buf, inner, cols = buffers(slot)
    set_source(("columns", slot), shape, images.dtype, None)
    inner[...] = images  # the padding was zeroed at creation
    np.copyto(np.moveaxis(cols, -2, 0), _taps(buf.reshape(m, c, -1), grid))
    set_source(("columns", slot), shape, images.dtype, built)
    return cols.reshape(group, -1, m * grid.length)


def _same_bits(a: np.ndarray, b: np.ndarray) -> bool:
    bits = f"u{a.itemsize}"
    same = scratch(a.shape, bool)
    return bool(np.equal(a.view(bits), b.view(bits), out=same).all())


def _batches(n: int, chunk: int):
    for start in range(0, n, chunk):
        yield slice(start, min(start + chunk, n))


def _by_channel(a: np.ndarray) -> np.ndarray:
    """``(m, C, ...)`` as the ``(C, m, ...)`` view."""
    return a.swapaxes(0, 1)


@with_scratch
def forward(x: np.ndarray, w: np.ndarray, grid: FlatGrid, group: int,
            out: np.ndarray | None = None, keep: bool = False) -> np.ndarray:
    """``y = W_g (O/g, C/g*K) @ cols (C/g*K, m*L)``, one GEMM per group and chunk of
    examples, the grid cut to the output (into ``out`` when it fits). With ``keep``, every
    chunk's columns stay for :func:`filter_grad` (within ``KEEP_BUDGET``)."""
    n, c, o = x.shape[0], x.shape[1], w.shape[0]
    wg = w.reshape(group, o // group, -1)
    y = result_array(out, (n, o) + grid.out, x.dtype)
    chunk = min(n, _chunk(grid, c, x.itemsize))
    keep = keep and _kept(grid, n, c, x.itemsize)
    if grid.pointwise:  # (m, g, C/g, L): the GEMM writes y directly
        for part in _batches(n, chunk):
            cols = _columns(x, part, grid, group, chunk)
            np.matmul(wg, cols, out=y[part].reshape(cols.shape[0], group, o // group, -1))
        return y
    for part in _batches(n, chunk):
        with scratch_frame():
            m = part.stop - part.start
            prod = scratch((o, m, grid.length), x.dtype)
            np.matmul(wg, _columns(x, part, grid, group, chunk, keep),
                      out=prod.reshape(group, o // group, -1))
            on_grid = prod.reshape((o, m) + grid.out[:1] + grid.padded[1:])
            np.copyto(_by_channel(y[part]), on_grid[(slice(None),) + grid.valid()])
    return y


@with_scratch
def input_grad(dy: np.ndarray, w: np.ndarray, in_sizes, kernel, dilation, pads,
               group: int, out: np.ndarray | None = None) -> np.ndarray | None:
    """The input gradient on a padded grid, into ``out`` when it fits; ``None`` when
    neither grid applies (the caller scatters). Two ways, the one copying fewer columns:

    * the convolution of ``dy`` with the flipped filter, transposed per group, over ``dy``
      padded by ``(k-1)*d - pad`` per side (one GEMM, columns of ``dy``'s channels);
    * :func:`scatter_input_grad` on the forward's grid (columns of the input's channels),
      when ``dy`` has over twice the input's channels' worth of columns."""
    back = tuple(((k - 1) * d - b, (k - 1) * d - a)
                 for k, d, (b, a) in zip(kernel, dilation, pads))
    kernel, dilation = tuple(kernel), tuple(dilation)
    grid = flat_grid(dy.shape[2:], kernel, dilation, back) \
        if all(b >= 0 and a >= 0 for b, a in back) else None
    if grid is not None and (grid.out != tuple(in_sizes) or not grid.worthwhile()):
        grid = None
    ahead = flat_grid(tuple(in_sizes), kernel, dilation, tuple(pads))
    ahead = ahead if ahead.worthwhile() and ahead.out == dy.shape[2:] else None
    o, cg = w.shape[:2]
    if ahead is not None and not ahead.pointwise and (
            grid is None or o * grid.length > 2 * cg * group * ahead.length):
        return scatter_input_grad(dy, w, ahead, group, out)
    if grid is None:
        return None
    flip = (slice(None),) * 3 + (slice(None, None, -1),) * len(kernel)
    wt = scratch((group, cg, o // group) + kernel, w.dtype)
    np.copyto(wt, w.reshape((group, o // group) + w.shape[1:])[flip].swapaxes(1, 2))
    wt = wt.reshape((group * cg, o // group) + kernel)
    return forward(dy, wt, grid, group, out)


def _output_on_grid(dy: np.ndarray, part: slice, grid: FlatGrid) -> np.ndarray:
    """``dy[part]`` laid on the grid as ``(O, m, out[0], *padded[1:])``, zero in the extra
    columns (a workspace of its own role, whose extra columns nothing else writes)."""
    m, o = part.stop - part.start, dy.shape[1]
    dy_grid = workspace(("dout", grid.key), (o, m, grid.length), dy.dtype)
    on_grid = dy_grid.reshape((o, m) + grid.out[:1] + grid.padded[1:])
    np.copyto(on_grid[(slice(None),) + grid.valid()], _by_channel(dy[part]))
    return dy_grid


@with_scratch
def scatter_input_grad(dy: np.ndarray, w: np.ndarray, grid: FlatGrid, group: int,
                       out: np.ndarray | None = None) -> np.ndarray:
    """The adjoint of :func:`forward` on its ``grid``: per row of kernel taps, the columns'
    cotangent ``W_g[row]^T (C/g*K/rows, O/g) @ dy (O/g, m*L)`` (``dy`` laid on the grid,
    zero in its extra columns) is added into the flattened padded image gradients at the
    runs its taps read, and the padding cut off (into ``out`` when it fits). A row at a
    time keeps the cotangent buffer a kernel-height smaller than the forward's columns
    (first calls fault its pages in).

    The taps along the last axis read runs ``dilation`` apart, so their cotangents are
    summed first, in one reduction over a view that shifts each tap's row back by its
    offset (:func:`_along_last_axis`), and added to the image once per remaining tap: 5
    strided adds instead of 25 for a 5x5 kernel."""
    n, o = dy.shape[:2]
    cg = w.shape[1]
    c = cg * group
    rows, row_taps = grid.kernel[0], math.prod(grid.kernel[1:])
    last = grid.kernel[-1] if len(grid.kernel) > 1 else 1
    first = (0,) if len(grid.kernel) > 1 else ()  # the last axis's first tap
    chunk = min(n, max(1, CACHE_BUDGET // (c * rows * row_taps * grid.length * dy.itemsize)))
    # (row, g, C/g * taps of the row, O/g)
    wt = np.moveaxis(w.reshape(group, o // group, cg, rows, row_taps), 3, 0) \
        .reshape(rows, group, o // group, cg * row_taps).swapaxes(2, 3)
    finite = math.isfinite(np.add.reduce(w, axis=None))
    image = scratch((chunk,) + grid.buffer_shape(c), dy.dtype)
    dx = result_array(out, (n, c) + grid.sizes, dy.dtype)
    for part in _batches(n, chunk):
        with scratch_frame():
            m = part.stop - part.start
            dyg = _output_on_grid(dy, part, grid).reshape(group, o // group, -1)
            img = image[:m]
            img.fill(0)
            runs = _taps(img.reshape(m, c, -1), grid, writeable=True)
            cols = scratch((c, row_taps, m * grid.length), dy.dtype)
            summed = cols if last == 1 else \
                scratch((c, row_taps // last, m * grid.length), dy.dtype)
            for row in range(rows):
                np.matmul(wt[row], dyg, out=cols.reshape(group, cg * row_taps, -1))
                if not finite:  # inf * 0 in the extra columns would land on real pixels
                    _zero_extra(cols.reshape((-1, m) + grid.grid_shape(1)[1:]), grid)
                if last > 1:
                    np.add.reduce(_along_last_axis(cols, last, grid.dilation[-1]), axis=2,
                                  out=summed)
                # (m, C, taps of the row but the last axis', L)
                by_tap = np.moveaxis(summed.reshape(summed.shape[:2] + (m, grid.length)), 2, 0)
                for k, tap in enumerate(np.ndindex(*grid.kernel[1:-1])):
                    target = runs[(slice(None), slice(None), row) + tap + first + (slice(None),)]
                    np.add(target, by_tap[:, :, k], out=target)
            dx[part] = img[(slice(None),) + grid.interior()]
    return dx


def _along_last_axis(cols: np.ndarray, last: int, step: int) -> np.ndarray:
    """``(C, taps, m*L)`` cotangents as ``(C, taps / last, last, m*L)`` with the tap ``t``
    of the last axis read ``t * step`` columns back, i.e. at the positions of the run of
    that axis's first tap. A read before a row's start lands on the previous row's last
    ``(last - 1) * step`` columns: the grid's extra columns of the last output row, zero
    (and the same holds for each example's run: its first columns take the previous
    example's extra ones)."""
    c, taps, length = cols.shape
    s = cols.strides[-1]
    return as_strided(cols, (c, taps // last, last, length),
                      (cols.strides[0], last * length * s, (length - step) * s, s))


@with_scratch
def filter_grad(dy: np.ndarray, x: np.ndarray, w_shape, grid: FlatGrid, group: int,
                out: np.ndarray | None = None) -> np.ndarray:
    """``dW_g^T = sum over chunks cols (C/g*K, m*L) @ dy^T (m*L, O/g)`` (this orientation is
    the faster GEMM), into ``out`` when it fits. A filter gradient of fewer than
    ``PER_EXAMPLE_BELOW`` elements per group takes a GEMM per example instead, summed (a
    GEMM that long and that narrow runs slower than the shorter ones). The grid's extra
    columns are zero in ``dy``'s operand, and in the columns too when the images hold a
    non-finite value (or a sum that overflows), so an inf or NaN there cannot leak in (a
    finite value times zero adds nothing)."""
    n, c, o = x.shape[0], x.shape[1], dy.shape[1]
    chunk = min(n, _chunk(grid, c, x.itemsize))
    exact = grid.length == math.prod(grid.out)  # no extra columns to keep zero
    finite = exact or math.isfinite(np.add.reduce(x, axis=None))
    acc_shape = (group, math.prod(w_shape[1:]), o // group)
    per_example = grid.pointwise or acc_shape[1] * acc_shape[2] < PER_EXAMPLE_BELOW
    acc = scratch(acc_shape, dy.dtype)
    for part in _batches(n, chunk):
        with scratch_frame():
            m = part.stop - part.start
            cols = _columns(x, part, grid, group, chunk, reuse=True)
            if grid.pointwise:  # (m, g, C/g, L) against dy's (m, g, O/g, L)
                dyg = dy[part].reshape(m, group, o // group, -1)
            else:
                if not finite:
                    _zero_extra(cols.reshape((-1, m) + grid.grid_shape(1)[1:]), grid)
                dyg = _output_on_grid(dy, part, grid).reshape(group, o // group, -1)
                if per_example:  # (g, rows, m*L) -> (m, g, rows, L)
                    cols, dyg = (a.reshape(group, -1, m, grid.length).transpose(2, 0, 1, 3)
                                 for a in (cols, dyg))
            target = acc if part.start == 0 else scratch(acc_shape, dy.dtype)
            if per_example:
                prods = scratch((m,) + acc_shape, dy.dtype)
                np.matmul(cols, dyg.swapaxes(-1, -2), out=prods)
                np.sum(prods, axis=0, out=target)
            else:
                np.matmul(cols, dyg.swapaxes(1, 2), out=target)
            if target is not acc:
                acc += target
    dw = result_array(out, tuple(w_shape), dy.dtype)
    np.copyto(dw.reshape(group, o // group, -1), acc.swapaxes(1, 2))
    return dw


def _zero_extra(grid_rows: np.ndarray, grid: FlatGrid) -> None:
    """Zero the positions of ``(a, b, out[0], *padded[1:])`` beyond the output on the
    padded axes."""
    for axis, o in enumerate(grid.out[1:], start=3):
        index = [slice(None)] * grid_rows.ndim
        index[axis] = slice(o, None)
        grid_rows[tuple(index)] = 0
