"""``Tensor``: a NumPy array with a MindSpore dtype, or a symbolic value while tracing."""
from __future__ import annotations

import numpy as np

import graphkiln.common.dtype as mstype

from .capture_flags import refuse
from .symbol import Symbol
from .tensor_format import numpy_backed_repr, tensor_repr, tensor_str

_GRAPH_BOOL_HINT = (
    "A Tensor was used where Python needs a concrete value ({what}) inside a graph. "
    "Its value is only known when the graph runs. Tensor conditions are supported in "
    "'if', 'while', 'for', ternaries and 'and'/'or'/'not' of functions graphkiln compiles "
    "(construct, @jit functions and what they call); elsewhere use ops.select, or compute "
    "the value outside the graph.")


_LONGLONG = np.dtype(np.longlong)


def as_mindspore_array(a: np.ndarray) -> np.ndarray:
    """``a`` as MindSpore hands arrays to users: its int64 arrays have C ``long long`` items
    (the same values and dtype, but ``repr`` writes ``dtype=int64``)."""
    if a.dtype.char == "l" and a.dtype == _LONGLONG:
        return a.view(_LONGLONG)
    return a


def _infer_list_type(data) -> mstype.Type:
    try:
        flat = np.asarray(data)
    except ValueError:  # a ragged nesting
        raise TypeError(f"For Tensor, the input_data is {data!r} that contain unsupported "
                        f"element (the nested lists must be of equal lengths).") from None
    if flat.dtype == np.bool_:
        return mstype.bool_
    if flat.dtype.kind in "iu":
        return mstype.int64
    if flat.dtype.kind == "f":
        return mstype.float32
    if flat.dtype.kind == "c":
        return mstype.complex128
    raise TypeError(f"For 'Tensor', the input data {data!r} has an unsupported type "
                    f"{flat.dtype}.")


def _int_array(data: int, dtype: mstype.Type | None) -> np.ndarray:
    """A Python int as MindSpore stores it: int64, or uint64 above int64's range, then cast
    (wrapping, as C casts do) to ``dtype``; beyond 64 bits: RuntimeError."""
    if not -2 ** 63 <= data < 2 ** 64:
        raise RuntimeError(f"Cannot construct Tensor from the Python int {data}: it is "
                           f"outside the range of 64-bit integers.")
    held = np.asarray(data, np.int64 if data < 2 ** 63 else np.uint64)
    if dtype is None:
        return held
    with np.errstate(over="ignore"):  # (70000 as float16 is inf, as in MindSpore)
        return held.astype(dtype.np_dtype)


def _to_array(data, dtype: mstype.Type | None) -> np.ndarray:
    """Convert user input data to an ndarray following MindSpore's default types."""
    if isinstance(data, Tensor):
        arr = data._host_array()
        return arr.astype(dtype.np_dtype) if dtype is not None else arr.copy()
    if isinstance(data, np.ndarray):
        if dtype is None:
            mstype.from_numpy(data.dtype)  # validates
            return data.copy()
        return data.astype(dtype.np_dtype)
    if isinstance(data, np.generic):
        t = dtype or mstype.from_numpy(data.dtype)
        return np.asarray(data, dtype=t.np_dtype)
    if isinstance(data, int) and not isinstance(data, bool):
        return _int_array(data, dtype)
    if isinstance(data, (bool, float, complex)):
        t = dtype or mstype.scalar_type(data)
        return np.asarray(data, dtype=t.np_dtype)
    if isinstance(data, (list, tuple)):
        if any(isinstance(e, Tensor) for e in data):
            data = [e._host_array() if isinstance(e, Tensor) else e for e in data]
        t = dtype or _infer_list_type(data)
        try:
            return np.asarray(data, dtype=t.np_dtype)
        except OverflowError:
            raise TypeError(f"For Tensor, the input_data is {data!r} that contain unsupported "
                            f"element (an int outside the range of {t}).") from None
    raise TypeError(f"For 'Tensor', the type of input_data should be one of "
                    f"['Tensor', 'ndarray', 'list', 'tuple', 'int', 'float', 'bool'], "
                    f"but got {type(data).__name__}.")


