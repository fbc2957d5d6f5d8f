"""Rules of the ``Custom`` primitive: its backward rule applies the user's ``bprop``
(``bprop(*inputs, out, dout) -> one gradient per input``, traced like any code, so it may
use graphkiln ops and other Custom ops); its batching rule applies the op to each example
and stacks the results (the user's function is written for one example).
"""
from __future__ import annotations

import numpy as np

import graphkiln.ops.functional as F

from ...common.tensor import Tensor
from ...ir import tape
from ...ir.primitive import REGISTRY, Primitive
from ..defs import array as A
from ..defs.custom import func_name
from .batching import batch_size, rule_for, to_front
from .bprop import bprop, sum_to


def fit_gradient(g: Tensor, x: Tensor, where: str) -> Tensor:
    """A user bprop's gradient ``g`` as the gradient of ``x``: its dtype, and its shape by
    reducing or broadcasting, as MindSpore does; an incompatible shape is an error naming
    ``where`` it came from."""
    if g.shape != x.shape:
        try:
            common = tuple(np.broadcast_shapes(g.shape, x.shape))
        except ValueError:
            common = None
        if common == tuple(g.shape):
            return sum_to(g, x)
        if common != tuple(x.shape):
            raise RuntimeError(f"For grad interface or custom function, grad tensor should be "
                               f"broadcast to expected shape, but got {list(g.shape)} vs "
                               f"{list(x.shape)} ({where} returned a gradient of the wrong "
                               f"shape).")
        g = F.broadcast_to(g, x.shape)
    return g if g.dtype is x.dtype else F.cast(g, x.dtype)


@bprop("Custom")
def _custom_bprop(*inputs_out_dout, func=None, bprop=None, **attrs):
    """The user's ``bprop`` on the op's inputs, output and output cotangent."""
    *inputs, out, dout = inputs_out_dout
    name = func_name(func)
    if bprop is None:
        raise RuntimeError(f"Illegal primitive: Primitive Custom's bprop not defined (the "
                           f"Custom op of '{name}' has no 'bprop'; pass bprop=fn(*inputs, "
                           f"out, dout) returning one gradient per input to differentiate "
                           f"through it).")
    where = f"the 'bprop' of Custom op '{name}'"
    grads = bprop(*inputs, out, dout)
    if not isinstance(grads, (tuple, list)):
        if not (len(inputs) == 1 and tape.in_backward()):
            raise RuntimeError(f"For 'Custom', {where} must return a tuple with one gradient "
                               f"per input, but got {type(grads).__name__} (e.g. 'return "
                               f"(dx,)').")
        grads = (grads,)
    if len(grads) < len(inputs):
        raise RuntimeError(f"For 'Custom', {where} returned {len(grads)} gradients, but the "
                           f"op has {len(inputs)} inputs.")
    return tuple(fit_gradient(g, x, where) if isinstance(g, Tensor) and isinstance(x, Tensor)
                 else None for x, g in zip(inputs, grads))


@rule_for("Custom")
def _custom_vmap(*args, dims, **attrs):
    """One call per example, stacked on axis 0."""
    size = batch_size(args, dims)
    fronts = [to_front(x, d) for x, d in zip(args, dims)]
    op = Primitive(REGISTRY["Custom"], attrs)
    results = [op(*[x[i] if d is not None else x for x, d in zip(fronts, dims)])
               for i in range(size)]
    if isinstance(results[0], tuple):
        outs = tuple(A.Stack(tuple(r[k] for r in results), axis=0)
                     for k in range(len(results[0])))
        return outs, (0,) * len(outs)
    return A.Stack(tuple(results), axis=0), 0

