"""Neural-network primitives: Softmax, LogSoftmax, LayerNorm, OneHot, Dropout.

Dropout without a ``seed`` input draws MindSpore 2.10 CPU's masks: each primitive instance
and each graph node keeps a ``std::minstd_rand0`` per input shape, seeded from its
``(Seed0, Seed1)`` attributes when first used, and keeps ``u < keep_prob`` for one float
``u`` per element (:mod:`graphkiln.common.std_random`), so each call and each run of a graph
draws the next mask. With ``Seed0 == Seed1 == 0`` (MindSpore's unseeded draw) every call
takes the next seed of the process-wide stream (:func:`next_seed`, restarted by
``graphkiln.set_seed``). A ``seed`` input (the vmap rule, ``Dropout2D``'s functional form)
instead fixes the mask, from ``np.random.default_rng``. The kernel is never folded or
merged, and its gradient reads the forward's mask output.
"""
from __future__ import annotations

import numpy as np

from ...common import dtype as mstype
from ...common.seed import get_seed
from ...common.seed import rng as global_rng
from ...common.std_random import KernelStreams, MinstdRand0, engine_for
from ...ir.abstract import AbstractScalar, AbstractTensor, AbstractTuple
from ...ir.primitive import OUT_INPLACE, OUT_SEPARATE, OpDef
from ._infer import (
    FLOATS,
    INDEX_TYPES,
    UNKNOWN_DIM,
    buffer_for,
    check_int,
    const_value,
    describe,
    dims_match,
    into,
    norm_axes,
    norm_axis,
    norm_type,
    quiet,
    require_dtype,
    scratch_like,
    shapes_match,
    tensor_type,
    wide_type,
)


def _wide(x):
    x = np.asarray(x)
    return x.astype(np.float32) if x.dtype == np.float16 else x


# ------------------------------------------------------------------ softmax

def _softmax_axes(name: str, axis, ndim: int) -> tuple:
    axes = norm_axes(name, axis, ndim)
    if not axes:
        raise ValueError(f"For '{name}', the 'axis' must not be empty.")
    return axes


def _softmax_infer(x, axis=-1):
    t = tensor_type("Softmax", "x", x)
    require_dtype("Softmax", "x", t, FLOATS)
    _softmax_axes("Softmax", axis, x.ndim)
    return AbstractTensor(t, x.shape)


@quiet
def _softmax(x, axis=-1, out=None):
    axes = tuple(a % max(np.ndim(x), 1) for a in (axis if isinstance(axis, (tuple, list))
                                                  else (axis,)))
    w = _wide(x)
    if w.size == 0:
        return into(out, np.asarray(x).copy())
    if w.ndim == 0:
        return into(out, np.ones_like(x))
    # ``out`` may be ``x``: each element is read before it is written
    e = np.subtract(w, np.max(w, axis=axes, keepdims=True), out=buffer_for(out, w))
    np.exp(e, out=e)
    e /= np.sum(e, axis=axes, keepdims=True)
    return into(out, e.astype(np.asarray(x).dtype, copy=False))


Softmax = OpDef("Softmax", _softmax_infer, _softmax, attrs={"axis": -1},
                out_buffer=OUT_INPLACE)


def _log_softmax_infer(x, axis=-1):
    t = tensor_type("LogSoftmax", "logits", x)
    require_dtype("LogSoftmax", "logits", t, FLOATS)
    norm_axis("LogSoftmax", axis, x.ndim)
    return AbstractTensor(t, x.shape)


@quiet
def _log_softmax(x, axis=-1, out=None, scratch=None):
    w = _wide(x)
    if w.size == 0:
        return into(out, np.asarray(x).copy())
    if w.ndim == 0:
        return into(out, np.zeros_like(x))
    s = np.subtract(w, np.max(w, axis=axis, keepdims=True), out=buffer_for(out, w))
    e = np.exp(s, out=buffer_for(scratch and scratch[0], w))
    s -= np.log(np.sum(e, axis=axis, keepdims=True))
    return into(out, s.astype(np.asarray(x).dtype, copy=False))


# ``out`` and the scratch array may be ``x``'s buffer: ``x`` is read before either is written
LogSoftmax = OpDef("LogSoftmax", _log_softmax_infer, _log_softmax, attrs={"axis": -1},
                   out_buffer=OUT_INPLACE, scratch=scratch_like(wide_type))


