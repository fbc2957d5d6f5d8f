"""The public node-building API: primitive and constant ValueNodes.

Everything that creates IR nodes outside the tracer (passes, the serializer, transforms)
uses these, so a primitive applied with the same attributes is one shared ValueNode.
"""
from __future__ import annotations

from ..common.tensor import Tensor
from .abstract import AbstractScalar, AbstractTensor, AbstractTuple
from .anf import ValueNode
from .primitive import Primitive, attr_key, eager_value

_PRIM_NODES: dict = {}


def prim_node(opdef, attrs: dict) -> ValueNode:
    """The (shared, immutable) ValueNode applying ``opdef`` with ``attrs`` (a node's own,
    never shared, when the kernel keeps state: its attrs are unique anyway)."""
    if opdef.state is not None:
        return ValueNode(Primitive(opdef, dict(attrs)))
    try:
        key = (opdef.name, tuple((k, attr_key(v)) for k, v in attrs.items())) \
            if attrs else opdef.name
        node = _PRIM_NODES.get(key)
    except TypeError:  # unhashable attribute: not shared
        return ValueNode(Primitive(opdef, dict(attrs)))
    if node is None:
        node = _PRIM_NODES[key] = ValueNode(Primitive(opdef, dict(attrs)))
    return node


def const_node(x) -> ValueNode:
    """A ValueNode for a constant Python value (tensors inside become arrays)."""
    return ValueNode(eager_value(x), _const_abstract(x))


def _const_abstract(x):
    if isinstance(x, Tensor):
        return AbstractTensor(x._dtype, x._data.shape, x._data)
    if isinstance(x, (tuple, list)):
        return AbstractTuple([_const_abstract(e) for e in x], isinstance(x, list))
    return AbstractScalar(x)
