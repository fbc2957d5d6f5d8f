"""A network's ``construct`` as rewrite nodes: the statements are flattened first (an
argument or an ``if`` test that is itself a call or an operation becomes a statement of
its own, assigned to ``<name>_var``), then each top-level statement becomes one node,
named as MindSpore's rewrite names it (``conv1``, ``relu_1``, ``binop_add``, ``if_node``,
``return``)."""
from __future__ import annotations

import ast

from ..nn.cell import Cell
from .node import Node, math_args
from .values import NodeType, ScopedValue, value_of

_MATH = (ast.BinOp, ast.UnaryOp, ast.BoolOp, ast.Compare)
_SIMPLE = (ast.Name, ast.Constant, ast.Attribute, ast.Starred)
_CONTROL = {ast.If: "if_node", ast.For: "for_node", ast.While: "while_node"}


class Namer:
    """Unique names: a used ``base`` becomes ``base_1``, ``base_2``..."""

    def __init__(self):
        self.used: set = set()

    def add(self, name: str) -> None:
        self.used.add(name)

    def get(self, base: str) -> str:
        name, k = base, 0
        while name in self.used:
            k += 1
            name = f"{base}_{k}"
        self.used.add(name)
        return name


def _op_name(expr: ast.expr) -> str:
    """``binop_add``, ``unaryop_not``, ``boolop_and``, ``compare_lt``."""
    if isinstance(expr, ast.BinOp):
        return f"binop_{type(expr.op).__name__.lower()}"
    if isinstance(expr, ast.UnaryOp):
        return f"unaryop_{type(expr.op).__name__.lower()}"
    if isinstance(expr, ast.BoolOp):
        return f"boolop_{type(expr.op).__name__.lower()}"
    return f"compare_{type(expr.ops[0]).__name__.lower()}"


def _func_name(func: ast.expr) -> str:
    if isinstance(func, ast.Attribute):
        return func.attr
    if isinstance(func, ast.Name):
        return func.id
    return "func"


def _temp_base(expr: ast.expr) -> str:
    """The name MindSpore gives a flattened sub-expression: ``fc1_var``, ``not_var``."""
    if isinstance(expr, ast.Call):
        return f"{_func_name(expr.func)}_var"
    if isinstance(expr, ast.UnaryOp):
        return f"{type(expr.op).__name__.lower()}_var"
    if isinstance(expr, ast.BinOp):
        return f"{type(expr.op).__name__.lower()}_var"
    return "tmp_var"


class Flattener:
    """Moves nested calls and operations out of a statement into temporaries."""

    def __init__(self, targets: Namer):
        self.targets = targets

    def _temp(self, expr: ast.expr, out: list) -> ast.Name:
        inner = self._operands(expr, out)
        name = self.targets.get(_temp_base(inner))
        out.append(ast.Assign([ast.Name(name, ast.Store())], inner))
        return ast.Name(name, ast.Load())

    def _operands(self, expr: ast.expr, out: list) -> ast.expr:
        """``expr`` with each of its non-trivial operands moved into a temporary."""
        if isinstance(expr, ast.Call):
            expr.args = [a if isinstance(a, _SIMPLE) else self._temp(a, out) for a in expr.args]
            for kw in expr.keywords:
                if not isinstance(kw.value, _SIMPLE):
                    kw.value = self._temp(kw.value, out)
        elif isinstance(expr, (ast.BinOp, ast.UnaryOp, ast.BoolOp, ast.Compare)):
            # (MindSpore's order: the right operand's temporary first)
            fields = {ast.BinOp: ("right", "left"), ast.UnaryOp: ("operand",)}
            for f in fields.get(type(expr), ()):
                value = getattr(expr, f)
                if not isinstance(value, _SIMPLE):
                    setattr(expr, f, self._temp(value, out))
        return expr

    def statement(self, stmt: ast.stmt) -> list:
        out: list = []
        if isinstance(stmt, ast.Assign) and isinstance(stmt.value, (ast.Call, *_MATH)):
            stmt.value = self._operands(stmt.value, out)
        elif isinstance(stmt, ast.Return) and stmt.value is not None \
                and not isinstance(stmt.value, _SIMPLE + (ast.Tuple,)):
            stmt.value = self._temp(stmt.value, out)
        elif isinstance(stmt, (ast.If, ast.While)) and not isinstance(stmt.test, _SIMPLE):
            stmt.test = self._temp(stmt.test, out)
        return out + [stmt]


