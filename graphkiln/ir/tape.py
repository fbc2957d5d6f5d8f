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
import threading
import weakref
from collections.abc import Callable

from ..common.nesting import Nesting
from ..common.tensor import Tensor

# the tapes recording now (of every thread), innermost last; ``apply`` tests this list
# before anything else, and each tape records only the steps of the thread it runs in
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

    def __init__(self, weights: tuple = (), collect: bool = False):
        self.entries: list[Entry] = []
        self.tracked: set[int] = set()
        self.weights = tuple(weights)  # Parameters differentiated (compiled calls read them)
        # ``collect``: every Parameter (requires_grad) a step reads is differentiated too;
        # ``found`` lists them in order of first use (PyNative GradOperation, no weights)
        self.collect = collect
        self.found: list[Tensor] = []
        self.renamed: dict[int, Tensor] = {}  # an input written in place -> its old value
        self.outputs: set[int] = set()  # ids of the Tensors recorded steps gave
        self.thread = threading.get_ident()
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

    def meet(self, x) -> None:
        """With ``collect``: track the Parameters in ``x`` (any argument structure) that
        require a gradient, noting each the first time."""
        if isinstance(x, Tensor):
            if x._is_param and x.requires_grad and id(x) not in self.tracked:
                self.tracked.add(id(x))
                self.found.append(x)
        elif isinstance(x, (tuple, list)):
            for e in x:
                self.meet(e)
        elif isinstance(x, dict):
            self.meet(tuple(x.values()))

    def depends(self, x) -> bool:
        """Whether ``x`` (any argument structure) holds a tracked Tensor."""
        if self.collect:
            self.meet(x)
        if isinstance(x, Tensor):
            return id(x) in self.tracked
        if isinstance(x, (tuple, list)):
            tracked = self.tracked
            for e in x:
                if id(e) in tracked or (not isinstance(e, Tensor) and self.depends(e)):
                    return True
        elif isinstance(x, dict):
            return self.depends(tuple(x.values()))
        return False

    def produced(self, x) -> bool:
        """Whether a recorded step gave ``x`` (else a tracked ``x`` is an input)."""
        return id(x) in self.outputs

    def add(self, op, inputs: tuple, out, attrs: dict) -> None:
        self.entries.append(Entry(op, inputs, out, attrs))
        self.track(out)
        if isinstance(out, Tensor):
            self.outputs.add(id(out))
        elif isinstance(out, (tuple, list)):
            self.outputs.update(id(o) for o in out if isinstance(o, Tensor))


_grad_state = threading.local()


def grad_enabled() -> bool:
    """False inside ``mindspore._no_grad()`` (this thread): nothing is recorded and no
    PyNative gradient may start."""
    return getattr(_grad_state, "enabled", True)


def set_grad_enabled(flag: bool) -> None:
    _grad_state.enabled = bool(flag)


def record(op, inputs: tuple, out, attrs: dict, differentiable: bool = True) -> None:
    """Record ``op(*inputs) -> out`` on every active tape that tracks one of ``inputs``
    (an op without gradient is not recorded: its outputs depend on nothing)."""
    if not differentiable or not grad_enabled():
        return
    me = threading.get_ident()
    for t in ACTIVE:
        if t.thread == me and t.depends(inputs):
            t.add(op, inputs, out, attrs)


def mine() -> list[Tape]:
    """The active tapes of this thread (none while gradients are disabled)."""
    if not grad_enabled():
        return []
    me = threading.get_ident()
    return [t for t in ACTIVE if t.thread == me]


def recording_any(inputs) -> bool:
    """Whether an active tape tracks one of ``inputs`` or differentiates weights (which a
    compiled call may read)."""
    return any(t.weights or t.collect or t.depends(inputs) for t in mine())


@contextlib.contextmanager
def recording(tape: Tape):
    """Record on ``tape`` (innermost) inside the block."""
    ACTIVE.append(tape)
    try:
        yield tape
    finally:
        ACTIVE.remove(tape)


