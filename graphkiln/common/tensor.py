"""``Tensor``: a NumPy array with a MindSpore dtype, or a symbolic value while tracing."""
from __future__ import annotations

import numpy as np

from . import dtype as mstype

_GRAPH_BOOL_HINT = (
    "A Tensor was used where Python needs a concrete value ({what}) inside a graph. "
    "Its value is only known when the graph runs. Tensor conditions are supported in "
    "'if', 'while', 'for', ternaries and 'and'/'or'/'not' of functions graphkiln compiles "
    "(construct, @jit functions and what they call); elsewhere use ops.select, or compute "
    "the value outside the graph.")


def _infer_list_type(data) -> mstype.Type:
    flat = np.asarray(data)
    if flat.dtype == np.bool_:
        return mstype.bool_
    if flat.dtype.kind in "iu":
        return mstype.int64
    if flat.dtype.kind == "f":
        return mstype.float32
    raise TypeError(f"For 'Tensor', the input data {data!r} has an unsupported type "
                    f"{flat.dtype}.")


def _to_array(data, dtype: mstype.Type | None) -> np.ndarray:
    """Convert user input data to an ndarray following MindSpore's default types."""
    if isinstance(data, Tensor):
        arr = data.asnumpy()
        return arr.astype(dtype.np_dtype) if dtype is not None else arr.copy()
    if isinstance(data, np.ndarray):
        if dtype is None:
            mstype.from_numpy(data.dtype)  # validates
            return data.copy()
        return data.astype(dtype.np_dtype)
    if isinstance(data, np.generic):
        t = dtype or mstype.from_numpy(data.dtype)
        return np.asarray(data, dtype=t.np_dtype)
    if isinstance(data, (bool, int, float)):
        t = dtype or mstype.scalar_type(data)
        return np.asarray(data, dtype=t.np_dtype)
    if isinstance(data, (list, tuple)):
        if any(isinstance(e, Tensor) for e in data):
            data = [e.asnumpy() if isinstance(e, Tensor) else e for e in data]
        t = dtype or _infer_list_type(data)
        return np.asarray(data, dtype=t.np_dtype)
    raise TypeError(f"For 'Tensor', the type of input_data should be one of "
                    f"['Tensor', 'ndarray', 'list', 'tuple', 'int', 'float', 'bool'], "
                    f"but got {type(data).__name__}.")


class Tensor:
    """A tensor. Concrete tensors hold ``_data`` (an ndarray); symbolic ones, made by the
    tracer, hold ``_node`` (the IR node that computes them) and ``_abs`` (its abstract).
    """

    __slots__ = ("_data", "_dtype", "_node", "_abs", "__weakref__")
    _is_param = False
    __array_priority__ = 100

    def __init__(self, input_data=None, dtype=None, shape=None, init=None,
                 const_arg=False):
        t = mstype.to_type(dtype) if dtype is not None else None
        if input_data is None and shape is not None:
            t = t or mstype.float32
            input_data = np.zeros(shape, dtype=t.np_dtype)
        arr = _to_array(input_data, t)
        self._data = arr
        self._dtype = t or mstype.from_numpy(arr.dtype)
        self._node = None
        self._abs = None

    @classmethod
    def _from_array(cls, arr, dtype: mstype.Type | None = None) -> Tensor:
        t = object.__new__(Tensor)
        arr = np.asarray(arr)
        t._data = arr
        t._dtype = dtype or mstype.from_numpy(arr.dtype)
        t._node = None
        t._abs = None
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

    @property
    def shape(self) -> tuple:
        return self._abs.shape if self._node is not None else self._data.shape

    @property
    def ndim(self) -> int:
        return len(self.shape)

    @property
    def size(self) -> int:
        return int(np.prod(self.shape, dtype=np.int64))

    def dim(self) -> int:
        return self.ndim

    def __len__(self) -> int:
        if not self.shape:
            raise TypeError("len() of unsized object (a 0-D Tensor)")
        return self.shape[0]

    def asnumpy(self) -> np.ndarray:
        if self._node is not None:
            raise RuntimeError(_GRAPH_BOOL_HINT.format(what="asnumpy()"))
        return np.asarray(self._data)

    def __array__(self, dtype=None, copy=None):
        a = self.asnumpy()
        return a.astype(dtype) if dtype is not None else a

    def item(self):
        a = self.asnumpy()
        if a.size != 1:
            raise ValueError("For 'Tensor.item', the tensor must have exactly one element, "
                             f"but got shape {a.shape}.")
        return a.item()

    def tolist(self):
        return self.asnumpy().tolist()

    # ------------------------------------------------- Python value conversions
    def _concrete(self, what: str) -> np.ndarray:
        if self._node is not None:
            raise TypeError(_GRAPH_BOOL_HINT.format(what=what))
        return np.asarray(self._data)

    def __bool__(self) -> bool:
        a = self._concrete("bool()")
        if a.size != 1:
            raise ValueError("The truth value of a Tensor with more than one element is "
                             "ambiguous.")
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
        from .tensor_format import tensor_str
        if self._node is not None:
            return f"Tensor(shape={list(self.shape)}, dtype={self._dtype}, value=<symbolic>)"
        return tensor_str(np.asarray(self._data), self._dtype)

    def __repr__(self) -> str:
        from .tensor_format import tensor_repr
        if self._node is not None:
            return f"Tensor(shape={list(self.shape)}, dtype={self._dtype}, value=<symbolic>)"
        return tensor_repr(np.asarray(self._data), self._dtype)

    def __format__(self, spec) -> str:
        if spec:
            return format(self.item(), spec)
        return str(self)

    def __reduce__(self):
        return (Tensor, (self.asnumpy(), self._dtype))

    def __deepcopy__(self, memo):
        return Tensor._from_array(self.asnumpy().copy(), self._dtype)

    def __copy__(self):
        return self.copy()

    def __iter__(self):
        if not self.shape:
            raise TypeError("iteration over a 0-D Tensor")
        return (self[i] for i in range(self.shape[0]))


