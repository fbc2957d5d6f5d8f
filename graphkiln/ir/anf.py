"""ANF dataflow IR: ``FuncGraph``, ``CNode``, ``ValueNode`` and graph ``Parameter`` nodes.

A ``CNode``'s ``inputs[0]`` is what it applies (a ``ValueNode`` holding a ``Primitive`` or a
``FuncGraph``, or another node that yields a function, e.g. ``Switch``); ``inputs[1:]`` are its
arguments. Every graph is closed: a node only uses nodes of its own graph (branch and loop
bodies receive outer values as parameters). Side effects are ordered only by monad inputs.
"""
from __future__ import annotations

from collections.abc import Iterator

from .abstract import Abstract


class Node:
    """Base of IR nodes. ``abstract`` is what inference knows about the value."""

    __slots__ = ("abstract", "loc", "scope")

    def __init__(self, abstract: Abstract | None = None, loc=None):
        self.abstract = abstract
        self.loc = loc
        self.scope = None


class ValueNode(Node):
    """A constant: a Python/NumPy value, a Tensor, a ``Primitive`` or a ``FuncGraph``."""

    __slots__ = ("value",)

    def __init__(self, value, abstract: Abstract | None = None):
        super().__init__(abstract)
        self.value = value

    def __repr__(self) -> str:
        return f"ValueNode({self.value!r})"


class Parameter(Node):
    """A graph input. ``weight`` is set for cell weights (a live ``ms.Parameter``)."""

    __slots__ = ("name", "graph", "weight")

    def __init__(self, graph: FuncGraph, name: str, abstract: Abstract | None = None,
                 weight=None):
        super().__init__(abstract)
        self.graph = graph
        self.name = name
        self.weight = weight

    def __repr__(self) -> str:
        return f"Parameter({self.name})"


class CNode(Node):
    """An application ``inputs[0](*inputs[1:])`` inside ``graph``."""

    __slots__ = ("inputs", "graph")

    def __init__(self, graph: FuncGraph, inputs: list, abstract: Abstract | None = None,
                 loc=None):
        super().__init__(abstract, loc)
        self.graph = graph
        self.inputs = inputs

    @property
    def fn(self) -> Node:
        return self.inputs[0]

    @property
    def args(self) -> list:
        return self.inputs[1:]

    def prim_name(self) -> str | None:
        """The MindSpore name of the applied primitive, or None for graph calls."""
        f = self.inputs[0]
        if isinstance(f, ValueNode):
            opdef = getattr(f.value, "opdef", None)
            if opdef is not None:
                return opdef.name
        return None

    def set_input(self, i: int, node: Node) -> None:
        self.inputs[i] = node
        self.graph._order = None

    def set_inputs(self, inputs: list) -> None:
        self.inputs = inputs
        self.graph._order = None

    def __repr__(self) -> str:
        return f"CNode({self.prim_name() or 'call'})"


class FuncGraph:
    """A function in the IR: parameters, an output node, flags and weight parameters.

    ``params`` are the positional inputs; ``weights`` are parameters bound to live
    ``ms.Parameter`` objects (printed after the inputs, ``has_default``).
    """

    __slots__ = ("name", "params", "weights", "_output", "flags", "loc", "_order", "_subs",
                 "_family", "__weakref__")

    def __init__(self, name: str, loc=None):
        self.name = name
        self.params: list[Parameter] = []
        self.weights: list[Parameter] = []
        self._output: Node | None = None
        self.flags: dict = {}
        self.loc = loc
        self._order: list | None = None  # cached toposort, dropped on every edit
        self._subs: tuple | None = None  # (order it was computed from, subgraphs)
        self._family: tuple | None = None  # (all_graphs result, each graph's order then)

    @property
    def output(self) -> Node | None:
        return self._output

    @output.setter
    def output(self, node: Node) -> None:
        self._output = node
        self._order = None

    def changed(self) -> None:
        """Forget cached analyses after an edit."""
        self._order = None

    def add_param(self, name: str, abstract: Abstract | None = None) -> Parameter:
        p = Parameter(self, name, abstract)
        self.params.append(p)
        return p

    def add_weight(self, weight, abstract: Abstract) -> Parameter:
        p = Parameter(self, weight.name, abstract, weight=weight)
        self.weights.append(p)
        return p

    @property
    def all_params(self) -> list[Parameter]:
        return self.params + self.weights

    def __repr__(self) -> str:
        return f"FuncGraph({self.name})"


