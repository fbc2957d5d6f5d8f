"""3-D pooling on NCDHW: ``MaxPool3D`` with ``MaxPool3DGrad`` and ``MaxPool3DGradGrad``
(each the other's adjoint in ``dout``), ``AvgPool3D`` with ``AvgPool3DGrad``.

MindSpore's attributes: ``kernel_size``, ``strides``, ``pad_mode`` ('valid', 'same', 'pad'),
``pad_list`` (MaxPool3D) or ``pad`` (AvgPool3D) as one int or six (before/after per axis),
``ceil_mode``, and for the average ``count_include_pad`` and ``divisor_override``; the
geometry is :class:`.pool.PoolGeometry` over three axes. Float16/32/64, float16 averaged in
float32; with ``count_include_pad`` the divisor counts 'same' padding too (the 2-D AvgPool
leaves it out). The maximum's gradient goes to each window's first maximum.
"""
from __future__ import annotations

import numpy as np

import graphkiln.ops.windows as W

from ...ir.abstract import AbstractTensor
from ...ir.primitive import OpDef
from ._infer import FLOATS, quiet, shapes_match, tensor_type
from .pool import PoolGeometry

_MAX_ATTRS = {"kernel_size": 1, "strides": 1, "pad_mode": "valid", "pad_list": 0,
              "ceil_mode": None, "data_format": "NCDHW"}
_AVG_ATTRS = {"kernel_size": 1, "strides": 1, "pad_mode": "valid", "pad": 0,
              "ceil_mode": False, "count_include_pad": True, "divisor_override": 0,
              "data_format": "NCDHW"}
_FLOATS = FLOATS[:3]


class Pool3DGeometry(PoolGeometry):
    RANK, FORMAT = 3, "NCDHW"
    __slots__ = ()


def _geometry_attrs(attrs: dict) -> dict:
    """The attributes in :class:`PoolGeometry`'s names (MaxPool3D's ``pad_list`` is ``pad``)."""
    a = dict(attrs)
    if "pad_list" in a:
        a["pad"] = a.pop("pad_list")
    a["ceil_mode"] = bool(a.get("ceil_mode"))
    return a


_cached = W.cached_geometry(Pool3DGeometry)


def geometry(name: str, sizes, attrs: dict) -> Pool3DGeometry:
    return _cached(name, tuple(sizes), _geometry_attrs(attrs))


def _infer_for(name: str, n_inputs: int, defaults: dict):
    def infer(*args, **attrs):
        x = args[0]
        t = tensor_type(name, "x", x)
        if t not in _FLOATS:
            raise TypeError(f"For primitive[{name}], the input argument[x] must be a type of "
                            f"{{Tensor[Float16], Tensor[Float32], Tensor[Float64]}}, but got "
                            f"Tensor[{t}].")
        if x.ndim != 5:
            raise ValueError(f"For '{name}', the dimension of 'x' must be 5 (NCDHW), but got "
                             f"{x.ndim} (shape {list(x.shape)}).")
        geo = geometry(name, x.shape[2:], {**defaults, **attrs})
        pooled = tuple(x.shape[:2]) + geo.out
        if n_inputs == 1:
            return AbstractTensor(t, pooled)
        want = tuple(x.shape) if name == "MaxPool3DGradGrad" else pooled
        if not shapes_match(tuple(args[2].shape), want):
            raise ValueError(f"For '{name}', the shape of 'dout' must be {list(want)}, but "
                             f"got {list(args[2].shape)}.")
        return AbstractTensor(t, pooled if name == "MaxPool3DGradGrad" else tuple(x.shape))
    return infer


def _divisor(geo: Pool3DGeometry, attrs: dict, dtype) -> np.ndarray:
    """Each window's divisor: unlike the 2-D kernel, MindSpore's AvgPool3D counts 'same'
    padding too when ``count_include_pad``."""
    a = _geometry_attrs(attrs)
    if a["pad_mode"].lower() == "same":
        a["pad_mode"] = "pad"
    return geo.count(a, dtype)


def _first_maxima(x: np.ndarray, geo: Pool3DGeometry) -> np.ndarray:
    """Flat index (in the window) of each window's first maximum: ``(N, C, *out, 1)``."""
    return np.argmax(geo.flat_windows(x, -np.inf), axis=-1)[..., None]


@quiet
def _max_pool3d(x, **attrs):
    geo = geometry("MaxPool3D", x.shape[2:], {**_MAX_ATTRS, **attrs})
    return np.max(geo.windows(x, -np.inf), axis=(-3, -2, -1))


@quiet
def _max_pool3d_grad(x, y, dout, **attrs):
    """``dout`` routed to each window's first maximum."""
    geo = geometry("MaxPool3DGrad", x.shape[2:], {**_MAX_ATTRS, **attrs})
    taps = int(np.prod(geo.kernel))
    cols = np.zeros(dout.shape + (taps,), dout.dtype)
    np.put_along_axis(cols, _first_maxima(x, geo), dout[..., None], -1)
    cols = cols.reshape(dout.shape + geo.kernel)
    return geo.scatter(np.moveaxis(cols, (-3, -2, -1), (2, 3, 4)))


@quiet
def _max_pool3d_grad_grad(x, y, g, **attrs):
    geo = geometry("MaxPool3DGradGrad", x.shape[2:], {**_MAX_ATTRS, **attrs})
    return np.take_along_axis(geo.flat_windows(g, 0.0), _first_maxima(x, geo), -1)[..., 0]


@quiet
def _avg_pool3d(x, **attrs):
    a = {**_AVG_ATTRS, **attrs}
    geo = geometry("AvgPool3D", x.shape[2:], a)
    ct = W.compute_dtype(x.dtype)
    total = np.sum(geo.windows(x.astype(ct, copy=False), 0.0), axis=(-3, -2, -1))
    return (total / _divisor(geo, a, ct)).astype(x.dtype, copy=False)


@quiet
def _avg_pool3d_grad(x, y, dout, **attrs):
    a = {**_AVG_ATTRS, **attrs}
    geo = geometry("AvgPool3DGrad", x.shape[2:], a)
    share = dout / _divisor(geo, a, dout.dtype)
    cols = np.broadcast_to(share[:, :, None, None, None], x.shape[:2] + geo.kernel + geo.out)
    return geo.scatter(cols)


MaxPool3D = OpDef("MaxPool3D", _infer_for("MaxPool3D", 1, _MAX_ATTRS), _max_pool3d,
                  attrs=dict(_MAX_ATTRS))
MaxPool3DGrad = OpDef("MaxPool3DGrad", _infer_for("MaxPool3DGrad", 3, _MAX_ATTRS),
                      _max_pool3d_grad, attrs=dict(_MAX_ATTRS))
MaxPool3DGradGrad = OpDef("MaxPool3DGradGrad", _infer_for("MaxPool3DGradGrad", 3, _MAX_ATTRS),
                          _max_pool3d_grad_grad, attrs=dict(_MAX_ATTRS))
AvgPool3D = OpDef("AvgPool3D", _infer_for("AvgPool3D", 1, _AVG_ATTRS), _avg_pool3d,
                  attrs=dict(_AVG_ATTRS))
AvgPool3DGrad = OpDef("AvgPool3DGrad", _infer_for("AvgPool3DGrad", 3, _AVG_ATTRS),
                      _avg_pool3d_grad, attrs=dict(_AVG_ATTRS))
