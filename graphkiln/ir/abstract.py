"""Abstract values: what the compiler knows about a value without running it."""
from __future__ import annotations

from ..common import dtype as mstype


class Abstract:
    """Base of all abstract values."""

    __slots__ = ()

    def text(self) -> str:  # MindSpore's IR spelling
        return repr(self)


class AbstractTensor(Abstract):
    """A tensor of known dtype and shape; ``value`` holds the array when it is a constant."""

    __slots__ = ("dtype", "shape", "value")

    def __init__(self, dtype: mstype.Type, shape: tuple, value=None):
        self.dtype = dtype
        self.shape = tuple(shape)
        self.value = value

    @property
    def ndim(self) -> int:
        return len(self.shape)

    def key(self):
        return ("T", self.dtype.name, self.shape)

    def __eq__(self, other):
        return (type(other) is type(self) and other.dtype is self.dtype
                and other.shape == self.shape)

    def __hash__(self):
        return hash(self.key())

    def text(self) -> str:
        return f"<Tensor[{self.dtype}], ({', '.join(map(str, self.shape))})>"

    __repr__ = text


class AbstractRef(AbstractTensor):
    """A weight (a live ``Parameter``): reads go through ``Load``, writes through ``Assign``."""

    __slots__ = ("ref_key",)

    def __init__(self, dtype, shape, ref_key: str):
        super().__init__(dtype, shape)
        self.ref_key = ref_key

    def key(self):
        return ("Ref", self.dtype.name, self.shape)

    def text(self) -> str:
        dims = ", ".join(map(str, self.shape))
        return f"<Ref[Tensor[{self.dtype}]], ({dims}), ref_key=:{self.ref_key}>"

    __repr__ = text


class _Unknown:
    """The value of a scalar known only by its type (a ``mutable`` number)."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "<unknown>"

    def __reduce__(self):
        return "UNKNOWN"  # pickles as this module's singleton


UNKNOWN = _Unknown()


class AbstractScalar(Abstract):
    """A Python scalar: a constant (number, bool, string, None, slice, Ellipsis, type...),
    or, with ``value`` :data:`UNKNOWN`, a number of type ``kind`` known only at run time."""

    __slots__ = ("value", "kind")

    def __init__(self, value, kind: type | None = None):
        self.value = value
        self.kind = type(value) if kind is None else kind

    @classmethod
    def unknown(cls, kind: type) -> AbstractScalar:
        return cls(UNKNOWN, kind)

    @property
    def is_known(self) -> bool:
        return self.value is not UNKNOWN

    def key(self):
        return ("S", self.kind.__name__, repr(self.value))

    def __eq__(self, other):
        return type(other) is AbstractScalar and self.key() == other.key()

    def __hash__(self):
        return hash(self.key())

    def text(self) -> str:
        tname = {bool: "Bool", int: "Int64", float: "Float32", str: "String"}.get(self.kind)
        if tname is None:
            return f"<{self.kind.__name__}, {self.value!r}>"
        return f"<{tname}, NoShape>"

    __repr__ = text


class AbstractTuple(Abstract):
    """A tuple (or list, with ``is_list``) of abstract values."""

    __slots__ = ("elements", "is_list")

    def __init__(self, elements, is_list: bool = False):
        self.elements = tuple(elements)
        self.is_list = is_list

    def key(self):
        return ("L" if self.is_list else "Tup", tuple(e.key() for e in self.elements))

    def __eq__(self, other):
        return isinstance(other, AbstractTuple) and self.key() == other.key()

    def __hash__(self):
        return hash(self.key())

    def text(self) -> str:
        name = "List" if self.is_list else "Tuple"
        return f"<{name}[{', '.join(e.text() for e in self.elements)}]>"

    __repr__ = text


class AbstractSequence(Abstract):
    """A tuple (or list, with ``is_list``) whose length is known only at run time (a
    ``mutable(..., dynamic_len=True)`` sequence); every element has the abstract
    ``element`` (None: the sequence is empty and its elements have no type yet)."""

    __slots__ = ("element", "is_list")

    def __init__(self, element: Abstract | None, is_list: bool = False):
        self.element = element
        self.is_list = is_list

    def key(self):
        return ("DL" if self.is_list else "DT",
                None if self.element is None else self.element.key())

    def __eq__(self, other):
        return isinstance(other, AbstractSequence) and self.key() == other.key()

    def __hash__(self):
        return hash(self.key())

    def text(self) -> str:
        name = "List" if self.is_list else "Tuple"
        inner = "Any" if self.element is None else self.element.text()
        return f"<{name}[{inner}...], dynamic length>"

    __repr__ = text


class AbstractMonad(Abstract):
    """The ``U`` (memory) or ``IO`` state token."""

    __slots__ = ("kind",)

    def __init__(self, kind: str):
        self.kind = kind

    def key(self):
        return ("M", self.kind)

    def __eq__(self, other):
        return isinstance(other, AbstractMonad) and other.kind == self.kind

    def __hash__(self):
        return hash(self.key())

    def text(self) -> str:
        return f"<{'UMonad' if self.kind == 'U' else 'IOMonad'}, NoShape>"

    __repr__ = text


class AbstractFunc(Abstract):
    """A function value (a graph or a primitive)."""

    __slots__ = ("fn",)

    def __init__(self, fn):
        self.fn = fn

    def key(self):
        return ("F", id(self.fn))

    def text(self) -> str:
        return "<Func, NoShape>"

    __repr__ = text


class AbstractPyObject(Abstract):
    """A Python object computed when the graph runs (the run-time fallback, ``PyExecute``):
    nothing about it is known while compiling."""

    __slots__ = ()

    def key(self):
        return ("PyObject",)

    def __eq__(self, other):
        return isinstance(other, AbstractPyObject)

    def __hash__(self):
        return hash(self.key())

    def text(self) -> str:
        return "<PyObject, NoShape>"

    __repr__ = text


PY_OBJECT_ABS = AbstractPyObject()
U_ABS = AbstractMonad("U")
IO_ABS = AbstractMonad("IO")


def is_unknown_scalar(a: Abstract) -> bool:
    """True for the abstract of a run-time scalar (a ``mutable`` number)."""
    return type(a) is AbstractScalar and a.value is UNKNOWN


def shape_of(a: Abstract) -> tuple:
    return a.shape if isinstance(a, AbstractTensor) else ()


def widen(a: Abstract, b: Abstract) -> Abstract | None:
    """The least abstract value covering both ``a`` and ``b`` (the join of two branches or
    of a loop state with what the body makes of it): tensors of one dtype and rank whose
    dimensions differ give ``-1`` there, tuples widen element by element. None when they
    cannot join (another dtype, rank or kind)."""
    if type(a) is AbstractTensor and type(b) is AbstractTensor:  # the common case first
        if a.dtype is not b.dtype or len(a.shape) != len(b.shape):
            return None
        if a.shape == b.shape:
            return a
        return AbstractTensor(a.dtype, tuple(d if d == e else -1
                                             for d, e in zip(a.shape, b.shape)))
    if a == b:
        return a
    if isinstance(a, AbstractTuple) and isinstance(b, AbstractTuple) \
            and len(a.elements) == len(b.elements) and a.is_list == b.is_list:
        elements = [widen(x, y) for x, y in zip(a.elements, b.elements)]
        return None if None in elements else AbstractTuple(elements, a.is_list)
    return None
