"""Array functions composed of the primitives (``ops.tril``, ``ops.flip``, ``ops.narrow``,
``ops.movedim``, ``ops.index_select``, ``ops.scatter``...), with MindSpore 2.10's names and
arguments. Shapes must be known when the graph is built (masks and index grids are built
from them); gradients come from the primitives' rules.
"""
from __future__ import annotations

import builtins
import math

import numpy as np

import graphkiln.ops.functional as F

from ..common import dtype as mstype
from ..common.tensor import Tensor
from .defs._infer import norm_axis
from .defs.array import TopK
from .defs.pad_v3 import positions as pad_positions
from .run_time_pad import PAD_V3_MODES, is_run_time_padding, pad_run_time

__all__ = ["tril", "triu", "flip", "fliplr", "flipud", "narrow", "chunk", "tensor_split",
           "hsplit", "vsplit", "dsplit", "unbind", "movedim", "moveaxis", "swapdims",
           "diagonal", "trace", "index_select", "take", "where",
           "repeat_interleave", "diff", "select_scatter", "slice_scatter", "scatter",
           "argwhere", "median", "nanmedian", "msort", "diagflat", "diag", "column_stack",
           "is_nonzero", "is_floating_point", "is_complex", "roll", "t", "arange",
           "repeat_elements", "pad", "full", "full_like", "expand", "expand_as", "view_as",
           "type_as", "numel", "ravel", "permute", "reverse", "top_k", "index_fill",
           "sequence_mask"]

_INT = (int, np.integer)


def _static_shape(name: str, x: Tensor) -> tuple:
    shape = tuple(x.shape)
    if any(not isinstance(d, _INT) or d < 0 for d in shape):
        raise ValueError(f"For '{name}', the input's shape must be known when the graph is "
                         f"built, but got {list(shape)}.")
    return shape


def _require_tensor(name: str, arg: str, x) -> Tensor:
    if not isinstance(x, Tensor):
        raise TypeError(f"For '{name}', the '{arg}' must be a Tensor, but got "
                        f"{type(x).__name__}.")
    return x


def _triangle(name: str, x: Tensor, diagonal: int, lower: bool) -> Tensor:
    _require_tensor(name, "input", x)
    if isinstance(diagonal, bool) or not isinstance(diagonal, _INT):
        raise TypeError(f"For '{name}', the 'diagonal' must be an int, but got "
                        f"{type(diagonal).__name__}.")
    shape = _static_shape(name, x)
    if len(shape) < 2:
        raise ValueError(f"For '{name}', the input's rank must be greater than or equal to 2, "
                         f"but got {len(shape)}.")
    rows, cols = shape[-2:]
    keep = np.tri(rows, cols, diagonal, dtype=bool)
    if not lower:
        keep = ~np.tri(rows, cols, diagonal - 1, dtype=bool)
    return F.select(Tensor(np.broadcast_to(keep, shape).copy()), x, F.zeros_like(x))


def tril(input, diagonal: int = 0) -> Tensor:
    """The lower triangle of the last two dimensions (``diagonal`` shifts its edge up)."""
    return _triangle("tril", input, diagonal, True)


def triu(input, diagonal: int = 0) -> Tensor:
    """The upper triangle of the last two dimensions (``diagonal`` shifts its edge up)."""
    return _triangle("triu", input, diagonal, False)


def _dims(name: str, dims, rank: int) -> tuple:
    if isinstance(dims, _INT) and not isinstance(dims, bool):
        dims = (dims,)
    if not isinstance(dims, (tuple, list)):
        raise TypeError(f"For '{name}', the 'dims' must be an int or a tuple/list of ints, "
                        f"but got {type(dims).__name__}.")
    axes = tuple(norm_axis(name, d, rank) for d in dims)
    if len(set(axes)) != len(axes):
        raise ValueError(f"For '{name}', the 'dims' must not repeat an axis, but got "
                         f"{tuple(dims)}.")
    return axes


def flip(input, dims) -> Tensor:
    """``input`` reversed along each axis of ``dims``."""
    x = _require_tensor("flip", "input", input)
    axes = _dims("flip", dims, x.ndim)
    if not axes or x.ndim == 0:
        return x
    return F.getitem(x, tuple(builtins.slice(None, None, -1) if i in axes
                              else builtins.slice(None) for i in range(x.ndim)))


def fliplr(input) -> Tensor:
    if input.ndim < 2:
        raise ValueError(f"For 'fliplr', the input must be at least 2-D, but got "
                         f"{input.ndim}-D.")
    return flip(input, (1,))


def flipud(input) -> Tensor:
    if input.ndim < 1:
        raise ValueError("For 'flipud', the input must be at least 1-D, but got 0-D.")
    return flip(input, (0,))