# ------------------------------------------------------------------ layer norm

def _layer_norm_infer(x, gamma, beta, begin_norm_axis=1, begin_params_axis=1, epsilon=1e-7):
    t = tensor_type("LayerNorm", "input_x", x)
    require_dtype("LayerNorm", "input_x", t, FLOATS)
    for arg, a in (("gamma", gamma), ("beta", beta)):
        require_dtype("LayerNorm", arg, tensor_type("LayerNorm", arg, a), FLOATS)
    if x.ndim == 0:
        raise ValueError("For 'LayerNorm', the 'input_x' must have rank at least 1, but got a "
                         "0-D Tensor.")
    try:
        bna = norm_axis("LayerNorm", begin_norm_axis, x.ndim, "begin_norm_axis")
        bpa = norm_axis("LayerNorm", begin_params_axis, x.ndim, "begin_params_axis")
    except ValueError as e:  # MindSpore raises RuntimeError for these
        raise RuntimeError(str(e)) from None
    want = x.shape[bpa:]
    if not (shapes_match(gamma.shape, want) and shapes_match(beta.shape, want)):
        raise ValueError(f"For 'LayerNorm', the shapes of 'gamma' and 'beta' must be "
                         f"input_x.shape[begin_params_axis:] = {list(want)}, but got "
                         f"input_x shape {list(x.shape)}, gamma shape {list(gamma.shape)} "
                         f"and beta shape {list(beta.shape)}.")
    if not isinstance(epsilon, (int, float)) or isinstance(epsilon, bool) or epsilon < 0:
        raise ValueError(f"For 'LayerNorm', the 'epsilon' must be a non-negative float, but "
                         f"got {epsilon!r}.")
    stat = x.shape[:bna] + (1,) * (x.ndim - bna)
    return AbstractTuple([AbstractTensor(t, x.shape), AbstractTensor(mstype.float32, stat),
                          AbstractTensor(mstype.float32, stat)])


@quiet
def _layer_norm(x, gamma, beta, begin_norm_axis=1, begin_params_axis=1, epsilon=1e-7,
                out=None, scratch=None):
    """``y`` into ``out`` when given (it must not overlap ``x``)."""
    x = np.asarray(x)
    w = x.astype(np.float64 if x.dtype == np.float64 else np.float32, copy=False)
    axes = tuple(range(begin_norm_axis % x.ndim, x.ndim))
    if w.size == 0:
        stat = x.shape[:axes[0]] + (1,) * len(axes)
        return into(out, x.copy()), np.zeros(stat, np.float32), np.zeros(stat, np.float32)
    mean = np.mean(w, axis=axes, keepdims=True)
    centred = np.subtract(w, mean, out=buffer_for(out, w))
    squares = np.square(centred, out=buffer_for(scratch and scratch[0], w))
    var = np.mean(squares, axis=axes, keepdims=True)
    if gamma.dtype == beta.dtype == w.dtype:  # in place: no wider intermediate to round
        y = np.divide(centred, np.sqrt(var + epsilon), out=centred)
        y *= gamma
        y += beta
    else:
        y = centred / np.sqrt(var + epsilon) * gamma + beta
    return (into(out, y.astype(x.dtype, copy=False)), mean.astype(np.float32, copy=False),
            var.astype(np.float32, copy=False))


LayerNorm = OpDef("LayerNorm", _layer_norm_infer, _layer_norm,
                  attrs={"begin_norm_axis": 1, "begin_params_axis": 1, "epsilon": 1e-7},
                  out_buffer=OUT_SEPARATE, scratch=scratch_like(norm_type))


# ------------------------------------------------------------------ one hot

def _tensor_depth(depth: AbstractTensor) -> int:
    """A depth given as a one-element int Tensor: its value, or unknown until the graph
    runs."""
    if not depth.dtype.is_int or int(np.prod(depth.shape)) != 1:
        raise TypeError(f"For 'OneHot', the 'depth' must be an int or a one-element int "
                        f"Tensor, but got {describe(depth)}.")
    if depth.value is None:
        return UNKNOWN_DIM
    d = int(np.asarray(depth.value).reshape(-1)[0])
    if d < 0:
        raise ValueError(f"For 'OneHot', the 'depth' must be >= 0, but got {d}.")
    return d


