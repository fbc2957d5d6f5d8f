"""Cell hooks (``Cell.register_forward_pre_hook``, ``register_forward_hook``,
``register_backward_pre_hook``, ``register_backward_hook``) and their ``HookHandle``.

Forward hooks run as Python around the cell's call (traced into the graph like the cell's
own code when the call is traced). Backward hooks wrap the cell's Tensor inputs and
outputs in ``HookBackward`` ops, whose backward rule calls them with the run-time
gradients: ``backward_pre_hook(cell, grad_output)`` when the gradients of the outputs are
known, ``backward_hook(cell, grad_input, grad_output)`` when those of the inputs are. A
hook returning a value replaces the inputs, output or gradients it was given.
"""
from __future__ import annotations

import functools
import itertools

from ..common.tensor import Tensor
from ..compile.api import JitFunction
from ..compile.cell_state import note_cell_write
from ..frontend.control import call_user
from ..ir import tracing_state as state
from ..ops.primitive import REGISTRY

HOOKS_ATTR = "_gk_hooks"  # in the cell's __dict__: a tuple of (kind, key, hook function)
_KINDS = ("forward_pre", "forward", "backward_pre", "backward")
_keys = itertools.count()


class HookHandle:
    """What registering a hook returns: ``remove()`` unregisters the hook."""

    def __init__(self, cell, key: int):
        self._cell = cell
        self._key = key

    def remove(self) -> None:
        """Unregister the hook (again: nothing happens)."""
        hooks = self._cell.__dict__.get(HOOKS_ATTR, ())
        kept = tuple(h for h in hooks if h[1] != self._key)
        if kept != hooks:
            _store(self._cell, kept)


def _store(cell, hooks: tuple) -> None:
    if hooks:
        cell.__dict__[HOOKS_ATTR] = hooks
    else:
        cell.__dict__.pop(HOOKS_ATTR, None)
    note_cell_write()  # graphs traced with the old hooks are stale


def register(cell, kind: str, hook_fn) -> HookHandle:
    """Add ``hook_fn`` as a hook of ``kind`` (one of ``_KINDS``) of ``cell``."""
    if not callable(hook_fn):
        raise TypeError(f"For 'Cell.register_{kind}_hook', the type of 'hook_fn' must be "
                        f"python function, but got {type(hook_fn).__name__}.")
    if isinstance(hook_fn, JitFunction):
        raise TypeError(f"Decorating hook function {hook_fn.__name__} with '@jit' is not "
                        f"supported.")
    key = next(_keys)
    _store(cell, cell.__dict__.get(HOOKS_ATTR, ()) + ((kind, key, hook_fn),))
    return HookHandle(cell, key)


def _of(hooks: tuple, kind: str) -> list:
    return [fn for k, _, fn in hooks if k == kind]


def _call(fn, *args):
    """A forward hook: converted like the cell's own code while tracing."""
    return call_user(fn, args, {}) if state.current() is not None else fn(*args)


def _as_tuple(value) -> tuple:
    return tuple(value) if isinstance(value, (tuple, list)) else (value,)


def _hook_tensors(values: tuple, hook_fn) -> tuple:
    """``values`` with each Tensor passed through one ``HookBackward`` calling ``hook_fn``."""
    where = [i for i, v in enumerate(values) if isinstance(v, Tensor)]
    if not where:
        return values
    hooked = REGISTRY["HookBackward"](*(values[i] for i in where), hook_fn=hook_fn)
    hooked = _as_tuple(hooked) if len(where) > 1 else (hooked,)
    out = list(values)
    for i, h in zip(where, hooked):
        out[i] = h
    return tuple(out)


def _output_gradients(cell, pre_hooks: list, seen: dict, grad_output: tuple) -> tuple:
    for fn in pre_hooks:
        result = fn(cell, grad_output)
        if result is not None:
            grad_output = _as_tuple(result)
    seen["grad_output"] = grad_output
    return grad_output


def _input_gradients(cell, hooks: list, seen: dict, grad_input: tuple) -> tuple:
    for fn in hooks:
        result = fn(cell, grad_input, seen.get("grad_output", ()))
        if result is not None:
            grad_input = _as_tuple(result)
    return grad_input


def call_with_hooks(cell, args: tuple, kwargs: dict, run):
    """``run(args, kwargs)`` (the cell's call) with the cell's hooks around it."""
    hooks = cell.__dict__[HOOKS_ATTR]
    for fn in _of(hooks, "forward_pre"):
        result = _call(fn, cell, args)
        if result is not None:
            args = _as_tuple(result)
    backward, backward_pre = _of(hooks, "backward"), _of(hooks, "backward_pre")
    seen = {}  # the gradients of the outputs, for the backward hooks of this call
    if backward:
        args = _hook_tensors(args, functools.partial(_input_gradients, cell, backward, seen))
    out = run(args, kwargs)
    for fn in _of(hooks, "forward"):
        result = _call(fn, cell, args, out)
        if result is not None:
            out = result
    if backward or backward_pre:
        hooked = _hook_tensors(_as_tuple(out), functools.partial(
            _output_gradients, cell, backward_pre, seen))
        out = hooked if isinstance(out, (tuple, list)) else hooked[0]
    return out