class Tensor:
    """A tensor. Concrete tensors hold ``_data`` (an ndarray); symbolic ones, made by the
    tracer, hold ``_node`` (the IR node that computes them) and ``_abs`` (its abstract);
    placeholders (``Tensor(shape=[None, 3], dtype=...)``) hold neither, and their shape
    (``-1`` for an unknown dimension, ``(-2,)`` for an unknown rank) in ``_abs``.
    """

    # optional slots, read with getattr: ``_pending_init`` is the initializer of a Tensor
    # built with ``init=`` until its values are read (MindSpore prints it as uninitialized);
    # its values are drawn when ``_data`` is first read (``__getattr__``; its shape waits in
    # ``_abs``), so initializers draw their seeds in the order the values are used;
    # ``_numpy_backed`` marks a Tensor made by ``from_numpy`` (MindSpore prints it NumPy-style)
    # ``_symbols`` holds a set_inputs placeholder's ``Symbol`` per dimension (or None)
    # ``_view`` marks a PyNative result of a primitive MindSpore returns as a strided view
    # of its input (``ir.primitive.VIEW_OPS``): its layout is its array's
    # ``__dict__``: user attributes (``x.attr = v``), which MindSpore's Tensor accepts
    __slots__ = ("_data", "_dtype", "_node", "_abs", "_pending_init", "_numpy_backed",
                 "_symbols", "_view", "__weakref__", "__dict__")
    _is_param = False
    # set by common/initializer.py: the values an ``init`` (name or Initializer) gives
    _initial_values = None

    def __init__(self, input_data=None, dtype=None, shape=None, init=None,
                 const_arg=False):
        if dtype is mstype.string:  # MindSpore 2.10 keeps the data's own type then
            dtype = None
        t = mstype.check_storable(mstype.to_type(dtype)) if dtype is not None else None
        if input_data is None and _is_dynamic_shape(shape, dtype):
            if t is None or init is not None:
                raise ValueError("If setting dynamic shape, dtype must not be None, init "
                                 "must be None")
            self._init_placeholder(t, shape)
            return
        if input_data is None and shape is not None:
            t = t or mstype.float32
            if init is not None:
                self._pending_init = init
                self._abs = (shape,) if isinstance(shape, int) else tuple(shape)
                self._dtype = t
                self._node = None
                return
            else:
                input_data = np.zeros(shape, dtype=t.np_dtype)
        arr = _to_array(input_data, t)
        if t is None and getattr(input_data, "_numpy_backed", False):
            self._numpy_backed = True  # MindSpore's Tensor(t) shares t's NumPy memory
        self._data = arr
        self._dtype = t or mstype.from_numpy(arr.dtype)
        self._node = None
        self._abs = None
        if COPY_RECORDER and isinstance(input_data, Tensor):
            COPY_RECORDER[0](input_data, self)

    def _init_placeholder(self, t: mstype.Type, shape) -> None:
        """A Tensor without data standing for every tensor of its dtype and (partly known)
        shape: ``None`` or ``-1`` is an unknown dimension, ``shape=None`` (or ``[-2]``) an
        unknown rank. Used for ``Cell.set_inputs`` and ``jit(input_signature=...)``."""
        dims = (DYNAMIC_RANK,) if shape is None else tuple(
            UNKNOWN_DIM if d is None or isinstance(d, Symbol) else int(d) for d in shape)
        if shape is not None and any(isinstance(d, Symbol) for d in shape):
            self._symbols = tuple(d if isinstance(d, Symbol) else None for d in shape)
        self._data = None
        self._dtype = t
        self._node = None
        self._abs = dims

    @classmethod
    def _from_array(cls, arr, dtype: mstype.Type | None = None) -> Tensor:
        t = object.__new__(Tensor)
        arr = np.asarray(arr)
        t._data = arr
        t._dtype = dtype or mstype.from_numpy(arr.dtype)
        t._node = None
        t._abs = None
        return t

    @staticmethod
    def from_numpy(array: np.ndarray) -> Tensor:
        """A Tensor sharing ``array``'s memory (MindSpore's ``Tensor.from_numpy``)."""
        t = Tensor._from_array(np.require(array, requirements="C"))  # keeps a 0-d shape
        t._numpy_backed = True
        return t

    @classmethod
    def _symbolic(cls, node, abstract) -> Tensor:
        t = object.__new__(Tensor)
        t._data = None
        t._dtype = abstract.dtype
        t._node = node
        t._abs = abstract
        return t

    # ------------------------------------------------------------ properties
    @property
    def is_symbolic(self) -> bool:
        return self._node is not None

    @property
    def dtype(self) -> mstype.Type:
        return self._dtype

    # set by the ops (ops/dynamic_shape.py): the shape of a symbolic Tensor with unknown
    # dimensions, each unknown one a run-time int read from a ``Shape`` node
    _symbolic_shape = None

    @property
    def shape(self) -> tuple:
        if self._node is not None:
            s = self._abs.shape
            if UNKNOWN_DIM in s and Tensor._symbolic_shape is not None:
                return Tensor._symbolic_shape(self, 2)
            return s
        if not _has_data(self) or self._data is None:
            return self._abs
        return self._data.shape

    def __getattr__(self, name: str):
        """Draws the values of a Tensor built with ``init=`` when ``_data`` is first read."""
        if name != "_data" or getattr(self, "_pending_init", None) is None:
            raise AttributeError(f"'{type(self).__name__}' object has no attribute '{name}'")
        data = Tensor._initial_values(self._pending_init, self._abs, self._dtype)
        self._data, self._abs = data, None
        return data

    @property
    def is_placeholder(self) -> bool:
        """True for a Tensor without data that only describes inputs (``set_inputs``)."""
        return self._data is None and self._node is None

    @property
    def ndim(self) -> int:
        return len(self.shape)

    @property
    def size(self) -> int:
        return self._size_for_caller()

    def _size_for_caller(self, depth: int | None = 3) -> int:
        """The number of elements; with unknown dimensions, a run-time int for user code
        ``depth`` frames up (the caller of ``size``), or always (``depth`` None)."""
        if self._node is not None and UNKNOWN_DIM in self._abs.shape \
                and Tensor._symbolic_shape is not None:
            n = 1
            for d in Tensor._symbolic_shape(self, depth):
                n = n * d  # a run-time int when read by user code
            return n
        return int(np.prod(self.shape, dtype=np.int64))

    def dim(self) -> int:
        return self.ndim

    def __len__(self) -> int:
        if not self.shape:
            raise TypeError("len() of unsized object (a 0-D Tensor)")
        return self.shape[0]

    # set by the run-time fallback (frontend/fallback.py): ``asnumpy()`` of a symbolic
    # Tensor while tracing gives the array computed when the graph runs
    _run_time_asnumpy = None

    @property
    def has_init(self) -> bool:
        """True while a Tensor built with ``init=`` has not had its values read."""
        return getattr(self, "_pending_init", None) is not None

    @property
    def init(self):
        """The initializer of a Tensor built with ``init=``, until its values are read."""
        return getattr(self, "_pending_init", None)

    def init_data(self, slice_index=None, shape=None, opt_shape=None) -> Tensor:
        """Draws the values of a Tensor built with ``init=`` (if not yet drawn); returns
        it."""
        if getattr(self, "_pending_init", None) is not None:
            self._data  # noqa: B018  (drawn by __getattr__)
            self._pending_init = None
        return self

    def asnumpy(self) -> np.ndarray:
        self.init_data()
        if self._node is not None and Tensor._run_time_asnumpy is not None:
            return Tensor._run_time_asnumpy(self)
        return as_mindspore_array(self._host_array())

    def _offload(self) -> None:
        """MindSpore moves a device Tensor's data to the host; a graphkiln Tensor's data is
        on the host already, so there is nothing to move."""

    def _load(self) -> None:
        """The reverse of :meth:`_offload` (host to device): nothing to move either."""

    def _host_array(self) -> np.ndarray:
        if self._node is not None:
            raise RuntimeError(_GRAPH_BOOL_HINT.format(what="asnumpy()"))
        if self._data is None:
            raise ValueError(f"negative dimensions are not allowed: the Tensor of shape "
                             f"{list(self._abs)} is a placeholder for set_inputs or "
                             f"input_signature and has no data.")
        return np.asarray(self._data)

    def __array__(self, dtype=None, copy=None):
        a = self._host_array()
        return a.astype(dtype) if dtype is not None else a

    def _host_item(self):
        """The Python number a concrete one-element tensor holds (``ops/tensor_methods.py``
        makes ``item`` give a graph value's run-time number)."""
        a = self._host_array()
        if a.size != 1:
            raise ValueError("For 'Tensor.item', the tensor must have exactly one element, "
                             f"but got shape {a.shape}.")
        return a.item()

    item = _host_item

    def tolist(self):
        if self._node is not None and Tensor._run_time_asnumpy is not None:
            return Tensor._run_time_asnumpy(self).tolist()  # a list when the graph runs
        return self._host_array().tolist()

    # ------------------------------------------------- Python value conversions
    def _concrete(self, what: str) -> np.ndarray:
        if self._node is not None:
            raise TypeError(_GRAPH_BOOL_HINT.format(what=what))
        return np.asarray(self._data)

    def __bool__(self) -> bool:
        a = self._concrete("bool()")
        if a.size != 1:
            raise ValueError(f"The tensor should have only one element, but got {a.size}, "
                             f"more than one element is ambiguous.")
        return bool(a.reshape(()))

    def __int__(self) -> int:
        a = self._concrete("int()")
        return int(a.reshape(()))

    def __float__(self) -> float:
        a = self._concrete("float()")
        return float(a.reshape(()))

    def __index__(self) -> int:
        a = self._concrete("an index")
        if a.dtype.kind not in "iu" or a.size != 1:
            raise TypeError("only integer scalar Tensors can be converted to an index")
        return int(a.reshape(()))

    __hash__ = object.__hash__

    # ------------------------------------------------------------ printing
    def __str__(self) -> str:
        if self.has_init:
            sep = "\n" if len(self.shape) > 1 else ""
            return (f"Tensor(shape={list(self.shape)}, dtype={self._dtype}, "
                    f"value={sep}<uninitialized>)")
        if self._data is None and self._node is None:
            return repr(self)
        if self._node is not None:
            refuse("str() of a graph value is known only when the graph runs")
            return f"Tensor(shape={list(self.shape)}, dtype={self._dtype}, value=<symbolic>)"
        return tensor_str(np.asarray(self._data), self._dtype)

    def __repr__(self) -> str:
        if self.has_init:  # MindSpore writes the unallocated memory: zeros
            return tensor_repr(np.zeros(self.shape, self._dtype.np_dtype), self._dtype)
        if self._data is None and self._node is None:
            return f"Tensor(shape={list(self._abs)}, dtype={self._dtype}, value= )"
        if self._node is not None:
            refuse("repr() of a graph value is known only when the graph runs")
            return f"Tensor(shape={list(self.shape)}, dtype={self._dtype}, value=<symbolic>)"
        if getattr(self, "_numpy_backed", False):
            return numpy_backed_repr(np.asarray(self._data), self._dtype)
        return tensor_repr(np.asarray(self._data), self._dtype)

    def __format__(self, spec) -> str:
        if spec:
            return format(self._host_item(), spec)
        return str(self)

    def __reduce__(self):
        return (Tensor, (self._host_array(), self._dtype))

    def __deepcopy__(self, memo):
        if self._node is not None:  # in a graph: a copy of the value computed there
            return self.copy()
        if self.is_placeholder:  # a set_inputs placeholder copies to another placeholder
            copy = object.__new__(Tensor)
            copy._init_placeholder(self._dtype, self._abs)
            return copy
        return Tensor._from_array(self._host_array().copy(), self._dtype)

    def __copy__(self):
        return self.copy()

    def __iter__(self):
        if not self.shape:
            raise TypeError("iteration over a 0-D Tensor")
        return (self[i] for i in range(self.shape[0]))