def _statement_base(stmt: ast.stmt) -> str:
    """The base of a statement's node name."""
    if isinstance(stmt, ast.Return):
        return "return"
    if type(stmt) in _CONTROL:
        return _CONTROL[type(stmt)]
    value = getattr(stmt, "value", None)
    if isinstance(value, ast.Call):
        return _func_name(value.func)
    if isinstance(value, _MATH):
        return _op_name(value)
    return "python_node"


def register_names(stmts, names: Namer) -> None:
    """Node names of the statements inside a control-flow block (taken, as MindSpore's
    nested nodes take them)."""
    for stmt in stmts:
        names.get(_statement_base(stmt))
        for field in ("body", "orelse"):
            register_names(getattr(stmt, field, ()), names)


def statement_node(stmt: ast.stmt, net, names: Namer) -> Node:
    """The node of one flattened statement of ``net``'s construct."""
    name = names.get(_statement_base(stmt))
    if isinstance(stmt, ast.Return):
        args = [value_of(stmt.value)] if stmt.value is not None else []
        return Node(NodeType.Output, name, stmt, args=args)
    if type(stmt) in _CONTROL:
        for field in ("body", "orelse"):
            register_names(getattr(stmt, field, ()), names)
        return Node(NodeType.ControlFlow, name, stmt)
    if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1:
        targets = _targets(stmt.targets[0])
        if targets is not None and isinstance(stmt.value, ast.Call):
            return _call_node(stmt, stmt.value, targets, net, name)
        if targets is not None and isinstance(stmt.value, _MATH):
            return Node(NodeType.MathOps, name, stmt, targets=targets,
                        args=math_args(stmt.value))
    if isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call):
        return _call_node(stmt, stmt.value, [], net, name)
    return Node(NodeType.Python, name, stmt)


def _targets(target: ast.expr):
    if isinstance(target, ast.Name):
        return [ScopedValue.create_naming_value(target.id)]
    if isinstance(target, ast.Tuple) and all(isinstance(e, ast.Name) for e in target.elts):
        return [ScopedValue.create_naming_value(e.id) for e in target.elts]
    return None


def _call_node(stmt, call: ast.Call, targets: list, net, name: str) -> Node:
    if any(isinstance(a, ast.Starred) for a in call.args) or \
            any(kw.arg is None for kw in call.keywords):
        return Node(NodeType.Python, name, stmt)
    func = value_of(call.func)
    instance, kind = None, NodeType.CallFunction
    if isinstance(call.func, ast.Attribute) and isinstance(call.func.value, ast.Name) \
            and call.func.value.id == "self":
        attr = getattr(net, call.func.attr, None)
        if isinstance(attr, Cell):
            instance = attr
            kind = NodeType.Tree if is_user_class(type(attr)) else NodeType.CallCell
    args = [value_of(a) for a in call.args]
    kwargs = {kw.arg: value_of(kw.value) for kw in call.keywords}
    return Node(kind, name, stmt, targets=targets, func=func, args=args, kwargs=kwargs,
                instance=instance)


def is_user_class(cls: type) -> bool:
    """A class the user wrote (rewritten into an ``...Opt`` class), not one of graphkiln's."""
    module = getattr(cls, "__module__", "") or ""
    return cls is not object and not module.startswith(("graphkiln", "mindspore", "builtins"))