def narrow(input, axis: int, start: int, length: int) -> Tensor:
    """``length`` elements of ``input`` along ``axis`` from ``start`` (negative counts from
    the end)."""
    x = _require_tensor("narrow", "input", input)
    ax = norm_axis("narrow", axis, x.ndim)
    size = x.shape[ax]
    if isinstance(start, Tensor):
        start = int(start.asnumpy())
    if isinstance(length, Tensor):
        length = int(length.asnumpy())
    if not -size <= start <= size:
        raise ValueError(f"For 'narrow', the 'start' must be in [{-size}, {size}], but got "
                         f"{start}.")
    start = start % size if start < 0 else start
    if length < 0 or start + length > size:
        raise ValueError(f"For 'narrow', 'start' + 'length' must be in [0, {size}] (the size "
                         f"of dimension {ax}), but got start={start}, length={length}.")
    index = [builtins.slice(None)] * x.ndim
    index[ax] = builtins.slice(start, start + length)
    return F.getitem(x, tuple(index))


def _split_at(x: Tensor, ax: int, bounds: list) -> tuple:
    """The pieces of ``x`` between consecutive ``bounds`` along ``ax``."""
    pieces = []
    for lo, hi in zip(bounds[:-1], bounds[1:]):
        index = [builtins.slice(None)] * x.ndim
        index[ax] = builtins.slice(lo, hi)
        pieces.append(F.getitem(x, tuple(index)))
    return tuple(pieces)


def chunk(input, chunks: int, axis: int = 0) -> tuple:
    """``input`` cut into at most ``chunks`` pieces of ``ceil(size / chunks)`` elements along
    ``axis`` (the last one may be smaller)."""
    x = _require_tensor("chunk", "input", input)
    if isinstance(chunks, bool) or not isinstance(chunks, _INT):
        raise TypeError(f"For 'chunk', the 'chunks' must be an int, but got "
                        f"{type(chunks).__name__}.")
    if chunks <= 0:
        raise ValueError(f"For 'chunk', the 'chunks' must be greater than 0, but got "
                         f"{chunks}.")
    if x.ndim == 0:
        raise ValueError("For 'chunk', the input must be at least 1-D, but got 0-D.")
    ax = norm_axis("chunk", axis, x.ndim)
    size = x.shape[ax]
    step = max(math.ceil(size / chunks), 1)
    bounds = list(range(0, size, step)) + [size]
    return _split_at(x, ax, bounds) if size else (x,)


def tensor_split(input, indices_or_sections, axis: int = 0) -> tuple:
    """NumPy's ``array_split``: ``n`` nearly equal pieces, or pieces between indices."""
    x = _require_tensor("tensor_split", "input", input)
    ax = norm_axis("tensor_split", axis, x.ndim)
    size = x.shape[ax]
    if isinstance(indices_or_sections, _INT) and not isinstance(indices_or_sections, bool):
        n = int(indices_or_sections)
        if n <= 0:
            raise ValueError(f"For 'tensor_split', the number of sections must be greater "
                             f"than 0, but got {n}.")
        small, extra = divmod(size, n)
        sizes = [small + 1] * extra + [small] * (n - extra)
        bounds = [0] + list(np.cumsum(sizes))
    elif isinstance(indices_or_sections, (tuple, list)):
        # each piece is ``x[lo:hi]`` as Python slices it (NumPy's ``array_split``): a
        # negative index counts from the end, and a piece whose end is before its start
        # is empty
        bounds = [0] + [int(i) for i in indices_or_sections] + [size]
    else:
        raise TypeError(f"For 'tensor_split', the 'indices_or_sections' must be an int or a "
                        f"tuple/list of ints, but got {type(indices_or_sections).__name__}.")
    return _split_at(x, ax, [int(b) for b in bounds])


def _split_dim(name: str, x: Tensor, indices_or_sections, axis: int, min_rank: int) -> tuple:
    if x.ndim < min_rank:
        raise ValueError(f"For '{name}', the input must be at least {min_rank}-D, but got "
                         f"{x.ndim}-D.")
    return tensor_split(x, indices_or_sections, axis)


def hsplit(input, indices_or_sections) -> tuple:
    return _split_dim("hsplit", input, indices_or_sections, 1 if input.ndim > 1 else 0, 1)


def vsplit(input, indices_or_sections) -> tuple:
    return _split_dim("vsplit", input, indices_or_sections, 0, 2)


def dsplit(input, indices_or_sections) -> tuple:
    return _split_dim("dsplit", input, indices_or_sections, 2, 3)


def unbind(input, dim: int = 0) -> tuple:
    """The slices of ``input`` along ``dim``."""
    return F.unstack(input, dim)