UNKNOWN_DIM = -1  # a dimension known only at run time
DYNAMIC_RANK = -2  # ``shape == (-2,)``: even the rank is known only at run time


# ``Tensor(t)`` of a Tensor, as ``Cast(t, dtype)``, on a running PyNative gradient's tape
# (the ops layer sets it: MindSpore's PyNative gradient flows through such a copy)
COPY_RECORDER: list = []


def _is_dynamic_shape(shape, dtype) -> bool:
    """True when ``Tensor(shape=shape, dtype=dtype)`` without data is a placeholder."""
    if shape is None:
        return dtype is not None
    if isinstance(shape, int):
        return False
    return any(d is None or isinstance(d, Symbol) or (isinstance(d, int) and d < 0)
               for d in shape)


def is_tensor(obj) -> bool:
    """Whether ``obj`` is a Tensor (a Parameter included)."""
    return isinstance(obj, Tensor)


def tensor(input_data=None, dtype=None, shape=None, init=None) -> Tensor:
    """``ms.tensor(...)``: the functional form of the ``Tensor`` constructor."""
    return Tensor(input_data, dtype, shape, init)


def from_numpy(array: np.ndarray) -> Tensor:
    """``ms.from_numpy``: a Tensor sharing ``array``'s memory (copied only if it is not
    C-contiguous)."""
    return Tensor.from_numpy(array)


