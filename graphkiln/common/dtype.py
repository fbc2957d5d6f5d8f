"""MindSpore data types (``ms.int32`` prints ``Int32``) and their NumPy twins."""
from __future__ import annotations

import numpy as np

try:  # optional: NumPy has no bfloat16; ml_dtypes (the JAX team's dtype package) adds it
    from ml_dtypes import bfloat16 as _np_bfloat16
except ImportError:  # pragma: no cover - without it bfloat16 Tensors cannot be made
    _np_bfloat16 = None


class Type:
    """A tensor element type, named and printed as MindSpore names it."""

    __slots__ = ("name", "np_dtype", "kind", "bits")

    def __init__(self, name: str, np_dtype, kind: str, bits: int):
        self.name = name
        self.np_dtype = np.dtype(np_dtype)
        self.kind = kind  # 'b' bool, 'i' signed, 'u' unsigned, 'f' float, 'c' complex
        self.bits = bits

    def __repr__(self) -> str:
        return "mindspore." + self.name.lower()

    def __str__(self) -> str:
        return self.name

    def __reduce__(self):
        return (from_name, (self.name,))

    @property
    def is_float(self) -> bool:
        return self.kind == "f"

    @property
    def is_int(self) -> bool:
        return self.kind in "iu"

    @property
    def is_complex(self) -> bool:
        return self.kind == "c"


class Bool(Type):
    """The bool element type (``isinstance(mstype.bool_, mstype.Bool)``)."""


class Int(Type):
    """Signed integer element types."""


class UInt(Type):
    """Unsigned integer element types."""


class Float(Type):
    """Floating-point element types."""


class Complex(Type):
    """Complex element types (``bits``: the whole number, both parts)."""


bool_ = Bool("Bool", np.bool_, "b", 8)
int8 = Int("Int8", np.int8, "i", 8)
int16 = Int("Int16", np.int16, "i", 16)
int32 = Int("Int32", np.int32, "i", 32)
int64 = Int("Int64", np.int64, "i", 64)
uint8 = UInt("UInt8", np.uint8, "u", 8)
float16 = Float("Float16", np.float16, "f", 16)
float32 = Float("Float32", np.float32, "f", 32)
float64 = Float("Float64", np.float64, "f", 64)

uint16 = UInt("UInt16", np.uint16, "u", 16)
uint32 = UInt("UInt32", np.uint32, "u", 32)
uint64 = UInt("UInt64", np.uint64, "u", 64)
bfloat16 = Float("BFloat16", _np_bfloat16 if _np_bfloat16 is not None else np.float32, "f", 16)
complex64 = Complex("Complex64", np.complex64, "c", 64)
complex128 = Complex("Complex128", np.complex128, "c", 128)

ALL_TYPES = (bool_, int8, int16, int32, int64, uint8, uint16, uint32, uint64,
             float16, float32, float64, complex64, complex128) + (
                 (bfloat16,) if _np_bfloat16 is not None else ())
# MindSpore's groups of element types (those graphkiln has), which model code checks against
int_type = (int8, int16, int32, int64)
uint_type = (uint8, uint16, uint32, uint64)
float_type = (float16, float32, float64, bfloat16)
complex_type = (complex64, complex128)
signed_type = int_type + float_type + complex_type
number_type = int_type + uint_type + float_type + complex_type
all_types = (bool_,) + number_type
_BY_NP = {t.np_dtype: t for t in ALL_TYPES}
_BY_NAME = {t.name: t for t in ALL_TYPES}


class TensorType:
    """The type of a Tensor, ``mstype.TensorType(element)`` (``mstype.tensor_type`` when the
    element type is not given); what ``TopTypeof`` returns for a Tensor."""

    __slots__ = ("element_type",)

    def __init__(self, element_type: Type | None = None):
        self.element_type = element_type

    def __eq__(self, other) -> bool:
        return isinstance(other, TensorType) and self.element_type is other.element_type

    def __hash__(self) -> int:
        return hash(("tensor", self.element_type))

    def __repr__(self) -> str:
        if self.element_type is None:
            return "mindspore.tensor"
        return f"mindspore.tensor[{self.element_type.name.lower()}]"

    def __str__(self) -> str:
        return "Tensor" if self.element_type is None else f"Tensor[{self.element_type}]"


class ObjectType:
    """A non-tensor value's type: ``tuple_``, ``list_``, ``dict_``, ``string``,
    ``type_none``, ``function``."""

    __slots__ = ("name",)

    def __init__(self, name: str):
        self.name = name

    def __eq__(self, other) -> bool:
        return type(other) is type(self) and other.name == self.name

    def __hash__(self) -> int:
        return hash(("object", self.name))

    def __repr__(self) -> str:
        return f"mindspore.{self.name}"

    def __str__(self) -> str:
        return self.name


tensor_type = tensor = TensorType()
tuple_ = ObjectType("tuple_")
list_ = ObjectType("list_")
dict_ = ObjectType("dict_")
string = ObjectType("string_")
type_none = ObjectType("type_none")
function = ObjectType("function")


