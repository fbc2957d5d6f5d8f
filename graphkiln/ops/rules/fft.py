"""Backward and batching rules of ``FFTN``, ``RFFTN`` and ``IRFFTN``
(:mod:`..defs.fft`).

With MindSpore's convention (the cotangent of ``a + bi`` is ``da + db i``) the cotangent of a
linear map's input is the adjoint applied to the output's: the adjoint of a transform is
the opposite-direction transform with the dual scaling (``backward`` <-> ``forward``,
``ortho`` itself), then cut or zero-padded back to the input's sizes; a real input takes
the real part. ``IRFFTN`` counts each half-spectrum entry that stands for two (a
conjugate pair) twice."""
from __future__ import annotations

import numpy as np

import graphkiln.ops.functional as F

from ...common.tensor import Tensor
from ..defs import array as A
from ..defs import fft as FT
from .batching import to_front
from .bprop import bprop

_DUAL = {"backward": "forward", "forward": "backward", "ortho": "ortho"}


def _resize(g: Tensor, axes: tuple, shape: tuple) -> Tensor:
    """``g`` cut or zero-padded along ``axes`` to the sizes of ``shape``."""
    for a in axes:
        have, want = g.shape[a], shape[a]
        if have > want:
            size = list(g.shape)
            size[a] = want
            g = A.Slice(g, (0,) * g.ndim, tuple(size))
        elif have < want:
            pad = list(g.shape)
            pad[a] = want - have
            g = F.concat([g, F.zeros(tuple(pad), g.dtype)], a)
    return g


def _to_input(g: Tensor, x) -> Tensor:
    """A complex cotangent as the cotangent of ``x`` (its real part for a real ``x``)."""
    return g if x.dtype.is_complex else F.cast(F.real(g), x.dtype)


@bprop("FFTN")
def _fftn(x, out, dout, sizes=(), axes=(), norm="backward", inverse=False):
    g = FT.FFTN(dout, sizes=sizes, axes=axes, norm=_DUAL[norm], inverse=not inverse)
    return (_to_input(_resize(g, axes, tuple(x.shape)), x),)


@bprop("RFFTN")
def _rfftn(x, out, dout, sizes=(), axes=(), norm="backward"):
    full = _resize(dout, axes[-1:], tuple(sizes[-1] if i == axes[-1] else d
                                          for i, d in enumerate(dout.shape)))
    g = FT.FFTN(full, sizes=sizes, axes=axes, norm=_DUAL[norm], inverse=True)
    return (_to_input(_resize(g, axes, tuple(x.shape)), x),)


@bprop("IRFFTN")
def _irfftn(x, out, dout, sizes=(), axes=(), norm="backward"):
    n = sizes[-1]
    weight = np.full(n // 2 + 1, 2.0)
    weight[0] = 1.0
    if n % 2 == 0:
        weight[-1] = 1.0
    shape = [1] * dout.ndim
    shape[axes[-1]] = weight.size
    g = FT.RFFTN(dout, sizes=sizes, axes=axes, norm=_DUAL[norm])
    g = F.mul(g, Tensor(weight.reshape(shape).astype(g.dtype.np_dtype)))
    return (_to_input(_resize(g, axes, tuple(x.shape)), x),)


def _shifted(opdef):
    """The batch axis first; the transform axes move up by one."""
    def rule(x, *, dims, axes=(), **attrs):
        out = opdef(to_front(x, dims[0]), axes=tuple(a + 1 for a in axes), **attrs)
        return out, 0
    rule.__name__ = f"vmap_{opdef.name}"
    return rule


for _op in (FT.FFTN, FT.RFFTN, FT.IRFFTN):
    _op.def_vmap(_shifted(_op))
del _op