def toposort(graph: FuncGraph) -> list[CNode]:
    """CNodes of ``graph`` reachable from its output, inputs before users (iterative DFS).

    The result is cached on the graph until the next edit; callers must not modify it.
    """
    order = graph._order
    if order is not None:
        return order
    order = []
    out = graph._output
    if type(out) is CNode:
        seen = {id(out)}
        stack = [(out, iter(out.inputs))]
        push, pop, emit, mark = stack.append, stack.pop, order.append, seen.add
        while stack:
            node, it = stack[-1]
            for inp in it:
                if type(inp) is CNode and id(inp) not in seen:
                    mark(id(inp))
                    push((inp, iter(inp.inputs)))
                    break
            else:
                pop()
                emit(node)
    graph._order = order
    return order


def graphs_in(value) -> tuple:
    """The graphs a constant holds: a graph, or a tuple of graphs (a HyperMap table)."""
    if isinstance(value, FuncGraph):
        return (value,)
    if type(value) is tuple and value and isinstance(value[0], FuncGraph):
        return value
    return ()


def subgraphs_of(graph: FuncGraph, nodes: list[CNode] | None = None) -> list[FuncGraph]:
    """Graphs directly referenced by ``graph``'s nodes (as ``ValueNode`` constants)."""
    return _scan(graph, nodes if nodes is not None else toposort(graph))[0]


def _scan(graph: FuncGraph, order: list[CNode]) -> tuple[list[FuncGraph], int]:
    """The graphs ``order``'s constants hold and how many distinct constants it uses, in
    one pass over the inputs, cached on ``graph`` with the order it was computed from."""
    cached = graph._subs
    if cached is not None and cached[0] is order:
        return cached[1]
    found: list[FuncGraph] = []
    seen: set[int] = set()
    values: set[int] = set()
    for n in order:
        for inp in n.inputs:
            if type(inp) is ValueNode and id(inp) not in values:
                values.add(id(inp))
                for g in graphs_in(inp.value):
                    if id(g) not in seen:
                        seen.add(id(g))
                        found.append(g)
    result = (found, len(values))
    graph._subs = (order, result)
    return result


def all_graphs(root: FuncGraph) -> list[FuncGraph]:
    """``root`` and every graph reachable from it, root first, each once.

    The result is cached on ``root`` until one of its graphs is edited (its cached
    ``toposort`` is dropped, see ``subgraphs_of``); callers must not modify it.
    """
    family = root._family
    if family is not None:
        for g, order in zip(*family):
            if g._order is not order:
                break
        else:
            return family[0]
    result = [root]
    seen = {id(root)}
    i = 0
    while i < len(result):
        for g in subgraphs_of(result[i]):
            if id(g) not in seen:
                seen.add(id(g))
                result.append(g)
        i += 1
    root._family = (result, [g._order for g in result])
    return result


def iter_nodes(root: FuncGraph) -> Iterator[tuple[FuncGraph, list[CNode]]]:
    for g in all_graphs(root):
        yield g, toposort(g)


def count_nodes(root: FuncGraph) -> tuple[int, int]:
    """(total nodes, cnodes) over all graphs, counted as MindSpore does (with ``Return``)."""
    total = cnodes = 0
    for g, order in iter_nodes(root):
        cnodes += len(order) + 1
        total += len(order) + 1 + len(g.params) + len(g.weights) + _scan(g, order)[1]
    return total, cnodes
