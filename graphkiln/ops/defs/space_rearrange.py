"""Moving data between the channel or batch axis and the spatial axes.

``DepthToSpace(block_size)``: an NCHW tensor's channels split into ``block_size**2`` groups
laid out as ``block_size x block_size`` tiles of each pixel (``out[n, c, h*b + i, w*b + j] =
x[n, (i*b + j) * C' + c, h, w]``).

``BatchToSpaceND(block_shape, crops)``: the batch split into ``prod(block_shape)`` groups
interleaved into the last ``len(block_shape)`` (spatial) axes, then ``crops[k] = [begin,
end]`` removed from each spatial axis.

``SpaceToBatchND(block_shape, paddings)``, its inverse: each of the last ``len(block_shape)``
axes padded by ``paddings[k] = [begin, end]`` zeros, then split into ``block_shape[k]``
interleaved groups that move to the batch (``out[(i0*b1 + i1)*N + n, ..., h, w] =
padded[n, ..., h*b0 + i0, w*b1 + i1]``).
"""
from __future__ import annotations

import numpy as np

from ...common import dtype as mstype
from ...ir.abstract import AbstractTensor
from ...ir.primitive import OpDef
from ._infer import ALL, UNKNOWN_DIM, require_dtype, tensor_type
from .math import _WIDE_UINTS

_TYPES = ALL[1:] + _WIDE_UINTS  # no bool, as on MindSpore


def _check_block_size(block_size) -> int:
    if isinstance(block_size, bool) or not isinstance(block_size, (int, np.integer)):
        raise TypeError(f"For 'DepthToSpace', the 'block_size' must be an int, but got "
                        f"{type(block_size).__name__}.")
    if block_size < 2:
        raise ValueError(f"For 'DepthToSpace', the 'block_size' should be >= : 2, but got "
                         f"{block_size}.")
    return int(block_size)


