"""``mindspore.rewrite``: a network's ``construct`` as an editable tree of nodes
(``SymbolTree``, ``Node``, ``ScopedValue``) and the network regenerated from it."""
from .node import Node
from .symbol_tree import Position, SymbolTree
from .values import NodeType, ScopedValue, ValueType

__all__ = ["SymbolTree", "Node", "NodeType", "ScopedValue", "ValueType", "Position"]