_BACKWARD = Nesting()


def running_backward():
    """Mark the block as the backward walk of a PyNative gradient (rules may follow
    MindSpore's PyNative conventions there, such as a lone gradient for one input)."""
    return _BACKWARD.block()


def in_backward() -> bool:
    """Whether this thread runs the backward walk of a PyNative gradient now."""
    return _BACKWARD.active()


@contextlib.contextmanager
def paused():
    """Record nothing inside the block (a step recorded as one entry runs its body)."""
    saved = mine()
    for t in saved:
        ACTIVE.remove(t)
    try:
        yield
    finally:
        ACTIVE.extend(saved)


def _replace(x, old, new):
    """``x`` (an argument structure) with the Tensor ``old`` replaced by ``new``."""
    if x is old:
        return new
    if isinstance(x, (tuple, list)) and any(e is old or isinstance(e, (tuple, list))
                                            for e in x):
        return type(x)(_replace(e, old, new) for e in x)
    return x


def _retarget(t: Tape, old: Tensor, new: Tensor) -> bool:
    """Make ``t``'s entries refer to ``new`` where they refer to ``old``; whether any did."""
    found = False
    for e in t.entries:
        ins, out = _replace(e.inputs, old, new), _replace(e.out, old, new)
        if ins is not e.inputs or out is not e.out:
            e.inputs, e.out, found = ins, out, True
    return found


def before_write(x: Tensor) -> None:
    """``x`` (a weight) is about to be written in place: the steps recorded so far read a
    copy of its value now, whose cotangent flows to ``x`` (a weight's reads before and
    after a write all count, as in a graph)."""
    for t in mine():
        copy = Tensor._from_array(x._data.copy(), x._dtype)
        if _retarget(t, x, copy) and id(x) in t.tracked:
            t.tracked.add(id(copy))
            t.entries.insert(0, Entry(pass_through, (x,), copy, {}))


def before_writes(args: tuple, ref_inputs: tuple) -> list:
    """Before an op writes its ``ref_inputs`` in place: a weight's recorded readers keep
    its value now (:func:`before_write`); a plain Tensor's old value is kept to be
    :func:`rebind`-ed to after the op (it then stands for the op's result, as in a graph).
    Returns ``[(tensor, its old value)]`` for :func:`after_writes`."""
    plain = []
    for i in ref_inputs:
        x = args[i] if i < len(args) else None
        if isinstance(x, Tensor):
            if _NO_INPLACE and mine():
                _check_inplace(x)
            if x._is_param:
                before_write(x)
            else:
                plain.append((x, Tensor._from_array(x._data.copy(), x._dtype)))
    return plain


def after_writes(written: list, result) -> None:
    """The written plain Tensors now stand for the op's ``result``."""
    for x, before in written:
        rebind(x, result, before)


def rebind(x: Tensor, result: Tensor, before) -> None:
    """``x`` now holds ``result`` (``x[i] = v`` in place): the steps recorded so far refer to
    ``before`` (``x``'s previous value); later ones see ``x`` as the step's result (a
    step passes ``x``'s cotangent on to ``result``)."""
    for t in mine():
        if _forget(t, x, before) and not any(e.out is before for e in t.entries):
            t.renamed[id(x)] = before  # an input: its gradient is that of the value it had
        if id(result) in t.tracked:
            t.add(pass_through, (result,), x, {})


def _forget(t: Tape, x: Tensor, before) -> bool:
    """``t``'s steps so far refer to ``before`` where they referred to ``x``, which ``t``
    no longer tracks; whether ``x`` was tracked."""
    tracked = _retarget(t, x, before) and id(x) in t.tracked
    if tracked:
        t.tracked.add(id(before))
    t.tracked.discard(id(x))
    return tracked


