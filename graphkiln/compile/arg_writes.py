"""Writes a bytecode capture's trace makes to the list and dict arguments of the call and
to globals, replayed on the caller's containers and the modules after the graph runs
(MindSpore replays them after its graph and records no break).

A trace works on copies of the argument containers (``pytree.unflatten``); when one of
them ends with other contents, :class:`ArgumentWrites` describes its final contents in
terms of the call (the caller's argument leaves and containers by position, the graph's
new values by output index, constants as they are), so one compiled call replays them on
the containers of every later call with the same signature.
"""
from __future__ import annotations

from ..common.capture_flags import NO_VALUE
from ..common.symbolic_scalar import SymbolicScalar
from ..common.tensor import Tensor

_LEAF, _CONTAINER, _VALUE, _CONST, _LIST, _TUPLE, _DICT = range(7)


def _contents(c) -> list:
    """The identities of a list's items or of a dict's keys and values, in order."""
    return [id(v) for v in c] if isinstance(c, list) else \
        [(id(k), id(v)) for k, v in c.items()]


def _pairs(caller, traced, path: tuple, out: list) -> list:
    """``(path, traced container)`` for each list and dict of the argument tree."""
    if isinstance(traced, (list, dict)):
        out.append((path, traced))
    if isinstance(traced, (list, tuple)) and isinstance(caller, (list, tuple)):
        for i, (c, t) in enumerate(zip(caller, traced)):
            _pairs(c, t, path + (i,), out)
    elif isinstance(traced, dict) and isinstance(caller, dict):
        for k, t in traced.items():
            if k in caller:
                _pairs(caller[k], t, path + (k,), out)
    return out


def _at(tree, path: tuple):
    for k in path:
        tree = tree[k]
    return tree


class ArgumentWrites:
    """The argument containers a trace wrote and their final contents (see the module)."""

    def __init__(self, caller_tree, traced_tree, sym_leaves: list, global_writes: dict):
        self._given = [(path, c, _contents(c)) for path, c in
                       _pairs(caller_tree, traced_tree, (), [])]
        self._path_of = {id(c): path for path, c, _ in self._given}
        self._leaf_of = {id(s): i for i, s in enumerate(sym_leaves)
                         if isinstance(s, (Tensor, SymbolicScalar))}
        self.writes: list = []  # (path, kind of container, item specs)
        self._global_writes = global_writes  # capture_flags.recording_global_writes
        self.globals: list = []  # (module namespace, name, value spec or None: deleted)
        self.output = None  # the spec of the function's output

    def collect(self, out) -> list:
        """After the trace, whose function returned ``out``: the specs of the written
        containers and of ``out``; the graph values they hold, which the graph returns
        in their place (nothing when no container was written)."""
        values: list = []
        for path, c, before in self._given:
            if _contents(c) != before:
                items = list(c.items()) if isinstance(c, dict) else list(c)
                self.writes.append((path, isinstance(c, dict),
                                    [self._spec(v, values) for v in items]))
        for namespace, name, before in self._global_writes.values():
            now = namespace.get(name, NO_VALUE)
            if now is not before:
                self.globals.append((namespace, name,
                                     None if now is NO_VALUE else self._spec(now, values)))
        if self.wrote:
            self.output = self._spec(out, values)
        return values

    @property
    def wrote(self) -> bool:
        """Whether the trace wrote an argument container or a global."""
        return bool(self.writes or self.globals)

    def _spec(self, v, values: list):
        if id(v) in self._leaf_of:
            return _LEAF, self._leaf_of[id(v)]
        if id(v) in self._path_of:
            return _CONTAINER, self._path_of[id(v)]
        if (isinstance(v, Tensor) and v.is_symbolic) or type(v) is SymbolicScalar:
            for i, seen in enumerate(values):  # one value in two places: one object
                if seen is v:
                    return _VALUE, i
            values.append(v)
            return _VALUE, len(values) - 1
        if type(v) in (list, tuple):
            return (_LIST if type(v) is list else _TUPLE), [self._spec(x, values) for x in v]
        if type(v) is dict:
            return _DICT, [(self._spec(k, values), self._spec(x, values))
                           for k, x in v.items()]
        return _CONST, v

    def replay(self, tree, leaves: list, values):
        """Write the final contents into the containers of the call whose argument tree is
        ``tree`` (flattened: ``leaves``), with the graph's returned ``values``; the
        function's output (the caller's own containers and Tensors where it returns
        them, as in PyNative)."""
        def build(spec):
            kind, arg = spec
            if kind == _LEAF:
                return leaves[arg]
            if kind == _CONTAINER:
                return _at(tree, arg)
            if kind == _VALUE:
                return values[arg]
            if kind == _LIST:
                return [build(s) for s in arg]
            if kind == _TUPLE:
                return tuple(build(s) for s in arg)
            if kind == _DICT:
                return {build(k): build(v) for k, v in arg}
            return arg

        targets = [(_at(tree, path), is_dict, [build(s) for s in items])
                   for path, is_dict, items in self.writes]
        result = build(self.output)
        for namespace, name, spec in self.globals:
            if spec is None:
                namespace.pop(name, None)
            else:
                namespace[name] = build(spec)
        for container, is_dict, items in targets:
            if is_dict:
                container.clear()
                container.update(items)
            else:
                container[:] = items
        return result
