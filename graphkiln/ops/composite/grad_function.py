"""``mindspore._Function``: a custom autograd function in PyNative mode.

A subclass defines ``forward(ctx, *args)`` and ``backward(ctx, *grads)`` (static methods);
``Sub.apply(*args)`` runs ``forward`` unrecorded and, while a PyNative gradient records,
puts one step on its tape whose backward pass is ``backward``. ``ctx`` (an instance of the
subclass) carries ``save_for_backward``/``saved_tensors``, any attribute the user sets,
``needs_input_grad``, ``mark_dirty`` (inputs written in place, returned as outputs),
``mark_non_differentiable`` and ``set_materialize_grads``. The gradients ``backward``
returns are checked, summed to each input's shape and cast to its dtype, as MindSpore's
PyNative does (its messages).
"""
from __future__ import annotations

import inspect
from typing import Any

import numpy as np

import graphkiln.ops.functional as F

from ...common.tensor import Tensor
from ...ir import tape as tp
from ...ir import tracing_state as state
from ..rules.bprop import sum_to


class Function:
    """Base class of a custom autograd function (PyNative mode only); MindSpore names it
    ``_Function``."""

    _has_setup_context = False

    @staticmethod
    def forward(ctx: Any, *args: Any, **kwargs: Any) -> Any:
        raise NotImplementedError("forward function should be customized.")

    @staticmethod
    def backward(ctx: Any, *grad_outputs: Any) -> Any:
        raise NotImplementedError("backward function should be customized.")

    @staticmethod
    def setup_context(ctx: Any, inputs: tuple, output: Any) -> Any:
        """Save context information needed for the backward pass."""
        raise NotImplementedError("setup_context is not implemented.")

    def save_for_backward(self, *tensors: Tensor) -> None:
        """Keep ``tensors`` (each a Tensor or None) as ``ctx.saved_tensors``."""
        if any(t is not None and not isinstance(t, Tensor) for t in tensors):
            raise RuntimeError("Please check your custom function, that save_for_backward() "
                               "only support None and tensor, but got other type!")
        self.saved_tensors = tensors

    def mark_dirty(self, *args: Tensor) -> None:
        """The inputs ``forward`` wrote in place (each must be returned as an output)."""
        self.dirty_tensors = args

    def mark_non_differentiable(self, *args: Tensor) -> None:
        """Outputs through which no gradient flows."""
        self.non_differentiable = args

    def set_materialize_grads(self, value: bool) -> None:
        """Whether outputs that got no gradient reach ``backward`` as zeros (the default)
        or as None."""
        self.materialize_grads = bool(value)

    @classmethod
    def apply(cls, *args):
        """Run ``forward`` on ``args``; gradients through the result use ``backward``."""
        if state.current() is not None:
            raise RuntimeError(f"The custom function '{cls.__name__}' is only supported in "
                               f"PyNative mode, not inside a graph.")
        ctx = cls()
        cls._has_setup_context = cls.setup_context is not Function.setup_context
        if cls._has_setup_context:  # forward takes no ctx; its defaults count
            bound = inspect.signature(cls.forward).bind(*args)
            bound.apply_defaults()
            args = bound.args
        tapes = tp.mine()
        ctx.needs_input_grad = tuple(isinstance(a, Tensor) and any(t.depends(a) for t in tapes)
                                     for a in args)
        # a differentiated input that is not a leaf keeps its value (forward may write it)
        kept = {id(a): Tensor._from_array(a._data.copy(), a._dtype)
                for a, need in zip(args, ctx.needs_input_grad) if need and not _is_leaf(a)}
        with tp.paused():
            if cls._has_setup_context:
                out = cls.forward(*args)
                cls.setup_context(ctx, args, out)
            else:
                out = cls.forward(ctx, *args)
        single = not isinstance(out, tuple)
        outs = (out,) if single else out
        dirty = getattr(ctx, "dirty_tensors", ())
        if any(all(d is not o for o in outs) for d in dirty):
            raise RuntimeError("The dirty tensors must all be outputs of the forward function.")
        frozen = getattr(ctx, "non_differentiable", ())
        live = tuple(isinstance(o, Tensor) and all(o is not f for f in frozen) for o in outs)
        outs = tuple(_output(o, args, dirty, single) for o in outs)
        if not any(ctx.needs_input_grad):
            return outs[0] if single else outs
        for d in dirty:
            if _is_leaf(d):
                raise RuntimeError("A leaf tensor that need grad is being used in an inplace "
                                   "operator.")
            if id(d) in kept:
                tp.forget_value(d, kept[id(d)])
        inputs = tuple(kept.get(id(a), a) if any(a is d for d in dirty) else a for a in args)
        diff = tuple(o for o, keep in zip(outs, live) if keep)

        def backward(*ins_out_dout):
            douts = ins_out_dout[-1]
            return _backward(cls, ctx, args, outs, diff, douts)
        backward.keeps_none = True  # outputs that got no gradient stay None
        tp.record(backward, inputs, diff, {})
        return outs[0] if single else outs


