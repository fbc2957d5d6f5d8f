"""Backward hooks: ``HookBackward(*xs, hook_fn=...)`` passes its inputs through unchanged;
its backward rule (rules/bprop.py) hands the gradients of its outputs to ``hook_fn`` when
the backward graph runs, through ``RunBackwardHook``, an IO-effect op that calls
``hook_fn(grads)`` on the run-time gradients (a tuple of Tensors) and gives what it
returns (a Tensor or tuple of Tensors replacing them) or, when it returns None, the
gradients themselves. ``ops.HookBackward(hook_fn)`` is MindSpore's user-facing primitive;
``Tensor.register_hook`` and the backward hooks of cells use the same op."""
from __future__ import annotations

import numpy as np

from ...common.tensor import Tensor
from ...ir.abstract import AbstractTuple
from ...ir.primitive import IO_EFFECT, OpDef
from ._infer import tensor_type


def _passed_through(name: str, xs: tuple):
    if not xs:
        raise ValueError(f"For '{name}', at least one Tensor input is required.")
    for i, x in enumerate(xs):
        tensor_type(name, f"input {i}", x)
    return xs[0] if len(xs) == 1 else AbstractTuple(list(xs))


def _hook_backward_infer(*xs, hook_fn=None, cell_id=""):
    if not callable(hook_fn):
        raise TypeError(f"For 'HookBackward', the 'hook_fn' must be a Python function, but "
                        f"got {type(hook_fn).__name__}.")
    return _passed_through("HookBackward", xs)


def _hook_backward(*xs, hook_fn=None, cell_id=""):
    return xs[0] if len(xs) == 1 else tuple(xs)


HookBackward = OpDef("HookBackward", _hook_backward_infer, _hook_backward,
                     attrs={"hook_fn": None, "cell_id": ""})


def _run_hook_infer(*grads, hook_fn):
    return _passed_through("HookBackward", grads)


def _run_hook(*grads, hook_fn):
    result = hook_fn(tuple(Tensor._from_array(g) for g in grads))
    if result is None:
        return grads[0] if len(grads) == 1 else tuple(grads)
    new = result if isinstance(result, (tuple, list)) else (result,)
    if len(new) != len(grads):
        raise TypeError(f"The backward hook function should return None or {len(grads)} "
                        f"gradient(s), one per input gradient, but it returned {len(new)}.")
    out = []
    for g, r in zip(grads, new):
        arr = np.asarray(r.asnumpy() if isinstance(r, Tensor) else r, dtype=g.dtype)
        if arr.shape != g.shape:
            raise ValueError(f"The backward hook function returned a gradient of shape "
                             f"{list(arr.shape)}, but the gradient it replaces has shape "
                             f"{list(g.shape)}.")
        out.append(arr)
    return out[0] if len(out) == 1 else tuple(out)


RunBackwardHook = OpDef("RunBackwardHook", _run_hook_infer, _run_hook, effect=IO_EFFECT,
                        differentiable=False)
