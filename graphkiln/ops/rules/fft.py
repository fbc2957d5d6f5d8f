"""Backward and batching rules of ``FFTN``, ``RFFTN``, ``IRFFTN``, ``DCTN`` and ``FFTAdjoint``
(:mod:`..defs.fft`).

Each transform is linear, so its backward is its adjoint, ``FFTAdjoint`` (a NumPy kernel,
for lengths and axes given as attributes or as run-time inputs alike); the adjoint's own
backward is the transform again. The batch axis goes first and ``batch_dims`` grows by
one, so axes given as run-time values need no arithmetic."""
from __future__ import annotations

from ...ir.primitive import REGISTRY
from ..defs import fft as FT
from .batching import batched, front, to_front
from .bprop import bprop


def _transform_bprop(kind: str):
    def rule(x, *rest, **attrs):
        """``rest``: the run-time ``s`` and ``dim`` (if given), ``out``, ``dout``."""
        inputs, dout = rest[:-2], rest[-1]
        gx = FT.FFTAdjoint(dout, x, *inputs, kind=kind, **attrs)
        return (gx,) + (None,) * len(inputs)
    rule.__name__ = f"bprop_{kind}"
    return rule


for _kind in ("FFTN", "RFFTN", "IRFFTN", "DCTN"):
    bprop(_kind)(_transform_bprop(_kind))


@bprop("FFTAdjoint")
def _adjoint(dout, x, *rest, kind="FFTN", **attrs):
    """The adjoint of the adjoint: the transform of the cotangent (``x`` gives only its
    shape, so it has none)."""
    inputs, ddx = rest[:-2], rest[-1]
    return (REGISTRY[kind](ddx, *inputs, **attrs), None) + (None,) * len(inputs)


def _same_lengths(name: str, dims) -> None:
    if any(batched(d) for d in dims):
        raise ValueError(f"For '{name}' under vmap, 's' and 'dim' must be the same for "
                         f"every example, but they are batched.")


def _shifted(opdef):
    """The batch axis first and one more leading axis that ``axes`` do not count."""
    def rule(x, *inputs, dims, batch_dims=0, **attrs):
        _same_lengths(opdef.name, dims[1:])
        out = opdef(to_front(x, dims[0]), *inputs, batch_dims=batch_dims + 1, **attrs)
        return out, 0
    rule.__name__ = f"vmap_{opdef.name}"
    return rule


for _op in (FT.FFTN, FT.RFFTN, FT.IRFFTN, FT.DCTN):
    _op.def_vmap(_shifted(_op))
del _op


@FT.FFTAdjoint.def_vmap
def _vmap_adjoint(dout, x, *inputs, dims, batch_dims=0, **attrs):
    _same_lengths("FFTAdjoint", dims[2:])
    size = (dout.shape[dims[0]] if batched(dims[0]) else x.shape[dims[1]])
    out = FT.FFTAdjoint(front(dout, dims[0], size), front(x, dims[1], size), *inputs,
                        batch_dims=batch_dims + 1, **attrs)
    return out, 0