def movedim(x, source, destination) -> Tensor:
    """``x`` with the axes ``source`` moved to the positions ``destination``."""
    src = (source,) if isinstance(source, _INT) else tuple(source)
    dst = (destination,) if isinstance(destination, _INT) else tuple(destination)
    if len(src) != len(dst):
        raise ValueError(f"For 'movedim', 'source' and 'destination' must have the same "
                         f"number of axes, but got {len(src)} and {len(dst)}.")
    src = tuple(norm_axis("movedim", a, x.ndim) for a in src)
    dst = tuple(norm_axis("movedim", a, x.ndim) for a in dst)
    if len(set(src)) != len(src) or len(set(dst)) != len(dst):
        raise ValueError(f"For 'movedim', repeated axes in 'source' {src} or 'destination' "
                         f"{dst}.")
    rest = iter(a for a in range(x.ndim) if a not in src)
    placed = dict(zip(dst, src))
    perm = tuple(placed[i] if i in placed else next(rest) for i in range(x.ndim))
    return F.transpose(x, perm) if perm != tuple(range(x.ndim)) else x


moveaxis = movedim


def swapdims(input, dim0: int, dim1: int) -> Tensor:
    return F.swapaxes(input, dim0, dim1)


def t(input) -> Tensor:
    """The transpose of a tensor of at most 2 dimensions."""
    if input.ndim > 2:
        raise ValueError(f"For 't', the input must be a Tensor of at most 2 dimensions, but "
                         f"got {input.ndim} dimensions.")
    return F.transpose(input, (1, 0)) if input.ndim == 2 else input


def _diagonal_rows(shape: tuple, offset: int, a1: int, a2: int) -> np.ndarray:
    n, m = shape[a1], shape[a2]
    start = builtins.max(0, -offset)
    stop = builtins.max(builtins.min(n, m - offset), start)
    rows = np.arange(start, stop, dtype=np.int64)
    return np.stack([rows, rows + offset], axis=-1)


def diagonal(input, offset: int = 0, dim1: int = 0, dim2: int = 1) -> Tensor:
    """The diagonal of the 2-D planes ``(dim1, dim2)``, as a new last dimension."""
    x = _require_tensor("diagonal", "input", input)
    a1, a2 = norm_axis("diagonal", dim1, x.ndim), norm_axis("diagonal", dim2, x.ndim)
    if a1 == a2:
        raise ValueError(f"For 'diagonal', 'dim1' and 'dim2' must differ, but both are {a1}.")
    shape = _static_shape("diagonal", x)
    rest = tuple(i for i in range(x.ndim) if i not in (a1, a2))
    front = F.transpose(x, (a1, a2) + rest)
    where = _diagonal_rows(shape, offset, a1, a2)
    if not len(where):
        return F.zeros(tuple(shape[i] for i in rest) + (0,), x.dtype)
    picked = F.gather_nd(front, Tensor(where))
    return movedim(picked, 0, -1)


def trace(input, offset: int = 0, axis1: int = 0, axis2: int = 1, dtype=None) -> Tensor:
    """The sum of the diagonal of the planes ``(axis1, axis2)``."""
    diag = diagonal(input, offset, axis1, axis2)
    if dtype is not None:
        diag = F.cast(diag, mstype.to_type(dtype))
    return F.reduce_sum(diag, -1, False)


def diagflat(input, offset: int = 0) -> Tensor:
    """A 2-D Tensor with the flattened ``input`` on its ``offset`` diagonal."""
    flat = F.reshape(input, (-1,))
    n = flat.shape[0]
    size = n + abs(offset)
    where = np.stack([np.arange(n) + builtins.max(-offset, 0),
                      np.arange(n) + builtins.max(offset, 0)], -1)
    return F.scatter_nd(Tensor(where.astype(np.int64)), flat, (size, size))


def diag(input) -> Tensor:
    """The rank ``2k`` Tensor of shape ``input.shape * 2`` with ``input`` on its diagonal
    (``out[i..., i...] = input[i...]``); a vector gives a diagonal matrix."""
    x = _require_tensor("diag", "input", input)
    if x.ndim == 0:
        raise ValueError("For 'diag', the dimension of 'input' must be at least 1, but got 0.")
    shape = _static_shape("diag", x)
    n = int(np.prod(shape))
    eye = Tensor(np.eye(n, dtype=x.dtype.np_dtype))
    return F.reshape(F.mul(eye, F.reshape(x, (n, 1))), shape + shape)


