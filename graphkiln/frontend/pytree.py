"""Flatten nested tuples/lists/dicts of values into leaves and rebuild them.

``mutable`` tuples, lists and dicts are containers of their own kinds (rebuilt as mutable,
so gradients can follow their structure); the plain numbers inside them become mutable
numbers (run-time scalars of a compiled call). A ``dynamic_len`` sequence whose items share
one type is a leaf (one run-time value of a compiled call); otherwise it is a mutable one."""
from __future__ import annotations

from collections import OrderedDict, defaultdict

from ..common.mutable import (
    DynamicLenList,
    DynamicLenTuple,
    MutableDict,
    MutableList,
    MutableTuple,
    dynamic_len_items,
    mutable_number,
)
from ..common.symbolic_sequence import SymbolicSequence


class TreeDef:
    """The structure of a flattened value: a container kind and its children, or a leaf.
    Its hash is computed once (call-cache keys hash it on every call)."""

    __slots__ = ("kind", "children", "meta", "_hash")

    def __init__(self, kind: str, children: tuple = (), meta=None):
        # 'leaf', 'tuple', 'list', 'dict', 'mutable_' + one of these, 'namedtuple' (meta:
        # its class), 'dict_object' (meta: its class, keys and attribute names) or 'object'
        # (meta: its class and static part, see _is_node)
        self.kind = kind
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
_CONTAINERS = (tuple, list, dict, MutableTuple, MutableList, MutableDict, DynamicLenTuple,
               DynamicLenList)
_KIND = {tuple: "tuple", list: "list", dict: "dict", MutableTuple: "mutable_tuple",
         MutableList: "mutable_list", MutableDict: "mutable_dict",
         DynamicLenTuple: "mutable_tuple", DynamicLenList: "mutable_list"}
_BUILD = {"tuple": tuple, "list": list, "mutable_tuple": MutableTuple,
          "mutable_list": MutableList}
_FLAT: dict = {}  # (kind, n) -> the TreeDef of a flat container of n leaves


def _flat(kind: str, n: int) -> TreeDef:
    tree = _FLAT.get((kind, n))
    if tree is None:
        tree = _FLAT[(kind, n)] = TreeDef(kind, (LEAF,) * n)
    return tree


def _is_namedtuple(x) -> bool:
    """A ``collections.namedtuple`` instance: a container whose class is kept."""
    return isinstance(x, tuple) and type(x) not in _KIND and hasattr(type(x), "_fields")


def _is_dict_object(x) -> bool:
    """An instance of a user's ``dict``/``OrderedDict`` subclass (a model's output
    dataclass such as mindnlp's ``ModelOutput``): its items and attributes are children."""
    return isinstance(x, dict) and type(x) not in _KIND and not isinstance(x, defaultdict) \
        and hasattr(x, "__dict__")


def _is_node(x) -> bool:
    """A container that is not one of ``_CONTAINERS``: a namedtuple, a dict subclass, or
    an object with the ``__gk_flatten__``/``__gk_unflatten__`` protocol (COO and CSR
    tensors): its tensors are children, its static part the tree's metadata."""
    return _is_namedtuple(x) or _is_dict_object(x) or hasattr(type(x), "__gk_unflatten__")


def _dict_object(cls: type, keys: tuple, names: tuple, items: list):
    """A ``cls`` instance holding ``keys`` -> the first items and attributes ``names`` ->
    the rest, built without calling its ``__init__`` or overridden ``__setitem__``."""
    obj = cls.__new__(cls)
    base = OrderedDict if issubclass(cls, OrderedDict) else dict
    base.__init__(obj)
    for k, v in zip(keys, items):
        base.__setitem__(obj, k, v)
    obj.__dict__.update(zip(names, items[len(keys):]))
    return obj


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
            if type(e) in _CONTAINERS or _is_node(e):
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
            if type(e) in _CONTAINERS or _is_node(e):
                return TreeDef(t.__name__, tuple(_flatten(e, leaves) for e in x))
        leaves.extend(x)  # no nested containers: the shared flat tree
        return _flat(t.__name__, len(x))
    if t is dict:
        keys = tuple(x)
        return TreeDef("dict", tuple(_flatten(x[k], leaves) for k in keys), keys)
    if (t is DynamicLenTuple or t is DynamicLenList) and dynamic_len_items(x) is not None:
        leaves.append(x)
        return LEAF
    if t in (MutableTuple, MutableList, DynamicLenTuple, DynamicLenList):
        return TreeDef(_KIND[t], tuple(_flatten(mutable_number(e), leaves) for e in x))
    if _is_namedtuple(x):
        return TreeDef("namedtuple", tuple(_flatten(e, leaves) for e in x), t)
    if _is_dict_object(x):
        keys, names = tuple(x.keys()), tuple(vars(x))
        values = [dict.__getitem__(x, k) for k in keys] + [vars(x)[n] for n in names]
        return TreeDef("dict_object", tuple(_flatten(v, leaves) for v in values),
                       (t, keys, names))
    if hasattr(t, "__gk_unflatten__"):
        parts, static = x.__gk_flatten__()
        return TreeDef("object", tuple(_flatten(e, leaves) for e in parts), (t, static))
    if t is MutableDict:
        keys = tuple(x)
        return TreeDef("mutable_dict", tuple(_flatten(mutable_number(x[k]), leaves)
                                             for k in keys), keys)
    leaves.append(x)
    return LEAF


def unflatten(tree: TreeDef, leaves, plain: bool = False) -> object:
    """The value of structure ``tree`` holding ``leaves``; ``plain``: mutable containers
    are rebuilt as plain tuples, lists and dicts."""
    it = iter(leaves)
    return _unflatten(tree, it, plain)


def _unflatten(tree: TreeDef, it, plain: bool = False):
    if tree.kind == "leaf":
        return next(it)
    items = [_unflatten(c, it, plain) for c in tree.children]
    if tree.kind == "list" or (plain and tree.kind == "mutable_list"):
        return items
    if plain and tree.kind == "mutable_tuple":
        return tuple(items)
    if plain and tree.kind == "mutable_dict":
        return dict(zip(tree.meta, items))
    if tree.kind == "namedtuple":
        return tree.meta(*items)
    if tree.kind == "object":
        return tree.meta[0].__gk_unflatten__(tree.meta[1], items)
    if tree.kind == "dict_object":
        return _dict_object(*tree.meta, items)
    build = _BUILD.get(tree.kind)
    if build is not None:
        return build(items)
    return (MutableDict if tree.kind == "mutable_dict" else dict)(zip(tree.meta, items))


def copy_containers(x):
    """A copy of the containers of ``x`` (leaves shared, run-time sequences copied), so a
    branch cannot mutate them."""
    if type(x) is tuple:
        return tuple(copy_containers(e) for e in x)
    if type(x) is list:
        return [copy_containers(e) for e in x]
    if type(x) is dict:
        return {k: copy_containers(v) for k, v in x.items()}
    if type(x) is SymbolicSequence:
        return x.copy()
    return x