def _one_hot_infer(indices, depth, on_value, off_value, axis=-1):
    ti = tensor_type("OneHot", "indices", indices)
    if ti not in INDEX_TYPES:
        raise TypeError(f"For 'OneHot', the type of 'indices' should be one of [Int32, "
                        f"Int64], but got {ti}.")
    if isinstance(depth, AbstractTensor):
        d = _tensor_depth(depth)
    elif isinstance(depth, AbstractScalar) and not depth.is_known:
        d = UNKNOWN_DIM  # an int known when the graph runs (a dynamic dimension)
    else:
        d = check_int("OneHot", "depth", const_value("OneHot", "depth", depth))
        if d < 0:
            raise ValueError(f"For 'OneHot', the 'depth' must be >= 0, but got {d}.")
    ton = tensor_type("OneHot", "on_value", on_value)
    toff = tensor_type("OneHot", "off_value", off_value)
    if ton is not toff:
        raise TypeError(f"For 'OneHot', the types of 'on_value' and 'off_value' must be the "
                        f"same, but got {ton} and {toff}.")
    for arg, a in (("on_value", on_value), ("off_value", off_value)):
        if isinstance(a, AbstractTensor) and int(np.prod(a.shape)) < 1:
            raise ValueError(f"For 'OneHot', the '{arg}' must hold a value, but got shape "
                             f"{list(a.shape)}.")
    n = indices.ndim
    ax = check_int("OneHot", "axis", axis)
    if not -1 <= ax <= n:
        raise ValueError(f"For 'OneHot', the 'axis' must be in [-1, {n}], but got {ax}.")
    ax = n if ax == -1 else ax
    return AbstractTensor(ton, indices.shape[:ax] + (d,) + indices.shape[ax:])


def _one_hot(indices, depth, on_value, off_value, axis=-1, out=None):
    indices = np.asarray(indices)
    depth = int(np.asarray(depth).reshape(-1)[0])  # (a one-element Tensor too)
    if depth < 0:
        raise ValueError(f"For 'OneHot', the 'depth' must be >= 0, but got {depth}.")
    ax = indices.ndim if axis == -1 else axis
    on = np.asarray(on_value).reshape(-1)[0]
    off = np.asarray(off_value).reshape(-1)[0]
    last = ax == indices.ndim
    # with the depth axis last, built straight into ``out`` (when it is C-contiguous, so
    # that the 2-D view below writes into it)
    hot = out if last and out is not None and out.flags.c_contiguous else \
        np.empty(indices.shape + (depth,), np.asarray(on_value).dtype)
    hot.fill(off)
    if depth:  # ``on`` where the index is in [0, depth); out-of-range rows stay ``off``
        idx = indices.reshape(-1)
        rows = np.flatnonzero((idx >= 0) & (idx < depth))
        hot.reshape(-1, depth)[rows, idx[rows]] = on
    return into(out, hot if last else np.ascontiguousarray(np.moveaxis(hot, -1, ax)))


OneHot = OpDef("OneHot", _one_hot_infer, _one_hot, attrs={"axis": -1}, differentiable=False,
               out_buffer=OUT_SEPARATE)


# ------------------------------------------------------------------ dropout

_SEED_STREAM = {"generation": None, "base": 0, "count": 0}


def _global_seed_generation():
    """(the generator object, the seed) of ``graphkiln.set_seed``; a new object after every
    call, so calling ``set_seed(n)`` again restarts the dropout stream too."""
    return global_rng(), get_seed() or 0


def next_seed() -> int:
    """The next seed of the process-wide stream ``ops.dropout`` uses when given none:
    reproducible, restarted by ``graphkiln.set_seed``."""
    s = _SEED_STREAM
    gen, base = _global_seed_generation()
    if gen is not s["generation"]:
        s["generation"], s["base"], s["count"] = gen, base, 0
    seq = np.random.SeedSequence([s["base"], s["count"]])
    s["count"] += 1
    return int(seq.generate_state(1, np.uint32)[0])


