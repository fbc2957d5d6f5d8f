"""The tape of eager (PyNative) autodiff.

While a PyNative gradient runs its function op by op, each active :class:`Tape` records one
:class:`Entry` per primitive applied (``primitive.apply``) to a value that depends on a
differentiated input or weight, and per compiled call or custom-``bprop`` cell run on one.
``transforms/eager_autodiff.py`` walks the entries backwards. Nested gradients each have a
tape; the backward pass of an inner one runs while the outer ones still record, so the
outer tape sees the backward ops too (grad of grad).
"""
from __future__ import annotations

import contextlib
from collections.abc import Callable

from ..common.tensor import Tensor

# the tapes recording now, innermost last; ``apply`` tests this list before anything else
ACTIVE: list[Tape] = []


class Entry:
    """One recorded step: ``op`` (an OpDef, whose ``bprop`` rule applies, or a rule
    ``op(*inputs, out, dout, **attrs)``) applied to ``inputs`` gave ``out``."""

    __slots__ = ("op", "inputs", "out", "attrs")

    def __init__(self, op, inputs: tuple, out, attrs: dict):
        self.op = op
        self.inputs = inputs
        self.out = out
        self.attrs = attrs


class Tape:
    """The entries of one eager gradient and the Tensors that depend on what it
    differentiates (by identity: every tracked Tensor is held by the tape or the caller, so
    ids stay unique while it records)."""

    def __init__(self, weights: tuple = ()):
        self.entries: list[Entry] = []
        self.tracked: set[int] = set()
        self.weights = tuple(weights)  # Parameters differentiated (compiled calls read them)
        self.hooks: dict[int, list] = {}  # Tensor id -> Tensor.register_hook functions
        for w in self.weights:
            self.tracked.add(id(w))

    def track(self, x) -> None:
        """Mark ``x`` (a Tensor, or tuples/lists/dicts of them) as depending on the inputs."""
        if isinstance(x, Tensor):
            self.tracked.add(id(x))
        elif isinstance(x, (tuple, list)):
            for e in x:
                self.track(e)
        elif isinstance(x, dict):
            for e in x.values():
                self.track(e)

    def depends(self, x) -> bool:
        """Whether ``x`` (any argument structure) holds a tracked Tensor."""
        if isinstance(x, Tensor):
            return id(x) in self.tracked
        if isinstance(x, (tuple, list)):
            for e in x:
                if self.depends(e):
                    return True
        elif isinstance(x, dict):
            return self.depends(tuple(x.values()))
        return False

    def add(self, op, inputs: tuple, out, attrs: dict) -> None:
        self.entries.append(Entry(op, inputs, out, attrs))
        self.track(out)


def record(op, inputs: tuple, out, attrs: dict, differentiable: bool = True) -> None:
    """Record ``op(*inputs) -> out`` on every active tape that tracks one of ``inputs``
    (an op without gradient is not recorded: its outputs depend on nothing)."""
    if not differentiable:
        return
    for t in ACTIVE:
        if t.depends(inputs):
            t.add(op, inputs, out, attrs)


def recording_any(inputs) -> bool:
    """Whether an active tape tracks one of ``inputs`` or differentiates weights (which a
    compiled call may read)."""
    return any(t.weights or t.depends(inputs) for t in ACTIVE)


@contextlib.contextmanager
def recording(tape: Tape):
    """Record on ``tape`` (innermost) inside the block."""
    ACTIVE.append(tape)
    try:
        yield tape
    finally:
        ACTIVE.remove(tape)


@contextlib.contextmanager
def paused():
    """Record nothing inside the block (a step recorded as one entry runs its body)."""
    saved = ACTIVE[:]
    ACTIVE.clear()
    try:
        yield
    finally:
        ACTIVE[:] = saved


def add_tensor_hook(x: Tensor, hook: Callable) -> bool:
    """Register ``hook`` for ``x``'s gradient on the active tapes tracking ``x``; False
    when none does."""
    found = False
    for t in ACTIVE:
        if id(x) in t.tracked:
            t.hooks.setdefault(id(x), []).append(hook)
            found = True
    return found
