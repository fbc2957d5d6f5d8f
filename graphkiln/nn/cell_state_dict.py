"""``Cell.state_dict`` / ``load_state_dict``: a cell's parameters and persistent buffers by
dotted name, and the four hooks around taking and loading them (MindSpore 2.x's API)."""
from __future__ import annotations

import itertools
from collections import OrderedDict, namedtuple

from ..common.parameter import Parameter
from ..common.tensor import Tensor

IncompatibleKeys = namedtuple("IncompatibleKeys", ["missing_keys", "unexpected_keys"])
_HOOK_IDS = itertools.count()
_KINDS = ("_state_dict_pre_hooks", "_state_dict_hooks",
          "_load_state_dict_pre_hooks", "_load_state_dict_post_hooks")


class StateDictHookHandle:
    """What registering a state-dict hook returns: ``remove()`` unregisters it."""

    def __init__(self, hooks: OrderedDict, key: int):
        self._hooks, self._key = hooks, key

    def remove(self) -> None:
        self._hooks.pop(self._key, None)


def register(cell, kind: str, hook) -> StateDictHookHandle:
    """Add ``hook`` to ``cell``'s hooks of ``kind`` (one of ``_KINDS``)."""
    if not callable(hook):
        raise TypeError(f"For 'Cell', the hook should be a function, but got {type(hook)}.")
    hooks = cell.__dict__.setdefault(kind, OrderedDict())
    key = next(_HOOK_IDS)
    hooks[key] = hook
    return StateDictHookHandle(hooks, key)


def _hooks(cell, kind: str):
    return list(cell.__dict__.get(kind, {}).values())


def _own_state(cell) -> OrderedDict:
    skip = cell.__dict__.get("_non_persistent_buffers", set())
    state = OrderedDict((n, p) for n, p in cell._params.items() if p is not None)
    state.update((n, b) for n, b in cell.__dict__.get("_buffers", {}).items()
                 if b is not None and n not in skip)
    return state


def state_dict(cell, destination=None, prefix: str = "", keep_vars: bool = False) -> OrderedDict:
    """Parameters and persistent buffers of ``cell`` and its sub-cells, by dotted name."""
    destination = OrderedDict() if destination is None else destination
    for hook in _hooks(cell, "_state_dict_pre_hooks"):
        hook(cell, prefix, keep_vars)
    for name, value in _own_state(cell).items():
        destination[prefix + name] = value
    for name, child in cell._cells.items():
        if child is not None:
            state_dict(child, destination, prefix + name + ".", keep_vars)
    for hook in _hooks(cell, "_state_dict_hooks"):
        result = hook(cell, destination, prefix, {})
        if result is not None:
            destination = result
    return destination


def _load_into(cell, state: dict, prefix: str, strict: bool, missing: list,
               unexpected: list, errors: list) -> None:
    for hook in _hooks(cell, "_load_state_dict_pre_hooks"):
        hook(cell, state, prefix, {}, strict, missing, unexpected, errors)
    for name, current in _own_state(cell).items():
        key = prefix + name
        if key not in state:
            missing.append(key)
            continue
        value = state[key]
        if not isinstance(value, Tensor):
            errors.append(f"'{key}' should be a Tensor, but got {type(value).__name__}.")
        elif tuple(value.shape) != tuple(current.shape):
            errors.append(f"size mismatch for '{key}': the checkpoint has shape "
                          f"{tuple(value.shape)}, the cell has {tuple(current.shape)}.")
        elif isinstance(current, Parameter):
            current.set_data(value.astype(current.dtype))
        else:
            cell._buffers[name] = Tensor(value.asnumpy().astype(current.dtype.np_dtype))
    for name, child in cell._cells.items():
        if child is not None:
            _load_into(child, state, prefix + name + ".", strict, missing, unexpected, errors)


def load_state_dict(cell, state: dict, strict: bool = True) -> IncompatibleKeys:
    """Copy ``state`` (from ``state_dict`` or ``load_checkpoint``) into ``cell``'s parameters
    and buffers; with ``strict``, a missing or unexpected key is a RuntimeError."""
    if not isinstance(state, dict):
        raise TypeError(f"For 'load_state_dict', the state_dict should be a dict, but got "
                        f"{type(state).__name__}.")
    missing: list = []
    unexpected: list = []
    errors: list = []
    _load_into(cell, state, "", strict, missing, unexpected, errors)
    known = set(state_dict(cell).keys())
    unexpected.extend(k for k in state if k not in known)
    if strict:
        if missing:
            errors.insert(0, "Missing key(s) in state_dict: "
                          + ", ".join(f"'{k}'" for k in missing) + ".")
        if unexpected:
            errors.insert(0, "Unexpected key(s) in state_dict: "
                          + ", ".join(f"'{k}'" for k in unexpected) + ".")
    result = IncompatibleKeys(missing, unexpected)
    for hook in _hooks(cell, "_load_state_dict_post_hooks"):
        hook(cell, result)
    if errors:
        raise RuntimeError(f"Error(s) in loading state_dict for {type(cell).__name__}:\n\t"
                           + "\n\t".join(errors))
    return result