def _is_leaf(x) -> bool:
    """Whether an active tape differentiates ``x`` as an input (no step produced it)."""
    return isinstance(x, Tensor) and any(id(x) in t.tracked and not t.produced(x)
                                         for t in tp.mine())


def _output(o, args: tuple, dirty: tuple, single: bool):
    """An output of ``forward``: an input returned as it is comes out as a new Tensor (a
    view of it), unless it was written in place (``mark_dirty``)."""
    if not isinstance(o, Tensor):
        return o
    if any(o is d for d in dirty):
        if not single and o._data.base is not None:
            raise RuntimeError("A view is one of output for multi output operator, which is "
                               "forbidden. You can use out-of-place op to repalce.")
        return o
    given = any(o is a for a in args)
    if given:
        o = Tensor._from_array(o._data, o._dtype)
    if given or o._data.base is not None:
        tp.guard_inplace(o, "This view tensor is output of custom cell, which has custom "
                         "bprop, it may not support view+inplace, you can use out-of-place "
                         "op to replace." if single else
                         "A view of base is being inplace modified, which is output of "
                         "multi output operator, you can use out-of-place op to replace.")
    return o


def _backward(cls, ctx, args: tuple, outs: tuple, diff: tuple, douts) -> tuple:
    """``cls.backward`` on the outputs' gradients (None for a non-Tensor or
    non-differentiable output; zeros for one that got none, unless materializing is off),
    checked and fitted to the inputs."""
    douts = (douts,) if isinstance(douts, Tensor) or douts is None else tuple(douts)
    by_id = {id(o): g for o, g in zip(diff, douts)}
    materialize = getattr(ctx, "materialize_grads", True)
    grads = []
    for o in outs:
        g = by_id.get(id(o)) if isinstance(o, Tensor) else None
        if g is None and materialize and id(o) in by_id:
            g = F.zeros_like(o)
        grads.append(g)
    got = cls.backward(ctx, *grads)
    got = got if isinstance(got, tuple) else (got,)
    if len(got) != len(args):
        raise RuntimeError(f"Function backward return a wrong number of gradients, expect: "
                           f"{len(args)}but: {len(got)}")
    return tuple(_fit(g, a, i) for i, (g, a) in enumerate(zip(got, args)))


def _fit(g, x, position: int):
    """``g``, the gradient ``backward`` gave input ``x``, summed to its shape and cast to
    its dtype."""
    if g is None:
        return None
    if not isinstance(x, Tensor):
        raise RuntimeError(f"Input is not tensor, but gradient is not none, position: "
                           f"{position} type: {type(x)}")
    if not isinstance(g, Tensor):
        raise RuntimeError(f"Gradient should be none or tensor, position: {position} type: "
                           f"{type(g)}")
    want, have = tuple(x.shape), tuple(g.shape)
    if have != want:
        try:
            ok = np.broadcast_shapes(want, have) == have
        except ValueError:
            ok = False
        if not ok:
            raise RuntimeError(f"For grad interface or custom function, grad tensor should be "
                               f"broadcast to expected shape, but got {_shape(have)} vs "
                               f"{_shape(want)}")
    return sum_to(g, x)


def _shape(shape: tuple) -> str:
    return "[const vector]{" + ", ".join(map(str, shape)) + "}"  # MindSpore's format


__all__ = ["Function"]
