"""3x3 stride-1 convolutions by Winograd's minimal filtering F(4x4, 3x3).

A 6x6 tile ``d`` of the padded input and the filter ``g`` give a 4x4 tile of the output as
``A^T [(G g G^T) * (B^T d B)] A``: 36 multiplications where the direct convolution takes
144, so the GEMM at the heart of a large convolution does 4x less work. Per chunk of
examples:

* the input transform ``V = B^T d B`` runs as two small GEMMs (``B^T`` over the tile rows of
  a strided copy of the padded image, then over its columns), giving 36 matrices
  ``(C, tiles)``;
* the 36 products ``M[p] = U[p] (O, C) @ V[p] (C, tiles)`` are one batched GEMM, with
  ``U = G g G^T`` computed once per call as ``kron(G, G) (36, 9) @ g``;
* the output transform ``A^T M A`` is two small GEMMs and one transposing copy into NCHW.

The transforms come from the Toom-Cook construction on the points 0, 1, -1, 2, -1/2 (and
infinity). Those points keep the float32 error within about 3x the direct convolution's
(2e-6 of the largest output on a 64-channel 3x3 layer, against 6e-7 for im2col + GEMM);
the usual 0, +-1, +-2 lose another 4x.

A tile mixes its 36 inputs into each of its 16 outputs, so one inf or NaN in the input (or
an overflow inside the transforms) would reach outputs whose 3x3 window never touched it.
Every kernel here checks that its result is finite and returns ``None`` when it is not;
the caller then computes the direct convolution, whose non-finite values are exactly where
they belong.
"""
from __future__ import annotations

import functools
import math
import threading
from fractions import Fraction

import numpy as np

from .workspace import result_array, scratch, scratch_frame, with_scratch, workspace

OUT_TILE = 4  # m of F(m x m, 3 x 3)
KERNEL = 3
TILE = OUT_TILE + KERNEL - 1  # the input tile's side
POINTS = (Fraction(0), Fraction(1), Fraction(-1), Fraction(2), Fraction(-1, 2))
# The transforms cost time in proportion to (C + O) x pixels, the GEMM saves it in
# proportion to C x O x pixels; below these (measured on 2-core AVX2/AVX-512 machines) the
# im2col GEMM is faster
MIN_CHANNELS = 24  # C * O / (C + O), half the channels when C == O
MIN_PIXELS = 256  # output pixels of the whole batch (the filter transform is per call)
MAX_TILE_WASTE = 1.5  # tile outputs computed / outputs kept
CACHE_BUDGET = 1 << 20  # bytes of one chunk's transformed tiles (stays in L2)
MEMO_BUDGET = 32 << 20  # bytes of transformed forward inputs kept per thread


def _polymul(a: list, b: list) -> list:
    out = [Fraction(0)] * (len(a) + len(b) - 1)
    for i, x in enumerate(a):
        for j, y in enumerate(b):
            out[i + j] += x * y
    return out