def _dropout_infer(x, seed=None, keep_prob=0.5, Seed0=0, Seed1=0, state=None):  # noqa: N803
    t = tensor_type("Dropout", "x", x)
    require_dtype("Dropout", "x", t, FLOATS)
    if not isinstance(keep_prob, (int, float)) or isinstance(keep_prob, bool) or \
            not 0.0 < keep_prob <= 1.0:
        raise RuntimeError(f"For 'Dropout', the 'keep_prob' must be in (0.0, 1.0], but got "
                           f"{keep_prob!r}.")
    for arg, v in (("Seed0", Seed0), ("Seed1", Seed1)):
        if check_int("Dropout", arg, v) < 0:
            raise ValueError(f"For 'Dropout', the '{arg}' must be >= 0, but got {v}.")
    if isinstance(seed, AbstractTensor):
        if not seed.dtype.is_int or seed.shape not in ((), (1,)):
            raise TypeError(f"For 'Dropout', the 'seed' must be an int or an integer Tensor "
                            f"with one element, but got {describe(seed)}.")
    elif isinstance(seed, AbstractScalar) and seed.value is not None:
        if check_int("Dropout", "seed", seed.value) < 0:
            raise ValueError(f"For 'Dropout', the 'seed' must be >= 0, but got {seed.value}.")
    return AbstractTuple([AbstractTensor(t, x.shape), AbstractTensor(t, x.shape)])


@quiet
def _dropout(x, seed=None, keep_prob=0.5, Seed0=0, Seed1=0, state=None):  # noqa: N803
    """The next mask of this kernel's stream (see the module docstring), or the mask a
    ``seed`` input fixes."""
    x = np.asarray(x)
    keep = np.float32(keep_prob)
    if seed is None:
        engine = engine_for(state, MinstdRand0, int(Seed0), int(Seed1), x.shape, next_seed)
        mask = (engine.canonical_floats(x.size).reshape(x.shape) < keep).astype(x.dtype)
    else:
        rng = np.random.default_rng(int(np.asarray(seed).reshape(-1)[0]) % (1 << 63))
        mask = (rng.random(x.shape) < keep_prob).astype(x.dtype)
    scale = np.float32(1) / keep
    if x.dtype == np.float16:  # MindSpore scales half floats in float
        return mask * (x.astype(np.float32) * scale).astype(np.float16), mask
    return mask * x * x.dtype.type(scale), mask


Dropout = OpDef("Dropout", _dropout_infer, _dropout, pure_eval=False,
                attrs={"keep_prob": 0.5, "Seed0": 0, "Seed1": 0}, state=KernelStreams)


# ------------------------------------------------------------------ bias add

def _bias_axis(ndim: int, data_format: str) -> int:
    return ndim - 1 if data_format == "NHWC" else 1


def _bias_add_infer(x, b, data_format="NCHW"):
    t = tensor_type("BiasAdd", "input_x", x)
    tb = tensor_type("BiasAdd", "bias", b)
    if data_format not in ("NCHW", "NHWC", "NCDHW"):
        raise ValueError(f"For 'BiasAdd', the 'data_format' must be 'NCHW', 'NHWC' or 'NCDHW', "
                         f"but got {data_format!r}.")
    if t != tb:
        raise TypeError(f"For 'BiasAdd', the 'input_x' and 'bias' must have the same dtype, but "
                        f"got {describe(x)} and {describe(b)}.")
    if not 2 <= x.ndim <= 5:
        raise ValueError(f"For 'BiasAdd', the dimension of 'input_x' must be in [2, 5], but got "
                         f"{x.ndim}.")
    channels = x.shape[_bias_axis(x.ndim, data_format)]
    if b.ndim != 1 or not dims_match(b.shape[0], channels):
        raise ValueError(f"For 'BiasAdd', the 'bias' must be 1-D with as many elements as the "
                         f"channel dimension of 'input_x' ({channels}), but got shape "
                         f"{list(b.shape)}.")
    return AbstractTensor(t, x.shape)


def _bias_add(x, b, data_format="NCHW"):
    shape = [1] * np.ndim(x)
    shape[_bias_axis(np.ndim(x), data_format)] = -1
    return np.add(x, np.reshape(b, shape))


BiasAdd = OpDef("BiasAdd", _bias_add_infer, _bias_add, attrs={"data_format": "NCHW"})
