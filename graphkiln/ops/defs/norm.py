"""``BatchNorm`` (MindSpore's inputs ``x, scale, bias, mean, variance`` and five outputs).

Pure: in training it normalises with the batch statistics and returns them (the variance
unbiased, as MindSpore's moving-variance update uses it); ``nn.BatchNorm*d`` writes its
moving statistics with ``Assign`` in the graph. In inference it uses ``mean``/``variance``.
Outputs: ``y, batch_mean, batch_variance, reserve_space_1, reserve_space_2`` (the reserves
repeat the statistics). float16 inputs are computed in float32.
"""
from __future__ import annotations

import numpy as np

from ...ir.abstract import AbstractTensor, AbstractTuple
from ...ir.primitive import OUT_SEPARATE, OpDef
from ._infer import (
    FLOATS,
    buffer_for,
    dims_match,
    into,
    merge_dims,
    quiet,
    require_dtype,
    tensor_type,
)

BN_ATTRS = {"is_training": False, "epsilon": 1e-5, "momentum": 0.1, "data_format": "NCHW"}


def stat_axes(ndim: int) -> tuple:
    """The axes BatchNorm reduces: all but the channel axis 1."""
    return (0,) + tuple(range(2, ndim))


def _bn_infer(x, scale, bias, mean, variance, **attrs):
    t = tensor_type("BatchNorm", "input_x", x)
    require_dtype("BatchNorm", "input_x", t, FLOATS)
    if x.ndim not in (2, 3, 4, 5):
        raise ValueError(f"For 'BatchNorm', the dimension of 'input_x' must be 2, 3, 4 or 5, "
                         f"but got {x.ndim} (shape {list(x.shape)}).")
    c = x.shape[1]
    for arg, a in (("scale", scale), ("bias", bias), ("mean", mean), ("variance", variance)):
        require_dtype("BatchNorm", arg, tensor_type("BatchNorm", arg, a), FLOATS)
        if a.ndim != 1 or not dims_match(a.shape[0], c):
            raise ValueError(f"For 'BatchNorm', the shape of '{arg}' must be equal to "
                             f"[{c}] (the channels of 'input_x'), but got {list(a.shape)}.")
    a = {**BN_ATTRS, **attrs}
    if a["data_format"] != "NCHW":
        raise ValueError(f"For 'BatchNorm', the 'data_format' must be 'NCHW' on CPU, but got "
                         f"'{a['data_format']}'.")
    stat = AbstractTensor(scale.dtype, (merge_dims(c, scale.shape[0]),))
    return AbstractTuple([AbstractTensor(t, x.shape), stat, stat, stat, stat])


@quiet
def _bn(x, scale, bias, mean, variance, out=None, **attrs):
    """``y`` into ``out`` when given (it must not overlap ``x``)."""
    a = {**BN_ATTRS, **attrs}
    w = x.astype(np.float64 if x.dtype == np.float64 else np.float32, copy=False)
    axes = stat_axes(x.ndim)
    bshape = (1, -1) + (1,) * (x.ndim - 2)
    if a["is_training"]:
        mu = w.mean(axis=axes)
        centred = np.subtract(w, mu.reshape(bshape), out=buffer_for(out, w))
        # the sum of squares per channel without writing the squares out
        rows = centred.reshape(centred.shape[0], centred.shape[1], -1)
        m = x.size // x.shape[1]
        var = np.einsum("nci,nci->c", rows, rows) / m
        unbiased = var * (m / max(m - 1, 1))
    else:
        mu, var = mean.astype(w.dtype), variance.astype(w.dtype)
        centred = np.subtract(w, mu.reshape(bshape), out=buffer_for(out, w))
        unbiased = var
    inv = 1.0 / np.sqrt(var + a["epsilon"])
    factor, shift = (scale * inv).reshape(bshape), bias.reshape(bshape)
    if factor.dtype == shift.dtype == w.dtype:  # in place: no wider intermediate to round
        y = np.multiply(centred, factor, out=centred)
        y += shift
    else:
        y = centred * factor + shift
    st = scale.dtype
    bm, bv = mu.astype(st), unbiased.astype(st)
    return into(out, y.astype(x.dtype, copy=False)), bm, bv, bm.copy(), bv.copy()


BatchNorm = OpDef("BatchNorm", _bn_infer, _bn, attrs=dict(BN_ATTRS),
                  out_buffer=OUT_SEPARATE)