def column_stack(tensors) -> Tensor:
    """The Tensors side by side as columns: 0-D and 1-D ones become ``(n, 1)``, then all
    join along axis 1."""
    if not isinstance(tensors, (tuple, list)) or not tensors:
        raise TypeError("For 'column_stack', 'tensors' must be a non-empty tuple or list of "
                        "Tensors.")
    cols = []
    for t in tensors:
        t = _require_tensor("column_stack", "tensors", t)
        cols.append(F.reshape(t, (-1, 1)) if t.ndim < 2 else t)
    return F.concat(tuple(cols), 1)


def is_nonzero(input):
    """Whether the one element of ``input`` is nonzero: a bool (a bool Tensor in graphs)."""
    x = _require_tensor("is_nonzero", "input", input)
    if x.size != 1:
        raise RuntimeError(f"For 'is_nonzero', the input must have exactly one element, but "
                           f"got {x.size}.")
    nonzero = F.not_equal(F.reshape(x, ()), F.zeros((), x.dtype))
    return nonzero if nonzero.is_symbolic else bool(nonzero)  # a bool, as MindSpore's


def is_floating_point(input) -> bool:
    """Whether ``input``'s dtype is a real floating-point one (a Python bool)."""
    return input.dtype.is_float


def is_complex(input) -> bool:
    """Whether ``input`` is a Tensor of a complex dtype (a Python bool)."""
    if not isinstance(input, Tensor):
        raise TypeError("The input must be Tensor!")
    return input.dtype.is_complex


def _index_vector(name: str, index) -> Tensor:
    index = Tensor(index) if isinstance(index, (list, tuple)) else index
    _require_tensor(name, "index", index)
    if index.dtype not in (mstype.int32, mstype.int64):
        raise TypeError(f"For '{name}', the 'index' must be an int32 or int64 Tensor, but "
                        f"got {index.dtype}.")
    return index


def index_select(input, axis: int, index) -> Tensor:
    """The slices of ``input`` at the 1-D ``index`` along ``axis``."""
    x = _require_tensor("index_select", "input", input)
    index = _index_vector("index_select", index)
    if index.ndim > 1:
        raise ValueError(f"For 'index_select', the 'index' must be a 1-D Tensor, but got "
                         f"{index.ndim}-D.")
    ax = norm_axis("index_select", axis, builtins.max(x.ndim, 1))
    return F.gather(x, index, ax)


def take(input, indices, axis=None, mode: str = "clip") -> Tensor:
    """NumPy's ``take``: elements (of the flattened input when ``axis`` is None) at
    ``indices``; ``mode`` ``'clip'`` or ``'wrap'`` handles out-of-range ones."""
    x = _require_tensor("take", "input", input)
    if mode not in ("raise", "wrap", "clip"):
        raise ValueError(f"For 'take', the 'mode' must be 'raise', 'wrap' or 'clip', but got "
                         f"{mode!r}.")
    if axis is None:
        x, ax = F.reshape(x, (-1,)), 0
    else:
        ax = norm_axis("take", axis, x.ndim)
    size = x.shape[ax]
    indices = F.cast(_require_tensor("take", "indices", indices), mstype.int64)
    if mode == "wrap":
        indices = F.floor_mod(indices, size)
    else:
        indices = F.minimum(F.maximum(indices, 0), size - 1)
    return F.gather(x, indices, ax)


def where(condition, input, other) -> Tensor:
    """``input`` where ``condition`` is True, else ``other`` (with broadcasting)."""
    return F.select(condition, input, other)


def _repeat_counts(repeats, size: int):
    if isinstance(repeats, Tensor):
        repeats = repeats.asnumpy().tolist()
    if isinstance(repeats, _INT) and not isinstance(repeats, bool):
        repeats = [int(repeats)] * size
    elif isinstance(repeats, (list, tuple)) and len(repeats) == 1:
        repeats = [int(repeats[0])] * size
    repeats = [int(r) for r in np.ravel(repeats)]
    if len(repeats) != size:
        raise ValueError(f"For 'repeat_interleave', 'repeats' must have 1 or {size} elements "
                         f"(the size of the repeated dimension), but got {len(repeats)}.")
    if any(r < 0 for r in repeats):
        raise ValueError(f"For 'repeat_interleave', 'repeats' must be non-negative, but got "
                         f"{repeats}.")
    return repeats


def repeat_interleave(input, repeats, axis=None, *, dim=None, output_size=None) -> Tensor:
    """Each element (or slice along ``axis``) repeated ``repeats`` times in place; ``dim``
    is ``axis`` under mint's name."""
    x = _require_tensor("repeat_interleave", "input", input)
    dim = axis if dim is None else dim
    if dim is None:
        x, ax = F.reshape(x, (-1,)), 0
    else:
        ax = norm_axis("repeat_interleave", dim, x.ndim)
    size = x.shape[ax]
    counts = _repeat_counts(repeats, size)
    index = np.repeat(np.arange(size, dtype=np.int64), counts)
    if output_size is not None and output_size != len(index):
        raise ValueError(f"For 'repeat_interleave', the 'output_size' {output_size} does not "
                         f"match the repeated size {len(index)}.")
    return F.gather(x, Tensor(index), ax)


