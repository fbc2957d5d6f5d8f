"""``mindspore.numpy.fft``: NumPy's FFT names and argument names (``a``, ``n``/``s``,
``axis``/``axes``, ``norm``) over ``ops``' transforms."""
from __future__ import annotations

import graphkiln.ops as ops

__all__ = ["fft", "ifft", "fft2", "ifft2", "fftn", "ifftn", "rfft", "irfft", "rfft2",
           "irfft2", "rfftn", "irfftn", "hfft", "ihfft", "hfft2", "ihfft2", "hfftn", "ihfftn",
           "fftshift", "ifftshift", "fftfreq", "rfftfreq"]


def _one_axis(op):
    def apply(a, n=None, axis=-1, norm=None):
        return op(a, n, axis, norm)
    apply.__name__ = apply.__qualname__ = op.__name__
    apply.__doc__ = f"NumPy's ``fft.{op.__name__}``: ``ops.{op.__name__}`` along ``axis``."
    return apply


def _axes(op, default):
    def apply(a, s=None, axes=default, norm=None):
        return op(a, s, axes, norm)
    apply.__name__ = apply.__qualname__ = op.__name__
    apply.__doc__ = f"NumPy's ``fft.{op.__name__}``: ``ops.{op.__name__}`` over ``axes``."
    return apply


fft, ifft, rfft, irfft, hfft, ihfft = (_one_axis(f) for f in (
    ops.fft, ops.ifft, ops.rfft, ops.irfft, ops.hfft, ops.ihfft))
fft2, ifft2, rfft2, irfft2, hfft2, ihfft2 = (_axes(f, (-2, -1)) for f in (
    ops.fft2, ops.ifft2, ops.rfft2, ops.irfft2, ops.hfft2, ops.ihfft2))
fftn, ifftn, rfftn, irfftn, hfftn, ihfftn = (_axes(f, None) for f in (
    ops.fftn, ops.ifftn, ops.rfftn, ops.irfftn, ops.hfftn, ops.ihfftn))


def fftshift(x, axes=None):
    """The zero frequency moved to the middle of ``axes`` (all when None)."""
    return ops.fftshift(x, axes)


def ifftshift(x, axes=None):
    """The inverse of ``fftshift``."""
    return ops.ifftshift(x, axes)


def fftfreq(n, d=1.0, dtype=None):
    """The sample frequencies of an ``n``-point transform with sample spacing ``d``."""
    return ops.fftfreq(n, d, dtype)


def rfftfreq(n, d=1.0, dtype=None):
    """The non-negative sample frequencies of an ``n``-point real transform."""
    return ops.rfftfreq(n, d, dtype)
