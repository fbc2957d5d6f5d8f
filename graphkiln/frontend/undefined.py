"""Placeholders for variables that have no value on some path of converted code."""
from __future__ import annotations


class Undefined:
    """The value of a variable that has no value on some path (e.g. set in one branch only)."""

    __slots__ = ("name", "reason")

    def __init__(self, name: str, reason: str = ""):
        self.name = name
        self.reason = reason

    def error(self) -> Exception:
        msg = f"The local variable '{self.name}' is used before it has a value"
        if self.reason:
            msg += f": {self.reason}"
        return NameError(msg + ".")

    def _fail(self, *args, **kwargs):
        raise self.error()

    __add__ = __radd__ = __sub__ = __rsub__ = __mul__ = __rmul__ = _fail
    __truediv__ = __rtruediv__ = __getitem__ = __call__ = __bool__ = __len__ = _fail
    __lt__ = __le__ = __gt__ = __ge__ = __neg__ = __iter__ = _fail

    def __getattr__(self, item):
        if item.startswith("__"):
            raise AttributeError(item)
        raise self.error()

    def __repr__(self) -> str:
        return f"<undefined {self.name}>"


class Unjoinable(Undefined):
    """A variable the two branches of a tensor ``if`` give values that cannot be joined
    (two different functions...): ``error`` (a TypeError) is raised where it is used."""

    __slots__ = ("join_error",)

    def __init__(self, name: str, join_error: TypeError):
        super().__init__(name)
        self.join_error = join_error

    def error(self) -> Exception:
        return self.join_error


class UndefinedReturn(Undefined):
    """Placeholder of a function's return value before a ``return`` ran (guarded by a flag)."""

    __slots__ = ()


def undefined(name: str, module_scope: dict | None = None):
    """The value of a graph function's local ``name`` before its first assignment: as
    MindSpore's graphs, the module's global of that name if there is one (``z += i`` in a
    loop updates a copy of the global ``z``), else a placeholder whose use fails."""
    if module_scope is not None and name in module_scope:
        return module_scope[name]
    return Undefined(name, "it is not assigned on every path before this use")
