"""Fractional max and average pooling with random pooling regions (Graham, 2014), as
MindSpore's CPU kernels: ``FractionalMaxPool(pooling_ratio, pseudo_random, overlapping,
deterministic, seed, seed2)(x)`` pools an ``(N, H, W, C)`` ``x`` to ``floor(H / ratio_h)`` by
``floor(W / ratio_w)`` and also returns the region boundaries it drew (int64 row and column
sequences, ``0 = s_0 < s_1 < ... < s_out = size``). Region ``i`` spans ``[s_i, s_{i+1})``
(through ``s_{i+1}`` when ``overlapping``, clipped to the input).

The sequences: region sizes ``k = size // out`` and ``k + 1`` (``size % out`` of them) in a
random order, or ``pseudo_random``: ``s_i = ceil(alpha (i + u)) - 1`` for a uniform ``u``
(``alpha = size / out``). Seeds work as in :mod:`.random` (``deterministic`` with zero seeds
draws from a fixed generator).

``FractionalMaxPoolGrad(overlapping)(orig_input, orig_output, out_backprop, row_seq,
col_seq)`` adds each ``out_backprop`` element at the first maximum of its region of
``orig_input``; ``FractionalMaxPoolArgmax(overlapping)(x, row_seq, col_seq)`` (graphkiln's,
for the gradient's own backward) gives those maxima's flat ``h * W + w`` positions.

``FractionalAvgPool`` (the same attributes and outputs) averages each region instead (in the
input's dtype: integers rounded toward zero), and ``FractionalAvgPoolGrad(overlapping)(
orig_input_tensor_shape, out_backprop, row_seq, col_seq)`` spreads each ``out_backprop``
element evenly over its region.
"""
from __future__ import annotations

import math

import numpy as np

from ...common import dtype as mstype
from ...ir.abstract import AbstractTensor, AbstractTuple
from ...ir.primitive import OpDef
from ._infer import UNKNOWN_DIM, tensor_type
from .random import check_seed, generator

_TYPES = (mstype.float32, mstype.float64, mstype.int32, mstype.int64)
_ATTRS = {"pooling_ratio": None, "pseudo_random": False, "overlapping": False,
          "deterministic": False, "seed": 0, "seed2": 0}


def _check_attrs(name, pooling_ratio, pseudo_random, overlapping, deterministic, seed, seed2):
    if not isinstance(pooling_ratio, (list, tuple)) or len(pooling_ratio) != 4:
        raise ValueError(f"For '{name}', the 'pooling_ratio' must be a list of 4 floats, but "
                         f"got {pooling_ratio!r}.")
    if any(not isinstance(r, float) for r in pooling_ratio):
        raise TypeError(f"For '{name}', each 'pooling_ratio' item must be a float, but got "
                        f"{pooling_ratio!r}.")
    if pooling_ratio[0] != 1.0 or pooling_ratio[3] != 1.0:
        raise ValueError(f"For '{name}', the first and last 'pooling_ratio' must be 1.0 (no "
                         f"pooling over the batch or the channels), but got {pooling_ratio}.")
    if pooling_ratio[1] < 1.0 or pooling_ratio[2] < 1.0:
        raise ValueError(f"For '{name}', the row and col 'pooling_ratio' must be >= 1.0, but "
                         f"got {pooling_ratio}.")
    for arg, v in (("pseudo_random", pseudo_random), ("overlapping", overlapping),
                   ("deterministic", deterministic)):
        if not isinstance(v, bool):
            raise TypeError(f"For '{name}', the '{arg}' must be a bool, but got "
                            f"{type(v).__name__}.")
    check_seed(name, "seed", seed)
    check_seed(name, "seed2", seed2)


def _out_size(size: int, ratio: float) -> int:
    if size == UNKNOWN_DIM:
        return UNKNOWN_DIM
    out = int(math.floor(size / ratio))
    if out <= 0:
        raise ValueError(f"For fractional pooling, the pooled size of a dimension of size "
                         f"{size} by the ratio {ratio} must be positive, but got {out}.")
    return out


def _pool_infer(name: str):
    """The shape inference of ``FractionalMaxPool`` / ``FractionalAvgPool``."""
    def infer(x, pooling_ratio=None, pseudo_random=False, overlapping=False,
              deterministic=False, seed=0, seed2=0):
        _check_attrs(name, pooling_ratio, pseudo_random, overlapping, deterministic, seed,
                     seed2)
        t = tensor_type(name, "x", x)
        if t not in _TYPES:
            raise TypeError(f"For '{name}', the 'x' must be a float32, float64, int32 or int64 "
                            f"Tensor, but got {t}.")
        if len(x.shape) != 4:
            raise ValueError(f"For '{name}', the 'x' must be 4-D (N, H, W, C), but got shape "
                             f"{list(x.shape)}.")
        n, h, w, c = x.shape
        oh, ow = _out_size(h, pooling_ratio[1]), _out_size(w, pooling_ratio[2])
        seq = lambda o: AbstractTensor(mstype.int64, (UNKNOWN_DIM if o < 0 else o + 1,))  # noqa
        return AbstractTuple([AbstractTensor(t, (n, oh, ow, c)), seq(oh), seq(ow)])
    return infer


