"""The value and node kinds of ``mindspore.rewrite``: ``ScopedValue`` (a constant, or a name
within a scope such as ``self``), ``ValueType`` and ``NodeType``."""
from __future__ import annotations

import ast
from enum import Enum


class ValueType(Enum):
    """What a :class:`ScopedValue` holds (MindSpore's numbering)."""

    ConstantValue = 0
    TupleValue = 20
    ListValue = 21
    DictValue = 22
    NamingValue = 40
    CustomObjValue = 41
    UnsupportedValue = 50


class NodeType(Enum):
    """What a :class:`~graphkiln.rewrite.Node` stands for (MindSpore's numbering)."""

    Unknown = 0
    CallCell = 1
    CallPrimitive = 2
    CallModule = 3
    CallFunction = 4
    CallMethod = 5
    Python = 6
    Input = 7
    Output = 8
    Tree = 9
    CellContainer = 10
    MathOps = 11
    ControlFlow = 12


class ScopedValue:
    """A value an argument or target of a node holds: a constant, or ``scope.name``."""

    def __init__(self, arg_type: ValueType, scope: str = "", value=None):
        self.type = arg_type
        self.scope = scope
        self.value = value

    @classmethod
    def create_variable_value(cls, value) -> ScopedValue:
        """A constant (a number, str, None, bool) or a sequence/dict of them."""
        if isinstance(value, (int, float, str, bool, type(None))):
            return cls(ValueType.ConstantValue, "", value)
        for kind, vt in ((tuple, ValueType.TupleValue), (list, ValueType.ListValue)):
            if isinstance(value, kind):
                return cls(vt, "", kind(cls.create_variable_value(v) for v in value))
        if isinstance(value, dict):
            return cls(ValueType.DictValue, "", {k: cls.create_variable_value(v)
                                                 for k, v in value.items()})
        return cls(ValueType.CustomObjValue, "", value)

    @classmethod
    def create_naming_value(cls, name: str, scope: str = "") -> ScopedValue:
        """The name ``name`` (in ``scope``, e.g. ``"self"``)."""
        if not isinstance(name, str) or not isinstance(scope, str):
            raise TypeError(f"For 'create_naming_value', 'name' and 'scope' must be str, but "
                            f"got {type(name).__name__} and {type(scope).__name__}.")
        return cls(ValueType.NamingValue, scope, name)

    @staticmethod
    def create_name_values(names, scopes=None) -> list:
        """One naming value per name (each in the scope at its position)."""
        scopes = scopes or [""] * len(names)
        return [ScopedValue.create_naming_value(n, s) for n, s in zip(names, scopes)]

    def to_ast(self) -> ast.expr:
        """The expression that reads this value in generated code."""
        if self.type == ValueType.NamingValue:
            if self.scope:
                return ast.Attribute(ast.Name(self.scope, ast.Load()), self.value, ast.Load())
            return ast.Name(self.value, ast.Load())
        if self.type == ValueType.ConstantValue:
            return ast.Constant(self.value)
        if self.type in (ValueType.TupleValue, ValueType.ListValue):
            elts = [v.to_ast() for v in self.value]
            return (ast.Tuple if self.type == ValueType.TupleValue else ast.List)(elts, ast.Load())
        if self.type == ValueType.UnsupportedValue:  # an expression kept as its source
            return ast.parse(self.value, mode="eval").body
        raise ValueError(f"For 'rewrite', a {self.type} value cannot be written as code.")

    def __str__(self) -> str:
        if self.type == ValueType.ConstantValue:
            return str(self.value)
        if self.type == ValueType.NamingValue:
            return f"{self.scope}.{self.value}" if self.scope else str(self.value)
        if self.type == ValueType.CustomObjValue:
            return f"CustomObj: {self.value}"
        return f"Illegal ValueType: {self.type}"

    __repr__ = __str__

    def __eq__(self, other) -> bool:
        return self is other or (isinstance(other, ScopedValue) and self.type == other.type
                                 and self.scope == other.scope and self.value == other.value)

    def __hash__(self):
        return hash((self.type, self.scope, str(self.value)))


def value_of(expr: ast.expr) -> ScopedValue:
    """The ScopedValue of an argument expression of a flattened statement."""
    if isinstance(expr, ast.Name):
        return ScopedValue.create_naming_value(expr.id)
    if isinstance(expr, ast.Attribute) and isinstance(expr.value, ast.Name):
        return ScopedValue.create_naming_value(expr.attr, expr.value.id)
    if isinstance(expr, ast.Constant):
        return ScopedValue.create_variable_value(expr.value)
    return ScopedValue(ValueType.UnsupportedValue, "", ast.unparse(expr))