def type_of(value):
    """MindSpore's type of a value: an element type for numbers, ``TensorType`` for
    Tensors (``isinstance(t, TensorType)``), an :class:`ObjectType` for the rest."""
    if hasattr(value, "asnumpy") or hasattr(value, "_node"):
        return tensor_type
    if isinstance(value, (bool, np.bool_)):
        return bool_
    if isinstance(value, (int, np.integer)):
        return int64
    if isinstance(value, (float, np.floating)):
        return float32
    if isinstance(value, tuple):
        return tuple_
    if isinstance(value, list):
        return list_
    if isinstance(value, dict):
        return dict_
    if isinstance(value, str):
        return string
    if value is None:
        return type_none
    if callable(value):
        return function
    raise TypeError(f"MindSpore has no type for a value of type {type(value).__name__}.")


# MindSpore aliases
int_ = int32
float_ = float32
half = float16
single = float32
double = float64
long = int64
short = int16
byte = int8
ubyte = uint8
ushort = uint16
intc = int32
intp = int64
uint = uintc = uint32  # graphkiln has no generic unsigned type, as int_ is int32
uintp = uint64
cfloat = complex64
cdouble = complex128


def check_storable(t: Type) -> Type:
    """``t``, or a TypeError when NumPy cannot hold its elements (bfloat16 without
    ml_dtypes)."""
    if t is bfloat16 and _np_bfloat16 is None:
        raise TypeError("bfloat16 Tensors need the ml_dtypes package: "
                        "pip install 'graphkiln[bf16]'.")
    return t


def from_name(name: str) -> Type:
    return _BY_NAME[name]


def from_numpy(np_dtype) -> Type:
    """The MindSpore type of a NumPy dtype; raises TypeError for unsupported ones."""
    try:
        return _BY_NP[np.dtype(np_dtype)]
    except (KeyError, TypeError):
        raise TypeError(f"graphkiln does not support the NumPy dtype {np_dtype}.") from None


def to_type(x) -> Type:
    """Accept a ``Type``, a NumPy dtype or a Python type (``int``, ``float``, ``bool``)."""
    if isinstance(x, Type):
        return x
    if x is bool:
        return bool_
    if x is int:
        return int64
    if x is float:
        return float32
    return from_numpy(x)


def promote(a: Type, b: Type) -> Type:
    """Tensor-tensor promotion, as MindSpore (and NumPy) do it."""
    if a is b:
        return a
    return from_numpy(np.promote_types(a.np_dtype, b.np_dtype))


def promote_scalar(t: Type, scalar) -> Type:
    """Result type of ``tensor(t) op python_scalar`` under MindSpore's rules.

    A Python number never widens a tensor of its own kind: ``int32 + 2 -> int32``,
    ``float16 + 2.5 -> float16``; a float with an integer or bool tensor gives float32,
    an int with a bool tensor gives int64.
    """
    if isinstance(scalar, (bool, np.bool_)):
        return t
    if isinstance(scalar, (int, np.integer)):
        return int64 if t is bool_ else t
    if isinstance(scalar, (float, np.floating)):
        return t if t.is_float or t.is_complex else float32
    if isinstance(scalar, (complex, np.complexfloating)):
        return t if t.is_complex else complex128 if t is float64 else complex64
    raise TypeError(f"unsupported scalar {scalar!r}")


def scalar_type(scalar) -> Type:
    """The type a lone Python scalar gets when it becomes a tensor."""
    if isinstance(scalar, (bool, np.bool_)):
        return bool_
    if isinstance(scalar, (int, np.integer)):
        return int64
    if isinstance(scalar, (float, np.floating)):
        return float32
    if isinstance(scalar, (complex, np.complexfloating)):
        return complex128
    raise TypeError(f"unsupported scalar {scalar!r}")


def dtype_to_nptype(type_: Type):
    """The NumPy scalar type of a MindSpore type (``mstype.dtype_to_nptype``)."""
    return to_type(type_).np_dtype.type


def dtype_to_pytype(type_: Type) -> type:
    """The Python type a MindSpore type's values convert to (``bool``, ``int``, ``float``)."""
    t = to_type(type_)
    return bool if t is bool_ else int if t.is_int else complex if t.is_complex else float


def get_py_obj_dtype(obj):
    """The MindSpore type of a Python object: ``Tensor[T]`` for a Tensor, a MindSpore type
    itself, the type of a Python/NumPy type or of a scalar's type."""
    if hasattr(obj, "asnumpy") and hasattr(obj, "dtype"):
        return TensorType(obj.dtype)
    if isinstance(obj, Type):
        return obj
    return pytype_to_dtype(obj if isinstance(obj, type) else type(obj))


def pytype_to_dtype(obj) -> Type:
    """The MindSpore type of a Python or NumPy type (``int`` gives Int64, ``float``
    Float64)."""
    if obj is float:
        return float64
    return to_type(obj)
