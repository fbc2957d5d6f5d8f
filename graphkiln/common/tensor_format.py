"""Tensor text exactly as MindSpore 2.10 prints it.

Two formats exist, and MindSpore uses both:

* ``str(t)`` / ``print(t)`` is NumPy's text of the values, as NumPy 1.26 (the version
  MindSpore 2.10 ships with) writes it: ``[1 2 3]``, ``[[1.5 2. ]\\n [3.  4. ]]``, and
  for a 0-d tensor the NumPy scalar text (``2.5``, ``10000000000.0``, ``True``).
* ``repr(t)`` (and what ``ops.Print`` writes) is MindSpore's own C++ text:
  ``Tensor(shape=[2], dtype=Float32, value= [ 1.50000000e+00,  2.00000000e+00])``.
  Its rules, measured on MindSpore 2.10 (see tests/common/test_tensor_format.py):

  - a 0-d value is written as C++ ``operator<<`` writes it: ``%g`` for floats
    (float16 widened to float), ``-nan`` for a NaN whose sign bit is set;
  - in an array, floats are ``%15.8e`` (float16: ``%11.4e``), NaN and inf right-aligned
    in that width; ints are right-aligned to the widest printed value; bools are
    right-aligned to 5 (`` True``/``False``);
  - a 1-D tensor of more than 1000 elements shows its first and last 3; in a tensor
    of 2 or more dimensions every dimension longer than 6 shows its first and last 3;
  - a 1-D tensor breaks its line after every 24 ints or 12 floats/bools;
  - nested rows are separated by ``,\\n`` plus one space per level, with no blank lines.
"""
from __future__ import annotations

import math

import numpy as np

_EDGE = 3                  # items shown at each end of a summarised dimension
_SUMMARY_1D = 1000         # a 1-D tensor longer than this is summarised
_SUMMARY_ND = 2 * _EDGE    # in N-D, a dimension longer than this is summarised
_PER_LINE_INT = 24         # 1-D line breaks (items per line)
_PER_LINE_OTHER = 12

# NumPy >= 2.3 switches float16/float32 arrays to scientific notation earlier than
# NumPy 1.26 did; legacy="2.2" restores the 1.26 rule (the only difference for str).
_NP_LEGACY = "2.2" if np.lib.NumpyVersion(np.__version__) >= "2.3.0" else None


# ----------------------------------------------------------------------------- str
def _numpy_scalar_str(x) -> str:
    """``str()`` of a NumPy 1.26 scalar (NumPy 2 writes float32 ``1e10`` as ``1e+10``)."""
    if isinstance(x, np.bool_):
        return str(bool(x))
    if isinstance(x, np.integer):
        return str(int(x))
    if isinstance(x, np.floating):
        v = float(x)
        if math.isnan(v) or math.isinf(v):
            return str(v)
        if v == 0 or 1e-4 <= abs(v) < 1e16:
            return np.format_float_positional(x, unique=True, trim="0")
        return np.format_float_scientific(x, unique=True, trim="-")
    return str(x)


def _numpy_126_options() -> dict:
    if _NP_LEGACY is not None and np.get_printoptions().get("legacy") is False:
        return {"legacy": _NP_LEGACY}
    return {}


def tensor_str(array: np.ndarray, dtype=None) -> str:
    """``print(t)`` / ``str(t)``: NumPy 1.26's text of the values."""
    a = np.asarray(array)
    if a.ndim == 0:
        return _numpy_scalar_str(a[()])
    if a.size == 0:
        return "[]"
    return np.array2string(a, separator=" ", **_numpy_126_options())


def numpy_backed_repr(array: np.ndarray, dtype) -> str:
    """``repr(t)`` of a tensor sharing a NumPy array's memory (``Tensor.from_numpy``, the
    dataset iterators' tensors): MindSpore writes the values as NumPy 1.26 does with
    ``', '`` between items: ``Tensor(shape=[2], dtype=Float64, value= [1., 1.])``."""
    a = np.asarray(array)
    sep = "\n" if a.ndim > 1 else " "
    shape = "[" + ", ".join(str(int(d)) for d in a.shape) + "]"
    text = np.array2string(a, separator=", ", **_numpy_126_options())
    return f"Tensor(shape={shape}, dtype={dtype}, value={sep}{text})"


# ---------------------------------------------------------------------------- repr
def _c_float(v: float) -> str:
    """A float as C++ ``std::ostream << value`` writes it (``%g``, signed NaN)."""
    if math.isnan(v):
        return "-nan" if math.copysign(1.0, v) < 0 else "nan"
    return format(v, "g")


