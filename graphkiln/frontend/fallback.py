"""The run-time fallback: Python that needs a graph value's contents runs when the graph runs.

``x.asnumpy()``, ``int(x)``, NumPy functions of graph values and file I/O in graph code
become ``PyExecute`` nodes (an IO effect, so they run in program order); their results are
:class:`PyObject` proxies. Operators, attributes, items and calls on a proxy record more
``PyExecute`` nodes; a proxy returned by the graph is the Python object itself. What
needs the value while compiling (``if obj:``, ``len(obj)``, iterating it, a graph op on
it) raises a ``TypeError`` naming the line.
"""
from __future__ import annotations

import functools
import operator

import numpy as np

from ..common import dtype as mstype
from ..common.tensor import Tensor
from ..errors import user_location
from ..ir import tracing_state as state
from ..ops.defs.py_execute import PyExecute

_NEEDS_VALUE = ("A value computed by Python when the graph runs (from {origin}) was used "
                "where graph mode needs it while compiling ({what}). Use it only in Python "
                "calls (NumPy, asnumpy(), int(), print) or return it from the graph; for "
                "graph computation keep the Tensor.")


class PyObject:
    """A Python value known only when the graph runs: the output of a ``PyExecute`` node."""

    __slots__ = ("node", "origin")

    def __init__(self, node, origin: str = "a run-time Python call"):
        self.node = node
        self.origin = origin

    def _needs_value(self, what: str):
        loc = user_location(3)
        where = f"\n{loc.describe()}" if loc else ""
        return TypeError(_NEEDS_VALUE.format(origin=self.origin, what=what) + where)

    def __bool__(self):
        raise self._needs_value("a truth value")

    def __int__(self):
        raise self._needs_value("int()")

    def __float__(self):
        raise self._needs_value("float()")

    def __index__(self):
        raise self._needs_value("an index")

    def __len__(self):
        raise self._needs_value("len()")

    def __iter__(self):
        raise self._needs_value("iteration")

    def __array__(self, dtype=None, copy=None):
        raise self._needs_value("a NumPy array while compiling")

    def __getattr__(self, name: str):
        if name.startswith("__"):
            raise AttributeError(name)
        return run_time(getattr, self, name)

    def __getitem__(self, key):
        return run_time(operator.getitem, self, key)

    def __call__(self, *args, **kwargs):
        return run_time(self_call, self, *args, **kwargs)

    def __repr__(self) -> str:
        return f"PyObject(<value known when the graph runs, from {self.origin}>)"


def self_call(fn, *args, **kwargs):
    return fn(*args, **kwargs)


def _operator(op, reflected: bool = False):
    if reflected:
        return lambda self, other: run_time(op, other, self)
    return lambda self, other: run_time(op, self, other)


for _name, _op in [("add", operator.add), ("sub", operator.sub), ("mul", operator.mul),
                   ("truediv", operator.truediv), ("floordiv", operator.floordiv),
                   ("mod", operator.mod), ("pow", operator.pow),
                   ("matmul", operator.matmul)]:
    setattr(PyObject, f"__{_name}__", _operator(_op))
    setattr(PyObject, f"__r{_name}__", _operator(_op, reflected=True))
for _name, _op in [("lt", operator.lt), ("le", operator.le), ("gt", operator.gt),
                   ("ge", operator.ge), ("eq", operator.eq), ("ne", operator.ne)]:
    setattr(PyObject, f"__{_name}__", _operator(_op))
PyObject.__neg__ = lambda self: run_time(operator.neg, self)
PyObject.__abs__ = lambda self: run_time(operator.abs, self)
PyObject.__hash__ = object.__hash__


def _scalar_of_one_item(convert):
    """``float``/``int``/``complex`` as NumPy 1.x (MindSpore's) applies them to an array of
    one item of any rank; NumPy 2 refuses arrays that are not 0-d."""
    def call(x=0, *rest):
        if isinstance(x, np.ndarray) and x.size == 1:
            x = x.reshape(()).item()
        return convert(x, *rest)
    return call


_SCALAR_OF_ONE_ITEM = {f: _scalar_of_one_item(f) for f in (float, int, complex)}


def run_time(fn, *args, **kwargs) -> PyObject:
    """Record ``fn(*args, **kwargs)`` to run when the graph runs; its result as a proxy."""
    fn = _SCALAR_OF_ONE_ITEM.get(fn, fn) if type(fn) is type else fn
    if kwargs:
        fn = functools.partial(_with_keywords, fn, tuple(kwargs))
        args = args + tuple(kwargs.values())
    return PyExecute(fn, *args, tensor_dtypes=_tensor_dtypes(args))


def _tensor_dtypes(args: tuple) -> tuple:
    return tuple(a.dtype if isinstance(a, Tensor) else None for a in args)


def condition(x):
    """A run-time object used as a condition (``if obj:``, ``while``, ``and``/``or``,
    ``not``): its truth value at run time, as a symbolic bool Tensor; anything else as
    it is."""
    if type(x) is PyObject:
        return PyExecute(bool, x, out_dtype=mstype.bool_)
    return x


def _with_keywords(fn, names: tuple, *values):
    n = len(values) - len(names)
    return fn(*values[:n], **dict(zip(names, values[n:])))


def _host_copy(t: Tensor) -> np.ndarray:
    return np.array(t.asnumpy(), copy=True)


def asnumpy_at_run_time(t: Tensor):
    """``t.asnumpy()`` of a symbolic Tensor while tracing: the array, at run time."""
    return run_time(_host_copy, t)


# NumPy functions that touch files: they run when the graph runs, in program order, even
# with constant arguments (a graph that saves a file and loads it back)
_FILE_IO = frozenset(id(f) for f in (np.save, np.savez, np.savez_compressed, np.savetxt,
                                     np.load, np.loadtxt, np.genfromtxt, np.fromfile))


def _is_numpy(f) -> bool:
    return isinstance(f, np.ufunc) or (getattr(f, "__module__", None) or "").startswith(
        "numpy")


def wants_run_time(f, args: tuple, kwargs: dict) -> bool:
    """True when calling the (non-graph) callable ``f`` on these arguments while tracing
    must be deferred to run time."""
    if state.current() is None:
        return False
    if id(f) in _FILE_IO:
        return True
    values = args + tuple(kwargs.values()) if kwargs else args
    for a in values:
        if isinstance(a, PyObject):
            return True
        if isinstance(a, Tensor) and a._node is not None and (
                f is int or f is float or _is_numpy(f)
                or type(getattr(f, "__self__", None)) is str):  # "{}".format(x)...
            return True
    return False


Tensor._run_time_asnumpy = staticmethod(asnumpy_at_run_time)