def forget_value(x: Tensor, before) -> None:
    """``x`` was written in place outside the tapes' view: the steps recorded so far refer
    to ``before`` (its previous value); the next step recorded may give ``x`` anew."""
    for t in mine():
        _forget(t, x, before)


# Tensor id -> (a weak reference to it, the message of the RuntimeError an in-place write
# of it raises while a gradient records): outputs of custom functions that are views
_NO_INPLACE: dict[int, tuple] = {}


def guard_inplace(x: Tensor, message: str) -> None:
    """Refuse in-place writes of ``x`` while a gradient records (with ``message``)."""
    _NO_INPLACE[id(x)] = (weakref.ref(x, lambda _, k=id(x): _NO_INPLACE.pop(k, None)),
                          message)


def _check_inplace(x: Tensor) -> None:
    entry = _NO_INPLACE.get(id(x))
    if entry is not None and entry[0]() is x:
        raise RuntimeError(entry[1])


def pass_through(x, out, dout):
    return (dout,)


# Tensor id -> (a weak reference to the Tensor, its Tensor.register_hook functions): a hook
# stays on its Tensor object, as in MindSpore's PyNative mode
_HOOKS: dict[int, tuple] = {}


def _hook_list(x: Tensor) -> list:
    entry = _HOOKS.get(id(x))
    if entry is None or entry[0]() is not x:
        key = id(x)
        entry = _HOOKS[key] = (weakref.ref(x, lambda _, k=key: _HOOKS.pop(k, None)), [])
    return entry[1]


def add_tensor_hook(x: Tensor, hook: Callable) -> None:
    """Call ``hook`` on ``x``'s gradient whenever a PyNative gradient computes it."""
    _hook_list(x).append(hook)
    hooks_changed()


# bumped when a hook is added or removed: graphs that apply hooks of Tensors given outside
# them (a weight's, a graph input's) are compiled again (MindSpore recompiles too)
_EPOCH = [0]


def hooks_changed() -> None:
    _EPOCH[0] += 1


def hook_epoch() -> int:
    return _EPOCH[0]


def live_hooks(x: Tensor) -> tuple:
    """The hook functions of ``x`` (registered outside any graph) not removed, in order."""
    if not _HOOKS:
        return ()
    fns = (getattr(h, "hook_fn", h) for h in tensor_hooks(x))
    return tuple(fn for fn in fns if fn is not None)


# FuncGraph -> {id(input node): hook functions}: the hooks a compiled graph's Tensor input
# had outside it; a gradient the graph takes with respect to that input runs them
_INPUT_HOOKS: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def note_input_hooks(node, hooks: tuple) -> None:
    """Record that the graph input ``node`` (an ir Parameter) stands for a Tensor with
    ``hooks``."""
    _INPUT_HOOKS.setdefault(node.graph, {})[id(node)] = hooks


def input_hooks(node) -> tuple:
    """The hooks recorded for the graph input ``node`` (none for any other node)."""
    graph = getattr(node, "graph", None)
    table = _INPUT_HOOKS.get(graph) if graph is not None else None
    return table.get(id(node), ()) if table else ()


def share_hooks(alias: Tensor, x: Tensor) -> None:
    """Hooks registered on ``alias`` (a gradient's copy of the input ``x``) or on ``x`` are
    the same."""
    hooks = _hook_list(x)
    _HOOKS[id(alias)] = (weakref.ref(alias, lambda _, k=id(alias): _HOOKS.pop(k, None)),
                         hooks)


def any_hooks() -> bool:
    """Whether some live Tensor has a hook (not removed)."""
    return any(getattr(h, "hook_fn", h) is not None
               for entry in _HOOKS.values() for h in entry[1])


def tensor_hooks(x: Tensor) -> list | tuple:
    """The hooks registered on ``x``."""
    entry = _HOOKS.get(id(x))
    return entry[1] if entry is not None and entry[0]() is x else ()
