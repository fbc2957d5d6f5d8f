"""Backward and batching rules of ``FFTShift``/``IFFTShift`` (:mod:`..defs.fft_shift`): each
is the other's transpose; under vmap the shifted dimensions move past the batch axis."""
from __future__ import annotations

from ...common.symbolic_scalar import SymbolicScalar
from ..defs import fft_shift as FS
from .batching import rule_for, to_front
from .batching_nn import per_example
from .bprop import bprop

_INVERSE = {"FFTShift": FS.IFFTShift, "IFFTShift": FS.FFTShift}


def _rules(op) -> None:
    @bprop(op.name)
    def backward(*args):
        (_, *dim), dout = args[:-2], args[-1]  # (``dim`` may be left out)
        return (_INVERSE[op.name](dout, *dim), *([None] * len(dim)))

    @rule_for(op.name)
    def batch(input, dim=None, *, dims):  # noqa: A002
        flat = dim if isinstance(dim, (tuple, list)) else (dim,)
        if dims[1:] and dims[1] is not None or any(type(d) is SymbolicScalar for d in flat):
            return per_example(op, (input, dim), dims, {})
        rank = input.ndim - 1
        shifted = tuple(range(1, rank + 1)) if dim is None else tuple(
            int(d) % rank + 1 for d in flat)
        return op(to_front(input, dims[0]), shifted), 0


_rules(FS.FFTShift)
_rules(FS.IFFTShift)