def pad(input_x, padding, mode: str = "constant", value=None) -> Tensor:
    """``input_x`` padded by ``padding`` = (before, after) pairs for the last dimensions,
    the last dimension first (negative sizes crop): ``constant`` (``value``, 0 by
    default), ``reflect``, ``replicate`` or ``circular``. Each axis is one gather of
    positions NumPy's ``pad`` computes, or a concatenation of constants."""
    x = _require_tensor("pad", "input_x", input_x)
    if mode not in PAD_V3_MODES:
        raise ValueError(f"For 'pad', the 'mode' must be one of {list(PAD_V3_MODES)}, but got "
                         f"'{mode}'.")
    if is_run_time_padding(padding) or mode == "constant" and any(d < 0 for d in x.shape):
        return pad_run_time(x, padding, mode, value)  # (also: dims known only at run time)
    padding = tuple(padding)
    if len(padding) % 2 or len(padding) // 2 > x.ndim:
        raise ValueError(f"For 'pad', the size of padding must be divisible by 2 and cover at "
                         f"most the {x.ndim} dimensions of the input, but got {len(padding)}.")
    for k in range(len(padding) // 2):
        ax = x.ndim - 1 - k
        before, after = int(padding[2 * k]), int(padding[2 * k + 1])
        size = x.shape[ax]
        if mode == "reflect" and max(before, after) >= size:
            raise ValueError(f"For 'pad' reflect mode, the padding must be less than the "
                             f"input dimension {ax} of size {size}, but got "
                             f"{(before, after)}.")
        if mode == "constant" and (before > 0 or after > 0):
            parts = [x]
            fill = 0 if value is None else value
            for width, front in ((before, True), (after, False)):
                if width > 0:
                    shape = tuple(width if i == ax else d for i, d in enumerate(x.shape))
                    block = F.fill(x.dtype, shape, fill)
                    parts.insert(0 if front else len(parts), block)
            x = F.concat(tuple(parts), ax)
            before, after = min(before, 0), min(after, 0)
            if not (before or after):
                continue
            size = x.shape[ax]
        # (negative sizes crop first, as MindSpore's PadV3)
        index = pad_positions(size, before, after, PAD_V3_MODES[mode])
        x = F.gather(x, Tensor(index), ax)
    return x


def repeat_elements(x, rep: int, axis: int = 0) -> Tensor:
    """Each slice of ``x`` along ``axis`` repeated ``rep`` times in place."""
    if isinstance(rep, bool) or not isinstance(rep, _INT):
        raise TypeError(f"For 'repeat_elements', the 'rep' must be int, but got "
                        f"{type(rep).__name__}.")
    if isinstance(x, Tensor) and x.ndim > 7:
        raise ValueError(f"For repeat_elements, the rank of x should be less than or equal "
                         f"to 7, but got {x.ndim}.")
    return repeat_interleave(x, int(rep), axis)


def arange(start=0, end=None, step=1, *, dtype=None) -> Tensor:
    """``[start, end)`` by ``step`` (``arange(n)``: ``[0, n)``): int64 for integer bounds,
    float32 otherwise, or ``dtype``."""
    if end is None:
        start, end = 0, start
    out = F.range(start, end, step)
    return out if dtype is None else F.cast(out, dtype)


def diff(input, n: int = 1, axis: int = -1, prepend=None, append=None) -> Tensor:
    """The ``n``-th forward difference along ``axis`` (after adding ``prepend``/``append``)."""
    x = _require_tensor("diff", "input", input)
    ax = norm_axis("diff", axis, x.ndim)
    parts = [p for p in (prepend, x, append) if p is not None]
    if len(parts) > 1:
        x = F.concat(tuple(parts), ax)
    for _ in range(n):
        size = x.shape[ax]
        hi, lo = [builtins.slice(None)] * x.ndim, [builtins.slice(None)] * x.ndim
        hi[ax], lo[ax] = builtins.slice(1, size), builtins.slice(0, size - 1)
        later, earlier = F.getitem(x, tuple(hi)), F.getitem(x, tuple(lo))
        x = F.not_equal(later, earlier) if x.dtype == mstype.bool_ else F.sub(later, earlier)
    return x


def select_dim(input, dim: int, index: int) -> Tensor:
    """The slice of ``input`` at ``index`` along ``dim`` (that dimension removed)."""
    x = _require_tensor("select", "input", input)
    ax = norm_axis("select", dim, x.ndim)
    size = x.shape[ax]
    if isinstance(index, Tensor):
        index = int(index.asnumpy())
    if not -size <= index < size:
        raise IndexError(f"For 'select', the 'index' {index} is out of range for dimension "
                         f"{ax} of size {size}.")
    where = [builtins.slice(None)] * x.ndim
    where[ax] = index
    return F.getitem(x, tuple(where))


def _write_slices(x: Tensor, index: tuple, src) -> Tensor:
    """``x`` with ``x[index]`` replaced by ``src`` (a new Tensor)."""
    return F.setitem(x, index, F.cast(src, x.dtype) if isinstance(src, Tensor) else src)


def select_scatter(input, src, axis: int, index: int) -> Tensor:
    """``input`` with its slice at ``index`` along ``axis`` replaced by ``src``."""
    x = _require_tensor("select_scatter", "input", input)
    ax = norm_axis("select_scatter", axis, x.ndim)
    src = _require_tensor("select_scatter", "src", src)
    if src.dtype != x.dtype:
        raise TypeError(f"For 'select_scatter', the 'src' must have the dtype of 'input' "
                        f"{x.dtype}, but got {src.dtype}.")
    size = x.shape[ax]
    # as MindSpore's slice_scatter of input[index:index+1]: src gets a unit axis there
    start = index + size if index < 0 else index
    taken = len(range(size)[builtins.slice(start, start + 1)])
    want = tuple(x.shape[:ax]) + (taken,) + tuple(x.shape[ax + 1:])
    got = tuple(src.shape[:ax]) + (1,) + tuple(src.shape[ax:])
    if got != want:
        raise ValueError(f"For slice_scatter, src shape should be equal to the slice size,but "
                         f"got src shape {got} and slice shape {want}")
    where = [builtins.slice(None)] * x.ndim
    where[ax] = start
    return _write_slices(x, tuple(where), src)


def slice_scatter(input, src, axis: int = 0, start=None, end=None, step: int = 1) -> Tensor:
    """``input`` with ``input[start:end:step]`` along ``axis`` replaced by ``src``."""
    x = _require_tensor("slice_scatter", "input", input)
    ax = norm_axis("slice_scatter", axis, x.ndim)
    src = _require_tensor("slice_scatter", "src", src)
    if src.dtype != x.dtype:
        raise TypeError(f"For 'slice_scatter', the 'src' must have the dtype of 'input' "
                        f"{x.dtype}, but got {src.dtype}.")
    where = [builtins.slice(None)] * x.ndim
    where[ax] = builtins.slice(start, end, step)
    taken = len(range(x.shape[ax])[where[ax]])
    want = tuple(x.shape[:ax]) + (taken,) + tuple(x.shape[ax + 1:])
    if tuple(src.shape) != want and -1 not in want + tuple(src.shape):
        raise ValueError(f"For slice_scatter, src shape should be equal to the slice size,but "
                         f"got src shape {tuple(src.shape)} and slice shape {want}")
    return _write_slices(x, tuple(where), src)


def _element_coordinates(name: str, x: Tensor, dim: int, index: Tensor) -> tuple:
    """The full coordinates (``index.shape + (rank,)``) that ``index`` names along ``dim``."""
    ax = norm_axis(name, dim, x.ndim)
    index = _index_vector(name, index)
    if index.ndim != x.ndim:
        raise ValueError(f"For '{name}', the 'index' must have the input's rank {x.ndim}, but "
                         f"got {index.ndim}.")
    grids = np.indices(tuple(index.shape), dtype=np.int64)
    parts = [F.cast(index, mstype.int64) if i == ax else Tensor(grids[i])
             for i in range(x.ndim)]
    return F.stack(tuple(parts), -1), ax


def _source(x: Tensor, index: Tensor, src):
    if isinstance(src, Tensor):
        if src.ndim and tuple(src.shape) != tuple(index.shape):
            src = F.getitem(src, tuple(builtins.slice(0, d) for d in index.shape))
        return F.broadcast_to(F.cast(src, x.dtype), tuple(index.shape))
    return F.broadcast_to(F.cast(Tensor(src), x.dtype), tuple(index.shape))


def scatter(input, dim: int, index, src) -> Tensor:
    """``input`` with ``input[..., index[i], ...] = src[i]`` along ``dim`` (``src`` a Tensor
    or a number)."""
    x = _require_tensor("scatter", "input", input)
    where, _ = _element_coordinates("scatter", x, dim, index)
    return F.tensor_scatter_update(x, where, _source(x, index, src))


def scatter_elements_add(input, dim: int, index, src) -> Tensor:
    """``input`` with ``src[i]`` added at ``index[i]`` along ``dim`` (repeats accumulate)."""
    x = _require_tensor("scatter_add", "input", input)
    where, _ = _element_coordinates("scatter_add", x, dim, index)
    return F.tensor_scatter_add(x, where, _source(x, index, src))


def argwhere(input) -> Tensor:
    """The indices of the non-zero elements, one row each (int64)."""
    return F.nonzero(input)


def median(input, axis=-1, keepdims: bool = False):
    """The lower median along ``axis`` and its index, or of all elements (a value only)
    when ``axis`` is None."""
    x = _require_tensor("median", "input", input)
    if axis is None:
        flat = F.reshape(x, (-1,))
        values, _ = F.sort(flat, 0)
        return F.getitem(values, (flat.shape[0] - 1) // 2)
    ax = norm_axis("median", axis, builtins.max(x.ndim, 1))
    if x.ndim == 0:
        return x, F.zeros((), mstype.int64)
    values, order = F.sort(x, ax)
    middle = (x.shape[ax] - 1) // 2
    where = [builtins.slice(None)] * x.ndim
    where[ax] = builtins.slice(middle, middle + 1) if keepdims else middle
    return F.getitem(values, tuple(where)), F.cast(F.getitem(order, tuple(where)),
                                                   mstype.int64)


def nanmedian(input, axis: int = -1, keepdims: bool = False) -> tuple:
    """The lower median of the non-NaN values along ``axis`` and its index (NaN and index 0
    where a line is all NaN): the sort puts NaNs last, so the median sits at
    ``(count - 1) // 2``."""
    x = _require_tensor("nanmedian", "input", input)
    if x.ndim == 0:
        return x, F.zeros((), mstype.int64)
    ax = norm_axis("nanmedian", axis, x.ndim)
    values, order = F.sort(x, ax)
    count = F.reduce_sum(F.cast(F.logical_not(F.isnan(x)), mstype.int32), ax, True)
    middle = F.maximum(F.floor_div(F.sub(count, 1), 2), F.zeros((), mstype.int32))
    value = F.gather_elements(values, ax, middle)
    index = F.cast(F.gather_elements(order, ax, middle), mstype.int64)
    if not keepdims:
        value, index = F.squeeze(value, ax), F.squeeze(index, ax)
    return value, index


def msort(input) -> Tensor:
    """``input`` sorted along its first dimension."""
    return F.sort(input, 0)[0]


def new_full(input, size, fill_value, dtype=None) -> Tensor:
    """A Tensor of ``size`` filled with ``fill_value``, of ``input``'s dtype by default."""
    t = input.dtype if dtype is None else mstype.to_type(dtype)
    shape = tuple(size) if isinstance(size, (tuple, list)) else (size,)
    return F.fill(t, shape, fill_value)


def full(size, fill_value, *, dtype=None) -> Tensor:
    """A Tensor of ``size`` filled with ``fill_value`` (int64 unless ``dtype`` is given, as
    MindSpore 2.10's ``ops.full``)."""
    if not isinstance(size, (list, tuple)):
        raise TypeError(f"For 'ops.full', 'size' must be a tuple or list of ints, but got "
                        f"{type(size)}.")
    return F.fill(mstype.int64 if dtype is None else mstype.to_type(dtype), tuple(size),
                  fill_value)


def full_like(input, fill_value, *, dtype=None) -> Tensor:
    """A Tensor of ``input``'s shape filled with ``fill_value``, of ``input``'s dtype unless
    ``dtype`` is given."""
    if not isinstance(input, Tensor):
        raise TypeError(f"For ops.full_like, the argument 'x' must be tensor, but got "
                        f"{type(input)}")
    return full(tuple(input.shape), fill_value, dtype=input.dtype if dtype is None else dtype)


def expand(input_x, size) -> Tensor:
    """``input_x`` broadcast to ``size``, a 1-D int Tensor (-1 keeps a dimension)."""
    if not isinstance(size, Tensor):
        raise TypeError(f"For Primitive[Expand], the type of input argument[shape] must be "
                        f"Tensor but got {type(size).__name__}.")
    return F.broadcast_to(input_x, tuple(int(d) for d in size.asnumpy().reshape(-1)))


def expand_as(input, other) -> Tensor:
    """``input`` broadcast to ``other``'s shape."""
    return F.broadcast_to(input, tuple(other.shape))


def view_as(input, other) -> Tensor:
    """``input`` reshaped to ``other``'s shape."""
    return F.reshape(input, tuple(other.shape))


def type_as(input, other) -> Tensor:
    """``input`` cast to ``other``'s dtype."""
    return F.cast(input, other.dtype)


def numel(input) -> int:
    """The number of elements of ``input``."""
    x = _require_tensor("numel", "input", input)
    return int(np.prod(_static_shape("numel", x), dtype=np.int64))


def ravel(input) -> Tensor:
    """``input`` flattened to 1-D."""
    return F.reshape(input, (-1,))


def permute(input, axis) -> Tensor:
    """``input`` with its axes reordered as ``axis``."""
    return F.transpose(input, tuple(axis))


def reverse(x, axis) -> Tensor:
    """``x`` reversed along ``axis``."""
    return flip(x, axis)


def top_k(input_x, k: int, sorted: bool = True) -> tuple:  # noqa: A002
    """The ``k`` largest values along the last axis and their (int32) indices."""
    return TopK(input_x, k, sorted=sorted)


def index_fill(x, axis, index, value) -> Tensor:
    """``x`` with the slices at ``index`` along ``axis`` set to ``value`` (a number or a 0-d
    Tensor)."""
    x = _require_tensor("index_fill", "x", x)
    if isinstance(axis, Tensor):
        axis = int(axis.asnumpy())
    if isinstance(axis, bool) or not isinstance(axis, _INT):
        raise TypeError(f"For 'index_fill', 'axis' must be an int, but got "
                        f"{type(axis).__name__}.")
    ax = norm_axis("index_fill", axis, x.ndim)
    index = _index_vector("index_fill", index)
    if isinstance(value, Tensor) and value.ndim:
        raise ValueError(f"For 'index_fill', 'value' must be a 0-D Tensor, but got a "
                         f"{value.ndim}-D Tensor.")
    hit = F.reduce_any(F.equal(F.expand_dims(F.cast(index, mstype.int64), 1),
                               Tensor(np.arange(x.shape[ax], dtype=np.int64))), 0)
    mask = F.broadcast_to(F.reshape(hit, tuple(-1 if i == ax else 1 for i in range(x.ndim))),
                          tuple(x.shape))
    fill = F.broadcast_to(F.cast(value, x.dtype), tuple(x.shape))
    return F.select(mask, fill, x)


def sequence_mask(lengths, maxlen=None) -> Tensor:
    """``mask[..., j] = j < lengths[...]`` for ``j < maxlen`` (the largest length when
    None, which needs the values)."""
    lengths = _require_tensor("sequence_mask", "lengths", lengths)
    if maxlen is None:
        if lengths.is_symbolic:
            raise ValueError("For 'sequence_mask', 'maxlen' must be given in a graph (the "
                             "largest length is known only with the data).")
        maxlen = int(lengths.asnumpy().max(initial=0))
    if isinstance(maxlen, bool) or not isinstance(maxlen, _INT) or maxlen <= 0:
        raise ValueError(f"For 'sequence_mask', 'maxlen' must be a positive int, but got "
                         f"{maxlen!r}.")
    steps = Tensor(np.arange(int(maxlen), dtype=np.int64))
    return F.less(steps, F.expand_dims(F.cast(lengths, mstype.int64), -1))


def sum_to_size(input, *size) -> Tensor:
    """``input`` summed down to ``size`` (the inverse of broadcasting to ``input``)."""
    if len(size) == 1 and isinstance(size[0], (tuple, list)):
        size = tuple(size[0])
    x = input
    lead = x.ndim - len(size)
    if lead < 0:
        raise ValueError(f"For 'sum_to_size', the size {size} has more dimensions than the "
                         f"input shape {x.shape}.")
    axes = tuple(range(lead)) + tuple(lead + i for i, d in enumerate(size)
                                      if d == 1 and x.shape[lead + i] != 1)
    for i, d in enumerate(size):
        if d not in (1, x.shape[lead + i]):
            raise ValueError(f"For 'sum_to_size', the size {size} is not expandable to the "
                             f"input shape {x.shape}.")
    out = F.reduce_sum(x, axes, True) if axes else x
    return F.reshape(out, tuple(size))


def roll(input, shifts, dims=None) -> Tensor:
    """``input`` rolled by ``shifts`` along ``dims`` (the flattened input when None)."""
    x = _require_tensor("roll", "input", input)
    if dims is None:
        return F.reshape(roll(F.reshape(x, (-1,)), shifts, 0), x.shape)
    shifts = (shifts,) if isinstance(shifts, _INT) else tuple(shifts)
    dims = (dims,) if isinstance(dims, _INT) else tuple(dims)
    if len(shifts) != len(dims):
        raise ValueError(f"For 'roll', 'shifts' and 'dims' must have the same length, but "
                         f"got {len(shifts)} and {len(dims)}.")
    for shift, dim in zip(shifts, dims):
        ax = norm_axis("roll", dim, x.ndim)
        size = x.shape[ax]
        if size:
            index = Tensor((np.arange(size, dtype=np.int64) - shift) % size)
            x = F.gather(x, index, ax)
    return x
