"""Flatten nested tuples/lists/dicts of values into leaves and rebuild them."""
from __future__ import annotations


class TreeDef:
    """The structure of a flattened value: a container kind and its children, or a leaf.
    Its hash is computed once (call-cache keys hash it on every call)."""

    __slots__ = ("kind", "children", "meta", "_hash")

    def __init__(self, kind: str, children: tuple = (), meta=None):
        self.kind = kind  # 'leaf', 'tuple', 'list', 'dict'
        self.children = children
        self.meta = meta
        self._hash = hash((kind, children, meta))

    def __eq__(self, other) -> bool:
        return self is other or (
            isinstance(other, TreeDef) and self._hash == other._hash and
            self.kind == other.kind and self.meta == other.meta and
            self.children == other.children)

    def __hash__(self):
        return self._hash

    def __repr__(self) -> str:
        if self.kind == "leaf":
            return "*"
        return f"{self.kind}({', '.join(map(repr, self.children))})"


LEAF = TreeDef("leaf")
_CONTAINERS = (tuple, list, dict)
_FLAT: dict = {}  # (kind, n) -> the TreeDef of a flat container of n leaves


def _flat(kind: str, n: int) -> TreeDef:
    tree = _FLAT.get((kind, n))
    if tree is None:
        tree = _FLAT[(kind, n)] = TreeDef(kind, (LEAF,) * n)
    return tree


def flatten(x) -> tuple[list, TreeDef]:
    leaves: list = []
    tree = _flatten(x, leaves)
    return leaves, tree


_CALLS: dict = {}  # n -> the tree of ``((n flat leaves), {})``


def flatten_call(args: tuple, kwargs: dict) -> tuple[list, TreeDef]:
    """``flatten((args, kwargs))``, with the tree of a call with flat positional arguments
    only (the common case) built once per argument count."""
    if not kwargs:
        for e in args:
            if type(e) in _CONTAINERS:
                break
        else:
            n = len(args)
            tree = _CALLS.get(n)
            if tree is None:
                tree = _CALLS[n] = TreeDef("tuple", (_flat("tuple", n), TreeDef("dict", (), ())))
            return list(args), tree
    return flatten((args, kwargs))


def _flatten(x, leaves: list) -> TreeDef:
    t = type(x)
    if t is tuple or t is list:
        for e in x:
            if type(e) in _CONTAINERS:
                return TreeDef(t.__name__, tuple(_flatten(e, leaves) for e in x))
        leaves.extend(x)  # no nested containers: the shared flat tree
        return _flat(t.__name__, len(x))
    if t is dict:
        keys = tuple(x)
        return TreeDef("dict", tuple(_flatten(x[k], leaves) for k in keys), keys)
    leaves.append(x)
    return LEAF


def unflatten(tree: TreeDef, leaves) -> object:
    it = iter(leaves)
    return _unflatten(tree, it)


def _unflatten(tree: TreeDef, it):
    if tree.kind == "leaf":
        return next(it)
    items = [_unflatten(c, it) for c in tree.children]
    if tree.kind == "tuple":
        return tuple(items)
    if tree.kind == "list":
        return items
    return dict(zip(tree.meta, items))


def copy_containers(x):
    """A copy of the containers of ``x`` (leaves shared), so a branch cannot mutate them."""
    if type(x) is tuple:
        return tuple(copy_containers(e) for e in x)
    if type(x) is list:
        return [copy_containers(e) for e in x]
    if type(x) is dict:
        return {k: copy_containers(v) for k, v in x.items()}
    return x
