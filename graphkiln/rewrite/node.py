"""``mindspore.rewrite.Node``: one statement of a network's ``construct``, as MindSpore's
rewrite sees it (a call of a cell, of a function, a math operation, a control-flow block,
an input or the output), with its targets and arguments, which may be edited."""
from __future__ import annotations

import ast
import copy

from ..nn.cell import Cell
from .values import NodeType, ScopedValue, ValueType, value_of


class Node:
    """A node of a :class:`~graphkiln.rewrite.SymbolTree` (see the module docstring).

    Call nodes are regenerated from ``targets = func(*args, **kwargs)``; math nodes from
    their operator and ``args``; other nodes keep their statement."""

    def __init__(self, node_type: NodeType, name: str, stmt: ast.stmt | None = None,
                 targets=(), func: ScopedValue | None = None, args=(), kwargs=None,
                 instance=None):
        self._type = node_type
        self._name = name
        self._stmt = stmt
        self._targets = list(targets)
        self._func = func
        self._args = list(args)
        self._kwargs = dict(kwargs or {})
        self._instance = instance
        self._tree = None  # the SymbolTree holding it (set on insertion)
        self._sub_tree = None  # a Tree node: the SymbolTree of its user-defined cell

    # -------------------------------------------------------------- construction
    @staticmethod
    def create_call_cell(cell, targets, args=None, kwargs=None, name: str = "",
                         is_sub_net: bool = False) -> Node:
        """A node calling ``cell`` (stored as ``self.<name>`` of the rewritten network)."""
        if not isinstance(cell, Cell):
            raise TypeError(f"For 'create_call_cell', the 'cell' must be a Cell, but got "
                            f"{type(cell).__name__}.")
        if not isinstance(name, str):
            raise TypeError(f"For 'create_call_cell', the 'name' must be str, but got "
                            f"{type(name).__name__}.")
        name = name or type(cell).__name__.lower()
        targets = [_as_value(t) for t in targets]
        node = Node(NodeType.Tree if is_sub_net else NodeType.CallCell, name, targets=targets,
                    func=ScopedValue.create_naming_value(name, "self"),
                    args=[_as_value(a) for a in (args or [])],
                    kwargs={k: _as_value(v) for k, v in (kwargs or {}).items()},
                    instance=cell)
        return node

    # -------------------------------------------------------------- queries
    def get_name(self) -> str:
        return self._name

    def get_node_type(self) -> NodeType:
        return self._type

    def get_instance(self):
        return self._instance

    def get_instance_type(self) -> type:
        return type(self._instance) if self._instance is not None else type(None)

    def get_targets(self) -> list:
        return list(self._targets)

    def get_args(self) -> list:
        return list(self._args)

    def get_kwargs(self) -> dict:
        return dict(self._kwargs)

    def get_sub_tree(self):
        if self._type != NodeType.Tree:
            raise TypeError(f"For 'get_sub_tree', the node must be a Tree node, but got "
                            f"{self._type}.")
        return self._sub_tree

    def get_symbol_tree(self):
        return self._tree

    def get_inputs(self) -> list:
        """The nodes whose targets this node reads (the latest writer before it)."""
        return self._tree.producers(self) if self._tree is not None else []

    def get_users(self) -> list:
        """The nodes that read one of this node's targets before it is written again."""
        return self._tree.consumers(self) if self._tree is not None else []

    # -------------------------------------------------------------- edits
    def set_arg(self, index: int, arg) -> None:
        """Argument ``index`` becomes ``arg`` (a ScopedValue, or a name)."""
        if not 0 <= index < len(self._args):
            raise IndexError(f"For 'set_arg', the index {index} is out of the node's "
                             f"{len(self._args)} arguments.")
        self._args[index] = _as_value(arg)

    def set_arg_by_node(self, arg_idx: int, src_node: Node, out_idx: int | None = None) -> None:
        """Argument ``arg_idx`` becomes target ``out_idx`` (default 0) of ``src_node``."""
        targets = src_node.get_targets()
        out_idx = 0 if out_idx is None else out_idx
        if not 0 <= out_idx < len(targets):
            raise IndexError(f"For 'set_arg_by_node', the node '{src_node.get_name()}' has "
                             f"{len(targets)} targets, but got out_idx {out_idx}.")
        self.set_arg(arg_idx, targets[out_idx])

    # -------------------------------------------------------------- code
    def names_read(self) -> set:
        """The plain names this node reads."""
        if self._type in (NodeType.Python, NodeType.ControlFlow) and self._stmt is not None:
            return {n.id for n in ast.walk(self._stmt)
                    if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)}
        return {a.value for a in (*self._args, *self._kwargs.values())
                if a.type == ValueType.NamingValue and not a.scope}

    def names_written(self) -> set:
        if self._type in (NodeType.Python, NodeType.ControlFlow) and self._stmt is not None:
            return {n.id for n in ast.walk(self._stmt)
                    if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)}
        return {t.value for t in self._targets if t.type == ValueType.NamingValue}

    def to_stmt(self) -> ast.stmt | None:
        """The statement this node is in generated code (None for an input)."""
        if self._type == NodeType.Input:
            return None
        if self._type == NodeType.Output:
            return ast.Return(self._args[0].to_ast() if self._args else None)
        if self._type == NodeType.MathOps:
            return _assign(self._targets, _rebuild_math(self._stmt.value, self._args))
        if self._func is not None:
            call = ast.Call(self._func.to_ast(), [a.to_ast() for a in self._args],
                            [ast.keyword(k, v.to_ast()) for k, v in self._kwargs.items()])
            return _assign(self._targets, call) if self._targets else ast.Expr(call)
        return copy.deepcopy(self._stmt)

    def __repr__(self) -> str:
        return f"Node({self._type.name}, {self._name!r})"


def _as_value(v) -> ScopedValue:
    if isinstance(v, ScopedValue):
        return v
    if isinstance(v, str):
        return ScopedValue.create_naming_value(v)
    return ScopedValue.create_variable_value(v)


def _assign(targets: list, value: ast.expr) -> ast.stmt:
    names = [t.to_ast() for t in targets]
    for n in names:
        n.ctx = ast.Store()
    target = names[0] if len(names) == 1 else ast.Tuple(names, ast.Store())
    return ast.Assign([target], value)


def math_operands(expr: ast.expr) -> list:
    """The operand expressions of a math expression, in order."""
    if isinstance(expr, ast.BinOp):
        return [expr.left, expr.right]
    if isinstance(expr, ast.UnaryOp):
        return [expr.operand]
    if isinstance(expr, ast.BoolOp):
        return list(expr.values)
    return [expr.left, *expr.comparators]  # ast.Compare


def _rebuild_math(expr: ast.expr, args: list) -> ast.expr:
    expr = copy.deepcopy(expr)
    new = [a.to_ast() for a in args]
    if isinstance(expr, ast.BinOp):
        expr.left, expr.right = new
    elif isinstance(expr, ast.UnaryOp):
        expr.operand = new[0]
    elif isinstance(expr, ast.BoolOp):
        expr.values = new
    else:
        expr.left, expr.comparators = new[0], new[1:]
    return expr


def math_args(expr: ast.expr) -> list:
    return [value_of(e) for e in math_operands(expr)]
