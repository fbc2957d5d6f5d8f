"""Flatten nested tuples/lists/dicts of values into leaves and rebuild them."""
from __future__ import annotations


class TreeDef:
    """The structure of a flattened value: a container kind and its children, or a leaf."""

    __slots__ = ("kind", "children", "meta")

    def __init__(self, kind: str, children: tuple = (), meta=None):
        self.kind = kind  # 'leaf', 'tuple', 'list', 'dict'
        self.children = children
        self.meta = meta

    def __eq__(self, other) -> bool:
        return (isinstance(other, TreeDef) and self.kind == other.kind
                and self.meta == other.meta and self.children == other.children)

    def __hash__(self):
        return hash((self.kind, self.children, self.meta))

    def __repr__(self) -> str:
        if self.kind == "leaf":
            return "*"
        return f"{self.kind}({', '.join(map(repr, self.children))})"


LEAF = TreeDef("leaf")


def flatten(x) -> tuple[list, TreeDef]:
    leaves: list = []
    tree = _flatten(x, leaves)
    return leaves, tree


def _flatten(x, leaves: list) -> TreeDef:
    if type(x) is tuple or type(x) is list:
        return TreeDef(type(x).__name__, tuple(_flatten(e, leaves) for e in x))
    if type(x) is dict:
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