def _toom_cook(points, m: int, r: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(B^T, G, A^T)`` of F(m, r) on ``points`` and infinity, exact in rationals and
    rounded once to float64."""
    n = m + r - 1
    at = [[Fraction(0)] * n for _ in range(m)]
    g = [[Fraction(0)] * r for _ in range(n)]
    bt = []
    for k, pk in enumerate(points):
        others = [pl for pl in points if pl != pk]
        scale = math.prod((pk - pl for pl in others), start=Fraction(1))
        for i in range(m):
            at[i][k] = pk ** i
        g[k] = [pk ** j / scale for j in range(r)]
        poly = [Fraction(1)]
        for pl in others:
            poly = _polymul(poly, [-pl, Fraction(1)])
        bt.append(poly + [Fraction(0)] * (n - len(poly)))
    at[m - 1][n - 1] = Fraction(1)
    g[n - 1][r - 1] = Fraction(1)
    poly = [Fraction(1)]
    for pl in points:
        poly = _polymul(poly, [-pl, Fraction(1)])
    bt.append(poly)
    return tuple(np.array([[float(v) for v in row] for row in mat]) for mat in (bt, g, at))


@functools.lru_cache(maxsize=4)
def transforms(dtype) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``B^T (6, 6)``, ``A^T (4, 6)`` and ``kron(G, G) (36, 9)`` in ``dtype``; the kron's
    rows are ``(column point, row point)`` and its columns ``(kx, ky)``, the order the
    kernels lay tiles out in."""
    bt, g, at = _toom_cook(POINTS, OUT_TILE, KERNEL)
    return bt.astype(dtype), at.astype(dtype), np.kron(g, g).astype(dtype)


class TileGrid:
    """How a 3x3 stride-1 convolution of images ``sizes`` padded by ``pads`` tiles."""

    __slots__ = ("sizes", "pads", "out", "tiles", "padded", "key", "count", "aligned")

    def __init__(self, sizes: tuple, pads: tuple):
        self.sizes, self.pads = tuple(sizes), tuple(pads)
        self.out = tuple(n + b + a - (KERNEL - 1) for n, (b, a) in zip(sizes, pads))
        self.tiles = tuple(-(-o // OUT_TILE) for o in self.out)
        self.padded = tuple(t * OUT_TILE + KERNEL - 1 for t in self.tiles)
        self.key = (self.sizes, self.pads)
        self.count = self.tiles[0] * self.tiles[1]
        self.aligned = all(o == t * OUT_TILE for o, t in zip(self.out, self.tiles))


@functools.lru_cache(maxsize=256)
def tile_grid(sizes: tuple, pads: tuple) -> TileGrid:
    return TileGrid(sizes, pads)


def applies(dtype, in_shape, w_shape, kernel, stride, dilation, pads, group) -> bool:
    """Whether F(4x4, 3x3) runs the convolution of an ``in_shape`` input with a ``w_shape``
    filter (and its gradients): float32, 2-D, 3x3, stride and dilation 1, one group, each
    pad at most 2 (so the input gradient is a convolution of the same kind) and enough
    work per example for the transforms to pay."""
    if np.dtype(dtype) != np.float32 or len(in_shape) != 4 or group != 1:
        return False
    if tuple(kernel) != (KERNEL, KERNEL) or any(s != 1 for s in stride) or \
            any(d != 1 for d in dilation) or any(not 0 <= p <= 2 for pair in pads for p in pair):
        return False
    grid = tile_grid(tuple(in_shape[2:]), tuple(tuple(p) for p in pads))
    (ho, wo), (c, o) = grid.out, (in_shape[1], w_shape[0])
    return min(grid.out) >= 1 and c * o >= MIN_CHANNELS * (c + o) and \
        in_shape[0] * ho * wo >= MIN_PIXELS and \
        grid.count * OUT_TILE * OUT_TILE <= MAX_TILE_WASTE * ho * wo


def _chunk(channels: int, grid: TileGrid) -> int:
    per_example = TILE * TILE * channels * grid.count * 4
    return max(1, CACHE_BUDGET // per_example)


def _parts(n: int, chunk: int):
    for start in range(0, n, chunk):
        yield slice(start, min(start + chunk, n))


class _Transformed:
    """The transformed tiles of one forward's input, kept for its filter gradient, with a
    copy of that input to check a later input against."""

    __slots__ = ("layout", "source", "tiles", "address")

    def __init__(self, layout: tuple, source_shape: tuple, tile_shapes: list, dtype):
        self.layout = layout
        self.source = np.empty(source_shape, dtype)
        self.tiles = [np.empty(shape, dtype) for shape in tile_shapes]
        self.address = None  # the input's data pointer, once every chunk is transformed

    @property
    def nbytes(self) -> int:
        return self.source.nbytes + sum(t.nbytes for t in self.tiles)


class _TileMemo(threading.local):
    """The inputs transformed by this thread's last forward convolutions, least recently
    used first, within ``MEMO_BUDGET`` bytes. A filter gradient uses an entry only when the
    input it is given has the forward input's address and bits."""

    def __init__(self):
        self.entries: list[_Transformed] = []

    def store(self, x: np.ndarray, grid: TileGrid, chunk: int) -> _Transformed | None:
        n, c = x.shape[:2]
        layout = (grid.key, x.shape, x.dtype, chunk)
        tile_shapes = [(TILE * TILE, c, (p.stop - p.start) * grid.count)
                       for p in _parts(n, chunk)]
        need = x.nbytes + x.itemsize * sum(math.prod(shape) for shape in tile_shapes)
        if need > MEMO_BUDGET:
            return None
        entry = None
        while self.entries and sum(e.nbytes for e in self.entries) + need > MEMO_BUDGET:
            old = self.entries.pop(0)
            if entry is None and old.layout == layout:
                entry = old  # its arrays are reused: a steady step allocates nothing
        entry = entry or _Transformed(layout, x.shape, tile_shapes, x.dtype)
        entry.address = None
        np.copyto(entry.source, x)
        self.entries.append(entry)
        return entry

    def find(self, x: np.ndarray, grid: TileGrid, chunk: int) -> _Transformed | None:
        layout = (grid.key, x.shape, x.dtype, chunk)
        address = _address(x)
        for entry in reversed(self.entries):
            if entry.address == address and entry.layout == layout and \
                    _same_bits(entry.source, x):
                self.entries.remove(entry)
                self.entries.append(entry)
                return entry
        return None


MEMO = _TileMemo()


def _address(x: np.ndarray) -> int:
    return x.__array_interface__["data"][0]


def _same_bits(a: np.ndarray, b: np.ndarray) -> bool:
    bits = f"u{a.itemsize}"
    same = scratch(a.shape, bool)
    return bool(np.equal(a.view(bits), b.view(bits), out=same).all())


class _InputTransform:
    """``V = B^T d B`` of every tile of chunks of ``m`` images: this thread's buffers for
    the padded images, their tile rows and columns, with the strided views between them made
    once per call (the chunk loop then only copies and multiplies)."""

    def __init__(self, grid: TileGrid, c: int, m: int, dtype):
        (th, tw), (hp, wp) = grid.tiles, grid.padded
        (top, _), (left, _) = grid.pads
        h, w = grid.sizes
        self.bt = transforms(dtype)[0]
        # channels first, so that each transformed tile matrix is (C, m x tiles); the role
        # names the grid, whose padding stays zero
        padded = workspace(("winograd_image", grid.key), (c, m, hp, wp), dtype)
        self.inner = padded[:, :, top:top + h, left:left + w]
        self.rows = scratch((TILE, c, m, th, wp), dtype)
        s = padded.strides
        self.tile_rows = _view(padded, self.rows.shape,
                               (s[2], s[0], s[1], OUT_TILE * s[2], s[3]))
        self.mixed = scratch(self.rows.shape, dtype)
        self.cols = scratch((TILE, TILE, c, m, th, tw), dtype)
        s = self.mixed.strides
        self.tile_cols = _view(self.mixed, self.cols.shape,
                               (s[4], s[0], s[1], s[2], s[3], OUT_TILE * s[4]))
        self.rows2d, self.mixed2d = self.rows.reshape(TILE, -1), self.mixed.reshape(TILE, -1)
        self.cols2d = self.cols.reshape(TILE, -1)

    def __call__(self, images: np.ndarray, tiles: np.ndarray) -> None:
        """Transform ``images (m, C, H, W)`` into ``tiles (36, C, m * tiles)``, its rows
        ordered (column point, row point)."""
        self.inner[...] = images.transpose(1, 0, 2, 3)
        np.copyto(self.rows, self.tile_rows)
        np.matmul(self.bt, self.rows2d, out=self.mixed2d)
        np.copyto(self.cols, self.tile_cols)
        np.matmul(self.bt, self.cols2d, out=tiles.reshape(TILE, -1))


def _view(base: np.ndarray, shape: tuple, strides: tuple) -> np.ndarray:
    """A read-only strided view of the contiguous ``base`` (``as_strided`` without its
    per-call overhead)."""
    view = np.ndarray(shape, base.dtype, buffer=base, strides=strides)
    view.flags.writeable = False
    return view


def _chunk_transforms(grid: TileGrid, c: int, n: int, chunk: int, dtype) -> dict:
    """The :class:`_InputTransform` of each chunk size the batch is cut into."""
    sizes = {part.stop - part.start for part in _parts(n, chunk)}
    return {m: _InputTransform(grid, c, m, dtype) for m in sizes}


class _ForwardBuffers:
    """This thread's arrays for one chunk of ``m`` images of a forward: its transformed
    tiles (unless a memo keeps them), their products with the filter's and the two steps of
    the output transform."""

    __slots__ = ("tiles", "prods", "by_point", "half", "done", "by_column", "out_tiles")

    def __init__(self, grid: TileGrid, c: int, o: int, m: int, dtype, memo: bool):
        cols = m * grid.count
        th, tw = grid.tiles
        self.tiles = None if memo else scratch((TILE * TILE, c, cols), dtype)
        self.prods = scratch((TILE * TILE, o, cols), dtype)
        self.by_point = self.prods.reshape(TILE, -1)  # (column point, row point x O x cols)
        self.half = scratch((OUT_TILE, TILE, o * cols), dtype)
        # (y-in-tile, O x cols, x-in-tile), written through its (x, y, O x cols) view
        done = scratch((OUT_TILE, o * cols, OUT_TILE), dtype)
        self.done = done
        self.by_column = done.transpose(2, 0, 1)
        # (y-in-tile, O, m, th, tw, x-in-tile) -> (m, O, th, y-in-tile, tw, x-in-tile)
        self.out_tiles = done.reshape(OUT_TILE, o, m, th, tw, OUT_TILE) \
            .transpose(2, 1, 3, 0, 4, 5)


class _FilterBuffers:
    """This thread's arrays for one chunk of ``m`` images of a filter gradient: the output
    gradient laid on whole tiles (when the tiles overhang the output) and in tile order,
    and the two steps of the output transform's adjoint."""

    __slots__ = ("full", "dtiles", "half", "dprods")

    def __init__(self, grid: TileGrid, o: int, m: int, dtype):
        cols = m * grid.count
        (th, tw) = grid.tiles
        self.full = None if grid.aligned else workspace(
            ("winograd_dout", grid.key), (m, o, th * OUT_TILE, tw * OUT_TILE), dtype)
        self.dtiles = scratch((OUT_TILE, o, m, th, tw, OUT_TILE), dtype)
        self.half = scratch((TILE, o * cols, OUT_TILE), dtype)
        self.dprods = scratch((TILE, TILE * o * cols), dtype)


def _filter_tiles(w: np.ndarray) -> np.ndarray:
    """``U = G g G^T`` of every (output, input) channel pair: ``(36, O, C)``."""
    o, c = w.shape[:2]
    kgg = transforms(w.dtype)[2]
    by_tap = w.transpose(0, 1, 3, 2).reshape(o * c, KERNEL * KERNEL)  # (kx, ky) per pair
    return np.matmul(kgg, by_tap.T).reshape(TILE * TILE, o, c)


def _finite(a: np.ndarray) -> bool:
    return math.isfinite(np.add.reduce(a, axis=None))


@with_scratch
def forward(x: np.ndarray, w: np.ndarray, pads, out: np.ndarray | None = None,
            remember: bool = False) -> np.ndarray | None:
    """The convolution of ``x (N, C, H, W)`` with ``w (O, C, 3, 3)`` padded by ``pads``
    (into ``out`` when it fits); ``None`` when the result is not finite (the caller then
    runs the direct convolution). With ``remember``, the transformed input is kept for
    :func:`filter_grad`."""
    n, c = x.shape[:2]
    o = w.shape[0]
    grid = tile_grid(tuple(x.shape[2:]), tuple(tuple(p) for p in pads))
    _, at, _ = transforms(x.dtype)
    u = _filter_tiles(w)
    ho, wo = grid.out
    y = result_array(out, (n, o, ho, wo), x.dtype)
    chunk = min(n, _chunk(max(c, o), grid))
    memo = MEMO.store(x, grid, chunk) if remember else None
    transform = _chunk_transforms(grid, c, n, chunk, x.dtype)
    buffers = {m: _ForwardBuffers(grid, c, o, m, x.dtype, memo is not None) for m in transform}
    th, tw = grid.tiles
    for k, part in enumerate(_parts(n, chunk)):
        m = part.stop - part.start
        b = buffers[m]
        v = memo.tiles[k] if memo else b.tiles
        transform[m](x[part], v)
        np.matmul(u, v, out=b.prods)
        # A^T over the column points, then over the row points into a layout with the
        # result's column in the tile innermost (two left products: a product on the right
        # with K = 6 and N = 4 runs at a third of their speed)
        np.matmul(at, b.by_point, out=b.half.reshape(OUT_TILE, -1))
        np.matmul(at, b.half, out=b.by_column)
        tiles = b.out_tiles
        if grid.aligned:
            y[part].reshape(tiles.shape)[...] = tiles
        else:
            with scratch_frame():
                full = scratch(tiles.shape, x.dtype)
                np.copyto(full, tiles)
                y[part] = full.reshape(m, o, th * OUT_TILE, tw * OUT_TILE)[:, :, :ho, :wo]
    if memo:
        memo.address = _address(x)
    return y if _finite(y) else None


def input_grad(dy: np.ndarray, w: np.ndarray, pads, out: np.ndarray | None = None
               ) -> np.ndarray | None:
    """The input gradient: the convolution of ``dy`` with the flipped filter, its channel
    axes swapped, over ``dy`` padded by ``2 - pad`` per side; ``None`` as in
    :func:`forward`."""
    back = tuple((KERNEL - 1 - b, KERNEL - 1 - a) for b, a in pads)
    flipped = np.ascontiguousarray(w[:, :, ::-1, ::-1].transpose(1, 0, 2, 3))
    return forward(dy, flipped, back, out)


@with_scratch
def filter_grad(dy: np.ndarray, x: np.ndarray, pads, out: np.ndarray | None = None
                ) -> np.ndarray | None:
    """The filter gradient ``(O, C, 3, 3)``: ``dU[p] = sum dM[p] (O, tiles) @ V[p]^T`` over
    the chunks, with ``dM = A dY A^T`` the output transform's adjoint, then
    ``dW = kron(G, G)^T dU``; ``None`` when not finite."""
    n, c = x.shape[:2]
    o = dy.shape[1]
    grid = tile_grid(tuple(x.shape[2:]), tuple(tuple(p) for p in pads))
    _, at, kgg = transforms(x.dtype)
    a = np.ascontiguousarray(at.T)
    (th, tw), (ho, wo) = grid.tiles, grid.out
    acc = scratch((TILE * TILE, o, c), x.dtype)
    chunk = min(n, _chunk(max(c, o), grid))
    memo = MEMO.find(x, grid, chunk)
    transform = None if memo else _chunk_transforms(grid, c, n, chunk, x.dtype)
    sizes = {part.stop - part.start for part in _parts(n, chunk)}
    buffers = {m: _FilterBuffers(grid, o, m, x.dtype) for m in sizes}
    tiles = None if memo else \
        {m: scratch((TILE * TILE, c, m * grid.count), x.dtype) for m in sizes}
    part_sum = scratch(acc.shape, x.dtype) if n > chunk else None
    for k, part in enumerate(_parts(n, chunk)):
        m = part.stop - part.start
        b = buffers[m]
        if memo:
            v = memo.tiles[k]
        else:
            v = tiles[m]
            transform[m](x[part], v)
        grads = dy[part]
        if b.full is not None:  # the outputs the tiles cut off have no gradient
            b.full[:, :, :ho, :wo] = grads
            grads = b.full
        # (m, O, th, y-in-tile, tw, x-in-tile) -> (y-in-tile, O, m, th, tw, x-in-tile)
        np.copyto(b.dtiles, grads.reshape(m, o, th, OUT_TILE, tw, OUT_TILE)
                  .transpose(3, 1, 0, 2, 4, 5))
        np.matmul(a, b.dtiles.reshape(OUT_TILE, -1), out=b.half.reshape(TILE, -1))
        # (column, row point, ...)
        np.matmul(a, b.half.reshape(-1, OUT_TILE).T, out=b.dprods)
        target = acc if part.start == 0 else part_sum
        np.matmul(b.dprods.reshape(TILE * TILE, o, m * grid.count), v.transpose(0, 2, 1),
                  out=target)
        if target is not acc:
            acc += target
    dw = result_array(out, (o, c, KERNEL, KERNEL), x.dtype)
    by_tap = np.matmul(acc.reshape(TILE * TILE, o * c).T, kgg)  # (O*C, (kx, ky))
    dw[...] = by_tap.reshape(o, c, KERNEL, KERNEL).transpose(0, 1, 3, 2)
    return dw if _finite(dw) else None