def _install_methods() -> None:
    """Tensor operators and methods, all routed through ``ops.functional``."""
    from ..ops import functional as F

    def binop(fn):
        return lambda self, other: fn(self, other)

    def rbinop(fn):
        return lambda self, other: fn(other, self)

    for name, fn in [("add", F.add), ("sub", F.sub), ("mul", F.mul), ("truediv", F.div),
                     ("floordiv", F.floor_div), ("mod", F.mod), ("pow", F.pow),
                     ("matmul", F.matmul)]:
        setattr(Tensor, f"__{name}__", binop(fn))
        setattr(Tensor, f"__r{name}__", rbinop(fn))
    for name, fn in [("and", F.logical_and), ("or", F.logical_or),
                     ("xor", F.logical_xor)]:
        setattr(Tensor, f"__{name}__", binop(fn))
        setattr(Tensor, f"__r{name}__", rbinop(fn))
    for name, fn in [("lt", F.less), ("le", F.less_equal), ("gt", F.greater),
                     ("ge", F.greater_equal), ("eq", F.equal), ("ne", F.not_equal)]:
        setattr(Tensor, f"__{name}__", binop(fn))
    Tensor.__neg__ = lambda self: F.neg(self)
    Tensor.__pos__ = lambda self: self
    Tensor.__abs__ = lambda self: F.abs(self)
    Tensor.__invert__ = lambda self: F.logical_not(self)
    Tensor.__getitem__ = lambda self, index: F.getitem(self, index)

    def reshape(self, *shape):
        if len(shape) == 1 and isinstance(shape[0], (tuple, list)):
            shape = tuple(shape[0])
        return F.reshape(self, shape)

    def transpose(self, *axes):
        if len(axes) == 1 and isinstance(axes[0], (tuple, list)):
            axes = tuple(axes[0])
        if not axes:
            axes = tuple(range(self.ndim - 1, -1, -1))
        return F.transpose(self, axes)

    def reduction(fn, widen_int: bool = False):
        """``x.sum(axis=None, keepdims=False)``; MindSpore also spells them ``dim``,
        ``keep_dims`` and ``keepdim``. ``widen_int``: integers and bool accumulate in int64
        (``sum``/``prod``), unless ``dtype`` is given."""
        def method(self, axis=None, keepdims=False, *, dim=None, keep_dims=None,
                   keepdim=None, dtype=None, initial=None):
            axis = dim if axis is None else axis
            keep = bool(keepdims or keep_dims or keepdim)
            x = self
            if dtype is not None:
                x = F.cast(x, mstype.to_type(dtype))
            elif widen_int and not x.dtype.is_float:
                x = F.cast(x, mstype.int64)
            out = fn(x, axis if axis is not None else (), keep)
            return out if initial is None else F.add(out, initial)
        return method

    Tensor.reshape = reshape
    Tensor.view = reshape
    Tensor.transpose = transpose
    Tensor.T = property(lambda self: transpose(self))
    Tensor.sum = reduction(F.reduce_sum, widen_int=True)
    Tensor.mean = reduction(F.reduce_mean)
    Tensor.max = reduction(F.reduce_max)
    Tensor.min = reduction(F.reduce_min)
    Tensor.prod = reduction(F.reduce_prod, widen_int=True)
    Tensor.amax = Tensor.max
    Tensor.amin = Tensor.min
    Tensor.astype = lambda self, dtype: F.cast(self, mstype.to_type(dtype))
    Tensor.copy = lambda self: F.tensor_move(self)
    Tensor.expand_dims = lambda self, axis: F.expand_dims(self, axis)
    Tensor.squeeze = lambda self, axis=(): F.squeeze(self, axis)
    Tensor.flatten = lambda self: F.reshape(self, (-1,))
    Tensor.abs = lambda self: F.abs(self)
    Tensor.exp = lambda self: F.exp(self)
    Tensor.log = lambda self: F.log(self)
    Tensor.sqrt = lambda self: F.sqrt(self)
    Tensor.argmax = lambda self, axis=-1: F.argmax(self, axis)
    Tensor.argmin = lambda self, axis=-1: F.argmin(self, axis)
    Tensor.broadcast_to = lambda self, shape: F.broadcast_to(self, shape)
    Tensor.tile = lambda self, reps: F.tile(self, reps)
    _install_more_methods(F)