def _depth_to_space_infer(x, block_size=2, data_format="NCHW"):
    b = _check_block_size(block_size)
    require_dtype("DepthToSpace", "x", tensor_type("DepthToSpace", "x", x), _TYPES)
    if data_format != "NCHW":
        raise ValueError(f"For 'DepthToSpace', the 'data_format' must be 'NCHW', but got "
                         f"{data_format!r}.")
    if len(x.shape) != 4:
        raise ValueError(f"For primitive[DepthToSpace], the x rank must be equal to 4, but got "
                         f"{len(x.shape)}.")
    n, c, h, w = x.shape
    if c != UNKNOWN_DIM and c % (b * b):
        raise ValueError(f"For DepthToSpace, the square of block_size must be smaller than the "
                         f"input channel, but got the block_size is {b}, and the input channel "
                         f"is {c}.")
    grow = [d if d == UNKNOWN_DIM else d * b for d in (h, w)]
    return AbstractTensor(x.dtype, (n, c if c == UNKNOWN_DIM else c // (b * b), *grow))


def _depth_to_space(x, block_size=2, data_format="NCHW"):
    n, c, h, w = x.shape
    b = block_size
    tiles = x.reshape(n, b, b, c // (b * b), h, w).transpose(0, 3, 4, 1, 5, 2)
    return tiles.reshape(n, c // (b * b), h * b, w * b)


def block_list(block_shape) -> list[int]:
    """``block_shape`` as a list of ints (an int means two spatial axes)."""
    if isinstance(block_shape, (int, np.integer)) and not isinstance(block_shape, bool):
        return [int(block_shape)] * 2
    if isinstance(block_shape, (tuple, list)) and block_shape and all(
            isinstance(v, (int, np.integer)) and not isinstance(v, bool) for v in block_shape):
        return [int(v) for v in block_shape]
    raise TypeError(f"For 'BatchToSpaceND', the 'block_shape' must be an int or a list of "
                    f"ints, but got {block_shape!r}.")


def _check_space_args(x, block_shape, crops):
    blocks = block_list(block_shape)
    if any(v < 1 for v in blocks):
        raise ValueError(f"For 'BatchToSpaceND', the elements of 'block_shape' must be >= 1, "
                         f"but got {block_shape}.")
    crops = [list(c) for c in crops]
    if len(crops) != len(blocks) or any(len(c) != 2 or min(c) < 0 for c in crops):
        raise ValueError(f"For 'BatchToSpaceND', 'crops' must hold one [begin, end] pair of "
                         f"non-negative ints per block dimension ({len(blocks)}), but got "
                         f"{crops}.")
    if len(x.shape) < len(blocks) + 1:
        raise ValueError(f"For 'BatchToSpaceND', the rank of 'input_x' must be greater than the "
                         f"size of 'block_shape' ({len(blocks)}), but got {len(x.shape)}.")
    return blocks, crops


def _batch_to_space_infer(x, block_shape=2, crops=((0, 0), (0, 0))):
    require_dtype("BatchToSpaceND", "input_x", tensor_type("BatchToSpaceND", "input_x", x),
                  _TYPES)
    blocks, crops = _check_space_args(x, block_shape, crops)
    prod = int(np.prod(blocks))
    n = x.shape[0]
    if n != UNKNOWN_DIM and n % prod:
        raise ValueError(f"For 'BatchToSpaceND', the first dim of 'input_x' must be divisible "
                         f"by 'block_shape_prod'. But got first dim of 'input_x': {n}, "
                         f"'block_shape_prod' as the product of block shapes with value: "
                         f"{prod}.")
    k = len(blocks)
    spatial = []
    for d, b, (lo, hi) in zip(x.shape[-k:], blocks, crops):
        size = UNKNOWN_DIM if d == UNKNOWN_DIM else d * b - lo - hi
        if size != UNKNOWN_DIM and size <= 0:
            raise ValueError(f"For 'BatchToSpaceND', the crops {crops} leave nothing of a "
                             f"spatial axis of size {d} * {b}.")
        spatial.append(size)
    batch = UNKNOWN_DIM if n == UNKNOWN_DIM else n // prod
    return AbstractTensor(x.dtype, (batch, *x.shape[1:-k], *spatial))


def _batch_to_space(x, block_shape=2, crops=((0, 0), (0, 0))):
    blocks = block_list(block_shape)
    k, prod = len(blocks), int(np.prod(blocks))
    n, mid, sp = x.shape[0] // prod, x.shape[1:-k], x.shape[-k:]
    v = x.reshape(*blocks, n, *mid, *sp)
    # (n, *mid, sp0, b0, sp1, b1, ...)
    lead = [k] + [k + 1 + i for i in range(len(mid))]
    inter = [a for i in range(k) for a in (k + 1 + len(mid) + i, i)]
    v = v.transpose(lead + inter).reshape(n, *mid, *(d * b for d, b in zip(sp, blocks)))
    cut = tuple(slice(lo, v.shape[1 + len(mid) + i] - hi) for i, (lo, hi) in enumerate(crops))
    return np.ascontiguousarray(v[(slice(None),) * (1 + len(mid)) + cut])


DepthToSpace = OpDef("DepthToSpace", _depth_to_space_infer, _depth_to_space,
                     attrs={"block_size": 2, "data_format": "NCHW"})
BatchToSpaceND = OpDef("BatchToSpaceND", _batch_to_space_infer, _batch_to_space,
                       attrs={"block_shape": 2, "crops": ((0, 0), (0, 0))})


# ------------------------------------------------------------------ SpaceToBatchND

_S2B = "SpaceToBatchND"
_S2B_TYPES = (mstype.float16, mstype.float32, mstype.float64, mstype.int16, mstype.int32,
              mstype.int64, mstype.int8, mstype.uint16, mstype.uint32, mstype.uint64,
              mstype.uint8)


def _check_s2b_attrs(attrs: dict) -> None:
    """MindSpore's constructor checks of ``block_shape`` and ``paddings``."""
    paddings, block_shape = attrs["paddings"], attrs["block_shape"]
    if not isinstance(paddings, (list, tuple)):
        raise TypeError(f"For '{_S2B}', the type of 'paddings type' should be one of "
                        f"'['list', 'tuple']', but got type '{type(paddings).__name__}'.")
    if not paddings:
        raise ValueError(f"For '{_S2B}', the paddings length should be >= 1, but got 0.")
    if isinstance(block_shape, int) and not isinstance(block_shape, bool):
        block_shape = (block_shape,) * len(paddings)
    if not isinstance(block_shape, (list, tuple)):
        raise TypeError(f"For '{_S2B}', the type of 'block_shape type' should be one of "
                        f"'['list', 'tuple']', but got type '{type(block_shape).__name__}'.")
    if np.array(block_shape, dtype=object).ndim != 1:
        raise ValueError(f"For '{_S2B}', the block_shape shape should be = default value: 1, "
                         f"but got {np.array(block_shape, dtype=object).ndim}.")
    for v in block_shape:
        if isinstance(v, bool) or not isinstance(v, int):
            raise TypeError(f"For '{_S2B}', the type of 'block_shape element' should be "
                            f"'int', but got type '{type(v).__name__}'.")
        if v < 1:
            raise ValueError(f"For '{_S2B}', the block_shape element should be >= min value: "
                             f"1, but got {v}.")
    shape = np.array(paddings, dtype=object).shape
    if shape != (len(block_shape), 2):
        raise ValueError(f"For '{_S2B}', the paddings shape should be = default value: "
                         f"{(len(block_shape), 2)}, but got {shape}.")
    for v in (e for pair in paddings for e in pair):
        if isinstance(v, bool) or not isinstance(v, int) or v < 0:
            raise ValueError(f"For '{_S2B}', the 'paddings element' must be int and must >= 0, "
                             f"but got '{v}' with type '{type(v).__name__}'.")


def _s2b_blocks(block_shape, paddings) -> list[int]:
    if isinstance(block_shape, (int, np.integer)) and not isinstance(block_shape, bool):
        return [int(block_shape)] * len(paddings)
    return [int(v) for v in block_shape]


def _space_to_batch_infer(x, block_shape=2, paddings=((0, 0), (0, 0))):
    t = tensor_type(_S2B, "input_x", x)
    if t not in _S2B_TYPES:
        names = ", ".join(f"Tensor[{a}]" for a in sorted(_S2B_TYPES, key=str))
        raise TypeError(f"For primitive[{_S2B}], the input argument[input type] must be a type "
                        f"of {{{names}}}, but got Tensor[{t}].")
    blocks = _s2b_blocks(block_shape, paddings)
    k = len(blocks)
    if len(x.shape) <= k:
        raise RuntimeError(f"For '{_S2B}', the input size should be no less than the block "
                           f"size, but get input size: {len(x.shape)} block size: {k}")
    spatial = []
    for d, b, (lo, hi) in zip(x.shape[-k:], blocks, paddings):
        if d == UNKNOWN_DIM:
            spatial.append(UNKNOWN_DIM)
            continue
        if (d + lo + hi) % b:
            raise RuntimeError(f"For '{_S2B}', padded shape should be divisible by block_size, "
                               f"but got padded shape: {d + lo + hi}, block_size: {b}")
        spatial.append((d + lo + hi) // b)
    n = x.shape[0]
    batch = UNKNOWN_DIM if n == UNKNOWN_DIM else n * int(np.prod(blocks))
    return AbstractTensor(t, (batch, *x.shape[1:-k], *spatial))


def _space_to_batch(x, block_shape=2, paddings=((0, 0), (0, 0))):
    blocks = _s2b_blocks(block_shape, paddings)
    k = len(blocks)
    lead = x.ndim - k
    v = np.pad(x, [(0, 0)] * lead + [(int(lo), int(hi)) for lo, hi in paddings])
    n, mid, sp = v.shape[0], v.shape[1:lead], v.shape[lead:]
    v = v.reshape(n, *mid, *(e for d, b in zip(sp, blocks) for e in (d // b, b)))
    # (n, *mid, sp0, b0, sp1, b1, ...) -> (b0, b1, ..., n, *mid, sp0, sp1, ...)
    perm = ([lead + 2 * i + 1 for i in range(k)] + list(range(lead))
            + [lead + 2 * i for i in range(k)])
    return np.ascontiguousarray(v.transpose(perm)).reshape(
        n * int(np.prod(blocks)), *mid, *(d // b for d, b in zip(sp, blocks)))


SpaceToBatchND = OpDef(_S2B, _space_to_batch_infer, _space_to_batch,
                       attrs={"block_shape": 2, "paddings": ((0, 0), (0, 0))},
                       check_attrs=_check_s2b_attrs)