def pooling_sequence(rng: np.random.Generator, size: int, out: int,
                     pseudo_random: bool) -> np.ndarray:
    """The int64 region boundaries ``[0, ..., size]`` of ``out`` regions (module docstring)."""
    if pseudo_random:
        alpha = size / out
        k = size // out
        u_max = min((k + 2) / alpha - 1, (size + 1 - k) / alpha - (out - 1))
        u = rng.uniform(0.0, u_max)
        inner = [int(math.ceil(alpha * (i + u))) - 1 for i in range(1, out)]
        return np.array([0] + inner + [size], np.int64)
    k, extra = divmod(size, out)
    sizes = np.full(out, k, np.int64)
    sizes[:extra] += 1
    rng.shuffle(sizes)
    return np.concatenate([[0], np.cumsum(sizes)]).astype(np.int64)


def _regions(seq, size: int, overlapping: bool):
    """``(start, stop)`` of each region along one axis."""
    seq = np.asarray(seq).astype(np.int64)
    return [(int(lo), min(int(hi) + (1 if overlapping else 0), size))
            for lo, hi in zip(seq[:-1], seq[1:])]


def _argmax_positions(x, rows, cols):
    """For each batch entry, region and channel: the flat ``(h, w)`` index of the first
    maximum of ``x`` in it; shape ``(N, len(rows), len(cols), C)``."""
    n, h, w, c = x.shape
    out = np.zeros((n, len(rows), len(cols), c), np.int64)
    for i, (r0, r1) in enumerate(rows):
        for j, (c0, c1) in enumerate(cols):
            block = x[:, r0:r1, c0:c1, :].reshape(n, -1, c)
            first = np.argmax(block, axis=1)  # (the first maximum, as MindSpore's kernel)
            bw = c1 - c0
            out[:, i, j, :] = (r0 + first // bw) * w + c0 + first % bw
    return out


def _sequences(x, pooling_ratio, pseudo_random, deterministic, seed, seed2):
    """The row and column region boundaries one call draws for ``x``."""
    _, h, w, _ = x.shape
    rng = np.random.default_rng(0) if deterministic and seed == seed2 == 0 else \
        generator(seed, seed2)
    return (pooling_sequence(rng, h, _out_size(h, pooling_ratio[1]), pseudo_random),
            pooling_sequence(rng, w, _out_size(w, pooling_ratio[2]), pseudo_random))


def _fmp(x, pooling_ratio=None, pseudo_random=False, overlapping=False, deterministic=False,
         seed=0, seed2=0):
    x = np.asarray(x)
    n, h, w, c = x.shape
    row_seq, col_seq = _sequences(x, pooling_ratio, pseudo_random, deterministic, seed, seed2)
    where = _argmax_positions(x, _regions(row_seq, h, overlapping),
                              _regions(col_seq, w, overlapping))
    flat = x.reshape(n, h * w, c)
    y = np.take_along_axis(flat, where.reshape(n, -1, c), axis=1).reshape(where.shape)
    return y.astype(x.dtype), row_seq, col_seq


def _divide(total, count):
    """``total / count``; for integers rounded toward zero (C's division)."""
    if total.dtype.kind in "iu":
        return np.sign(total) * (np.abs(total) // count)
    return total / count


def _fap(x, pooling_ratio=None, pseudo_random=False, overlapping=False, deterministic=False,
         seed=0, seed2=0):
    x = np.asarray(x)
    _, h, w, _ = x.shape
    row_seq, col_seq = _sequences(x, pooling_ratio, pseudo_random, deterministic, seed, seed2)
    rows, cols = _regions(row_seq, h, overlapping), _regions(col_seq, w, overlapping)
    y = np.stack([np.stack([x[:, r0:r1, c0:c1, :].sum((1, 2)) for c0, c1 in cols], 1)
                  for r0, r1 in rows], 1)
    count = np.array([[(r1 - r0) * (c1 - c0) for c0, c1 in cols] for r0, r1 in rows])
    count = count[None, :, :, None]
    y = _divide(y, count)
    return y.astype(x.dtype), row_seq, col_seq


FractionalMaxPool = OpDef("FractionalMaxPool", _pool_infer("FractionalMaxPool"), _fmp,
                          pure_eval=False, attrs=_ATTRS)
FractionalAvgPool = OpDef("FractionalAvgPool", _pool_infer("FractionalAvgPool"), _fap,
                          pure_eval=False, attrs=_ATTRS)


def _check_sequences(name: str, row_seq, col_seq) -> None:
    for arg, v in (("row_pooling_sequence", row_seq), ("col_pooling_sequence", col_seq)):
        if tensor_type(name, arg, v) is not mstype.int64:
            raise TypeError(f"For '{name}', the '{arg}' must be an int64 Tensor, but got "
                            f"{v.dtype}.")


def _fmp_grad_infer(orig_input, orig_output, out_backprop, row_seq, col_seq,
                    overlapping=False):
    name = "FractionalMaxPoolGrad"
    t = tensor_type(name, "orig_input", orig_input)
    for arg, v in (("orig_output", orig_output), ("out_backprop", out_backprop)):
        if tensor_type(name, arg, v) is not t:
            raise TypeError(f"For '{name}', the '{arg}' must have the dtype {t} of "
                            f"'orig_input', but got {v.dtype}.")
    _check_sequences(name, row_seq, col_seq)
    if len(orig_input.shape) != 4 or len(out_backprop.shape) != 4:
        raise ValueError(f"For '{name}', 'orig_input' and 'out_backprop' must be 4-D, but got "
                         f"shapes {list(orig_input.shape)} and {list(out_backprop.shape)}.")
    return AbstractTensor(t, orig_input.shape)


def _fmp_grad(orig_input, orig_output, out_backprop, row_seq, col_seq, overlapping=False):
    x, dy = np.asarray(orig_input), np.asarray(out_backprop)
    n, h, w, c = x.shape
    where = _argmax_positions(x, _regions(row_seq, h, overlapping),
                              _regions(col_seq, w, overlapping))
    if where.shape != dy.shape:
        raise ValueError(f"For 'FractionalMaxPoolGrad', the 'out_backprop' must have the shape "
                         f"{list(where.shape)} of the pooled regions, but got {list(dy.shape)}.")
    dx = np.zeros((n, h * w, c), dy.dtype)
    batch = np.arange(n)[:, None, None]
    chan = np.arange(c)[None, None, :]
    np.add.at(dx, (batch, where.reshape(n, -1, c), chan), dy.reshape(n, -1, c))
    return dx.reshape(x.shape)


FractionalMaxPoolGrad = OpDef("FractionalMaxPoolGrad", _fmp_grad_infer, _fmp_grad,
                              attrs={"overlapping": False})


def _argmax_infer(x, row_seq, col_seq, overlapping=False):
    tensor_type("FractionalMaxPoolArgmax", "x", x)
    n, _, _, c = x.shape
    rows, cols = (UNKNOWN_DIM if s.shape[0] < 0 else s.shape[0] - 1
                  for s in (row_seq, col_seq))
    return AbstractTensor(mstype.int64, (n, rows, cols, c))


def _argmax(x, row_seq, col_seq, overlapping=False):
    x = np.asarray(x)
    _, h, w, _ = x.shape
    return _argmax_positions(x, _regions(row_seq, h, overlapping),
                             _regions(col_seq, w, overlapping))


FractionalMaxPoolArgmax = OpDef("FractionalMaxPoolArgmax", _argmax_infer, _argmax,
                                differentiable=False, attrs={"overlapping": False})


def _fap_grad_infer(orig_input_tensor_shape, out_backprop, row_seq, col_seq,
                    overlapping=False):
    name = "FractionalAvgPoolGrad"
    t = tensor_type(name, "out_backprop", out_backprop)
    shape = orig_input_tensor_shape
    if tensor_type(name, "orig_input_tensor_shape", shape) is not mstype.int64 or \
            tuple(shape.shape) not in ((4,), (UNKNOWN_DIM,)):
        raise ValueError(f"For '{name}', the 'orig_input_tensor_shape' must be an int64 "
                         f"Tensor of 4 elements, but got {shape.dtype} of shape "
                         f"{list(shape.shape)}.")
    _check_sequences(name, row_seq, col_seq)
    if len(out_backprop.shape) != 4:
        raise ValueError(f"For '{name}', the 'out_backprop' must be 4-D, but got shape "
                         f"{list(out_backprop.shape)}.")
    dims = (UNKNOWN_DIM,) * 4 if shape.value is None else \
        tuple(int(d) for d in np.asarray(shape.value).reshape(-1))
    return AbstractTensor(t, dims)


def _fap_grad(orig_input_tensor_shape, out_backprop, row_seq, col_seq, overlapping=False):
    dy = np.asarray(out_backprop)
    n, h, w, c = (int(d) for d in np.asarray(orig_input_tensor_shape).reshape(-1))
    rows, cols = _regions(row_seq, h, overlapping), _regions(col_seq, w, overlapping)
    if dy.shape != (n, len(rows), len(cols), c):
        raise ValueError(f"For 'FractionalAvgPoolGrad', the 'out_backprop' must have the shape "
                         f"{[n, len(rows), len(cols), c]} of the pooled regions, but got "
                         f"{list(dy.shape)}.")
    dx = np.zeros((n, h, w, c), dy.dtype)
    for i, (r0, r1) in enumerate(rows):
        for j, (c0, c1) in enumerate(cols):
            count = (r1 - r0) * (c1 - c0)
            share = _divide(dy[:, i, j, :], count)
            dx[:, r0:r1, c0:c1, :] += share[:, None, None, :].astype(dy.dtype)
    return dx


FractionalAvgPoolGrad = OpDef("FractionalAvgPoolGrad", _fap_grad_infer, _fap_grad,
                              attrs={"overlapping": False})
