"""Tensor methods that write the Tensor in place (``x.add_(y)``, ``x.fill_(0)``...).

Each computes the new value with ordinary ops and writes it with ``InplaceCopy`` (cast to
the Tensor's dtype; gradients flow to the value), then returns the Tensor itself. Eagerly
that writes the Tensor's data; in a graph it is an in-place write like ``ops.assign``: a
graph input is written in the caller's Tensor, a Parameter is a weight write, and a Tensor
written inside a tensor ``if`` or loop leaves it with the new value (``frontend/builder.py``).
"""
from __future__ import annotations

import graphkiln.ops.functional as F

from ..common import dtype as mstype
from ..common.capture_flags import refuse
from ..common.tensor import Tensor
from ..ir import tape
from ..ir import tracing_state as state
from .clip_ops import clamp
from .defs.side_effects import InplaceCopy
from .primitive import REGISTRY


def _write(self: Tensor, value) -> Tensor:
    """Write ``value`` (broadcast and cast to ``self``) into ``self``; return ``self``."""
    if not isinstance(value, Tensor):
        value = Tensor(value, self.dtype)
    if value.dtype != self.dtype:
        value = F.cast(value, self.dtype)
    if tuple(value.shape) != tuple(self.shape):
        value = F.broadcast_to(value, self.shape)
    InplaceCopy(self, value)
    return self


def _scaled(other, alpha):
    return other if alpha == 1 else F.mul(other, alpha)


def add_(self, other, *, alpha=1):
    """``self += alpha * other`` in place."""
    return _write(self, F.add(self, _scaled(other, alpha)))


def sub_(self, other, *, alpha=1):
    """``self -= alpha * other`` in place."""
    return _write(self, F.sub(self, _scaled(other, alpha)))


def mul_(self, other):
    return _write(self, F.mul(self, other))


def div_(self, other, *, rounding_mode=None):
    return _write(self, F.div(self, other, rounding_mode=rounding_mode))


def floor_divide_(self, other):
    return _write(self, F.floor_divide(self, other))


def copy_(self, src, non_blocking=False):
    """Copy ``src`` (broadcast to this shape) into this Tensor."""
    return _write(self, src)


def assign_value(self, value: Tensor) -> Tensor:
    """Make this Tensor hold ``value``'s data, shape and dtype (the two then share storage,
    as in MindSpore); returns this Tensor. PyNative only: a graph refuses it and a bytecode
    capture breaks there. Gradients flow to ``value`` (a weight keeps its own)."""
    if state.current() is not None:
        refuse("Tensor.assign_value replaces a Tensor's storage")
        raise RuntimeError("Failed to compile in GRAPH_MODE because the 'Tensor' object's "
                           "method 'assign_value' is not supported in 'construct' or function "
                           "with @jit decorator. Try to use the 'Tensor.assign_value' "
                           "externally such as initialized in the method '__init__' before "
                           "assigning.")
    if not isinstance(value, Tensor):
        raise TypeError(f"For 'Tensor.assign_value', the 'value' must be a Tensor, but got "
                        f"{type(value).__name__}.")
    data = value._data
    if tape.ACTIVE:  # a PyNative gradient: the steps recorded so far keep the old value
        if self._is_param:
            tape.before_write(self)
        else:
            tape.rebind(self, value, Tensor._from_array(self._data, self._dtype))
    if self.has_init:
        self._pending_init = None
    self._data, self._dtype, self._abs = data, value._dtype, None
    for slot in ("_numpy_backed", "_view"):  # the layout and NumPy sharing are value's
        if hasattr(value, slot):
            setattr(self, slot, getattr(value, slot))
        elif hasattr(self, slot):
            delattr(self, slot)
    return self


def fill_(self, value):
    return _write(self, value)


def zero_(self):
    return _write(self, F.zeros_like(self))


def masked_fill_(self, mask, value):
    """Set the elements where ``mask`` is True to ``value``."""
    if not isinstance(mask, Tensor) or mask.dtype != mstype.bool_:
        raise TypeError(f"For 'masked_fill_', the 'mask' must be a bool Tensor, but got "
                        f"{type(mask).__name__ if not isinstance(mask, Tensor) else mask.dtype}.")
    value = value if isinstance(value, Tensor) else Tensor(value, self.dtype)
    fill = F.broadcast_to(F.cast(value, self.dtype), self.shape)
    return _write(self, F.select(F.broadcast_to(mask, self.shape), fill, self))


def index_add_(self, dim, index, source, *, alpha=1):
    """``self[..., index[i], ...] += alpha * source[..., i, ...]`` along ``dim``."""
    source = F.cast(_scaled(source, alpha), self.dtype)
    REGISTRY["InplaceIndexAdd"](self, index, source, axis=dim)
    return self


def clamp_(self, min=None, max=None):
    return _write(self, clamp(self, min, max))


class InplaceAddExt:
    """MindSpore's primitive ``InplaceAddExt()(input, other, alpha=1)``: ``add_``."""

    def __call__(self, input, other, alpha=1):
        return add_(input, other, alpha=alpha)


class InplaceSubExt:
    """MindSpore's primitive ``InplaceSubExt()(input, other, alpha=1)``: ``sub_``."""

    def __call__(self, input, other, alpha=1):
        return sub_(input, other, alpha=alpha)


def _unary(fn):
    return lambda self: _write(self, fn(self))


def install() -> None:
    """Attach the in-place methods to :class:`Tensor`."""
    for fn in (add_, sub_, mul_, div_, floor_divide_, copy_, assign_value, fill_, zero_,
               masked_fill_, index_add_, clamp_):
        setattr(Tensor, fn.__name__, fn)
    Tensor.clip_ = clamp_
    for name in ("exp", "log", "tanh", "floor", "sigmoid", "neg", "abs", "sqrt"):
        setattr(Tensor, f"{name}_", _unary(getattr(F, name)))


install()