def _install_more_methods(F) -> None:
    """The rest of MindSpore's Tensor methods that user code calls most."""
    def unary(fn):
        return lambda self: fn(self)

    for name in ("neg", "square", "sin", "cos", "tanh", "sigmoid", "rsqrt", "reciprocal",
                 "sign", "floor", "ceil", "log1p", "expm1", "erf", "logical_not", "relu"):
        setattr(Tensor, name, unary(getattr(F, name)))
    Tensor.negative = Tensor.neg
    for name in ("add", "sub", "mul", "div", "pow", "matmul", "maximum", "minimum",
                 "logical_and", "logical_or", "logical_xor", "equal", "not_equal", "less",
                 "less_equal", "greater", "greater_equal", "floor_divide", "remainder"):
        fn = getattr(F, name)
        setattr(Tensor, name, lambda self, other, _fn=fn: _fn(self, other))
    Tensor.subtract, Tensor.multiply, Tensor.divide = Tensor.sub, Tensor.mul, Tensor.div
    Tensor.eq, Tensor.ne, Tensor.lt = Tensor.equal, Tensor.not_equal, Tensor.less
    Tensor.le, Tensor.gt, Tensor.ge = Tensor.less_equal, Tensor.greater, Tensor.greater_equal
    Tensor.round = lambda self, decimals=0: F.round(self, decimals=decimals)
    Tensor.float = lambda self: F.cast(self, mstype.float32)
    Tensor.half = lambda self: F.cast(self, mstype.float16)
    Tensor.double = lambda self: F.cast(self, mstype.float64)
    Tensor.int = lambda self: F.cast(self, mstype.int32)
    Tensor.long = lambda self: F.cast(self, mstype.int64)
    Tensor.bool = lambda self: F.cast(self, mstype.bool_)
    Tensor.numpy = lambda self: self.asnumpy()
    Tensor.numel = Tensor.nelement = lambda self: self.size
    Tensor.itemsize = property(lambda self: self._dtype.np_dtype.itemsize)
    Tensor.nbytes = property(lambda self: self.size * self._dtype.np_dtype.itemsize)
    Tensor.unsqueeze = lambda self, dim: F.expand_dims(self, dim)
    Tensor.permute = lambda self, *axis: F.transpose(
        self, tuple(axis[0]) if len(axis) == 1 and isinstance(axis[0], (tuple, list)) else axis)
    Tensor.view_as = Tensor.reshape_as = lambda self, other: F.reshape(self, other.shape)
    Tensor.expand_as = lambda self, other: F.broadcast_to(self, other.shape)
    Tensor.clip = Tensor.clamp = lambda self, min=None, max=None: F.clip_by_value(self, min,
                                                                                    max)
    Tensor.topk = lambda self, k, dim=None, largest=True, sorted=True: F.topk(
        self, k, dim, largest, sorted)
    Tensor.gather = lambda self, input_indices, axis, batch_dims=0: F.gather(
        self, input_indices, axis, batch_dims)
    Tensor.gather_nd = lambda self, indices: F.gather_nd(self, indices)
    Tensor.fill = lambda self, value: F.fill(self.dtype, self.shape, value)
    Tensor.from_numpy = staticmethod(lambda array: Tensor._from_array(
        np.ascontiguousarray(array)))


def tensor(input_data=None, dtype=None, shape=None, init=None) -> Tensor:
    """``ms.tensor(...)``: the functional form of the ``Tensor`` constructor."""
    return Tensor(input_data, dtype, shape, init)