def frombuffer(buffer, dtype, count: int = -1, offset: int = 0) -> Tensor:
    """``ms.frombuffer``: a 1-D Tensor of ``dtype`` over an object exposing the buffer
    protocol, sharing its memory; ``count`` items (-1: all) from byte ``offset``."""
    itemsize = np.dtype(mstype.dtype_to_nptype(dtype)).itemsize
    size = memoryview(buffer).nbytes
    if count < -1 or count == 0:
        raise RuntimeError(f"For 'frombuffer', the 'count' must be -1 or positive, but got "
                           f"{count}.")
    if size <= 0:
        raise RuntimeError("For 'frombuffer', the buffer length must be greater than 0.")
    if not 0 <= offset < size:
        raise RuntimeError(f"For 'frombuffer', the 'offset' must be in [0, {size - 1}], but "
                           f"got {offset}.")
    if count == -1 and (size - offset) % itemsize:
        raise RuntimeError(f"For 'frombuffer', the buffer length after 'offset' "
                           f"({size - offset}) must be a multiple of the element size "
                           f"({itemsize}).")
    if count != -1 and size - offset < count * itemsize:
        raise RuntimeError(f"For 'frombuffer', the buffer holds {(size - offset) // itemsize} "
                           f"elements after 'offset', fewer than 'count' ({count}).")
    array = np.frombuffer(buffer, mstype.dtype_to_nptype(dtype), count, offset)
    return Tensor.from_numpy(array)


_DATA_SLOT = Tensor.__dict__["_data"]


def _has_data(t: Tensor) -> bool:
    """False for a Tensor built with ``init=`` whose values are not drawn yet (reading the
    slot itself never draws them)."""
    try:
        _DATA_SLOT.__get__(t, Tensor)
    except AttributeError:
        return False
    return True