def _c_complex(z: complex) -> str:
    """A complex value as MindSpore writes it: ``%g`` parts, ``2.5-1j``."""
    sign = "-" if math.copysign(1.0, z.imag) < 0 and not math.isnan(z.imag) else "+"
    return f"{_c_float(z.real)}{sign}{_c_float(abs(z.imag))}j"


def _scalar_repr(x) -> str:
    if isinstance(x, np.complexfloating):
        return _c_complex(complex(x))
    if isinstance(x, np.bool_):
        return str(bool(x))
    if isinstance(x, np.integer):
        return str(int(x))
    return _c_float(float(x))


def _shown_index(n: int, summarise: bool):
    """Indices of the items printed along a dimension of length ``n``."""
    if summarise:
        return list(range(_EDGE)) + list(range(n - _EDGE, n))
    return list(range(n))


class _Items:
    """Formats the elements of one tensor, all with one width."""

    def __init__(self, shown: np.ndarray):
        kind = shown.dtype.kind
        self.kind = kind
        if kind == "b":
            self.width = 5
        elif kind == "c":
            self.width = 0  # complex values are not aligned
        elif kind == "f":
            half = shown.dtype == np.float16
            self.width = 11 if half else 15
            self.spec = ".4e" if half else ".8e"
        else:
            self.width = max((len(str(int(v))) for v in shown.ravel()), default=0)

    def __call__(self, x) -> str:
        if self.kind == "b":
            s = str(bool(x))
        elif self.kind == "c":
            s = _c_complex(complex(x))
        elif self.kind == "f":
            v = float(x)
            s = _c_float(v) if math.isnan(v) or math.isinf(v) else format(v, self.spec)
        else:
            s = str(int(x))
        return s.rjust(self.width)

    @property
    def per_line(self) -> int:
        return _PER_LINE_INT if self.kind in "iu" else _PER_LINE_OTHER


def _layout(a: np.ndarray, summarise_dims, fmt: _Items, depth: int) -> str:
    """The bracketed text of ``a`` (the sub-tensor at nesting level ``depth``)."""
    n = a.shape[0]
    summarise = summarise_dims[depth]
    indent = " " * (depth + 1)
    if a.ndim == 1:
        if summarise:
            head = ", ".join(fmt(a[i]) for i in range(_EDGE))
            tail = ", ".join(fmt(a[i]) for i in range(n - _EDGE, n))
            return f"[{head} ... {tail}]"
        parts = ["["]
        per_line = fmt.per_line
        for i in range(n):
            parts.append(fmt(a[i]))
            if i != n - 1:
                parts.append(", ")
            if (i + 1) % per_line == 0:
                parts.append("\n" + indent)
        parts.append("]")
        return "".join(parts)
    sep = ",\n" + indent
    rows = [_layout(a[i], summarise_dims, fmt, depth + 1) for i in _shown_index(n, summarise)]
    if summarise:
        return ("[" + sep.join(rows[:_EDGE]) + sep + "...\n" + indent
                + sep.join(rows[_EDGE:]) + "]")
    return "[" + sep.join(rows) + "]"


def _value_text(a: np.ndarray) -> str:
    if a.ndim == 0:
        return _scalar_repr(a[()])
    if a.size == 0:
        return ""
    if a.ndim == 1:
        summarise_dims = [a.size > _SUMMARY_1D]
    else:
        summarise_dims = [d > _SUMMARY_ND for d in a.shape]
    shown = a[np.ix_(*(_shown_index(d, s) for d, s in zip(a.shape, summarise_dims)))]
    return _layout(a, summarise_dims, _Items(shown), 0)


def tensor_repr(array: np.ndarray, dtype) -> str:
    """``repr(t)``: ``Tensor(shape=[...], dtype=..., value=...)`` as MindSpore writes it."""
    a = np.asarray(array)
    sep = "\n" if a.ndim > 1 else " "
    shape = "[" + ", ".join(str(int(d)) for d in a.shape) + "]"
    return f"Tensor(shape={shape}, dtype={dtype}, value={sep}{_value_text(a)})"


def tensor_graph_text(array: np.ndarray, dtype) -> str:
    """What ``ops.Print`` writes for a tensor inside a compiled graph (MindSpore's graph
    kernel): a 0-d value alone (``3``), else ``repr``'s layout without commas and with no
    space after ``value=``: ``Tensor(shape=[2], dtype=Float32, value=[ 1.5e+00  2.0e+00])``
    (the numbers written as ``repr`` writes them)."""
    a = np.asarray(array)
    if a.ndim == 0:
        return _scalar_repr(a[()])
    sep = "\n" if a.ndim > 1 else ""
    shape = "[" + ", ".join(str(int(d)) for d in a.shape) + "]"
    return f"Tensor(shape={shape}, dtype={dtype}, value={sep}{_value_text(a).replace(',', '')})"
