"""Tensor operators and methods (``x + y``, ``x.sum()``...), all routed through
``ops.functional``; attached to :class:`Tensor` when the ops package is imported (the
common layer, below the ops, defines the data holder only)."""
from __future__ import annotations

import math

import numpy as np

import graphkiln.ops.functional as F

from ..common import dtype as mstype
from ..common.capture_flags import bytecode_capture
from ..common.sparse_tensor import SPARSE_TYPES
from ..common.tensor import Tensor
from ..ir import tape, tracing_state
from .clip_ops import clamp
from .defs.hooks import HookBackward
from .defs.scalar import TensorToScalar
from .defs.side_effects import InplaceCopy
from .dynamic_shape import shape_of

_UFUNC_OPS = {np.add: F.add, np.subtract: F.sub, np.multiply: F.mul, np.true_divide: F.div,
              np.floor_divide: F.floor_div, np.remainder: F.mod, np.power: F.pow,
              np.matmul: F.matmul, np.less: F.less, np.less_equal: F.less_equal,
              np.greater: F.greater, np.greater_equal: F.greater_equal, np.equal: F.equal,
              np.not_equal: F.not_equal}


def _array_ufunc(self, ufunc, method, *inputs, **kwargs):
    """NumPy meets a Tensor (``ndarray + Tensor``, ``np.float32(2) * Tensor``). As in
    MindSpore, concrete Tensors take part as their host arrays and the result is NumPy's;
    a graph-time Tensor has no host value, so a binary operator becomes the Tensor op."""
    if all(not isinstance(x, Tensor) or x._node is None for x in inputs):
        arrays = [np.asarray(x) if isinstance(x, Tensor) else x for x in inputs]
        return getattr(ufunc, method)(*arrays, **kwargs)
    op = _UFUNC_OPS.get(ufunc)
    if op is None or method != "__call__" or kwargs or len(inputs) != 2:
        return NotImplemented
    # NumPy hands a NumPy scalar over as a 0-d array: give the op the scalar back
    return op(*(x[()] if isinstance(x, np.ndarray) and x.ndim == 0 else x for x in inputs))


def _number_arith(fn, true_div: bool = False):
    """``fn(a, b)``; while tracing, a Tensor standing for a Python number (see
    ``tracing_state.mark_number``) is one: next to a Tensor it takes that Tensor's type as
    a Python number would, and with Python numbers it gives one."""
    def run(a, b):
        kinds = [type(x) if type(x) in (int, float) else tracing_state.number_kind(x)
                 for x in (a, b)]
        if kinds == [None, None] or None not in kinds:
            out = fn(a, b)
            if None not in kinds and isinstance(out, Tensor):
                tracing_state.mark_number(out, float if true_div or float in kinds else int)
            return out
        if isinstance(a, Tensor) and kinds[0] is not None and isinstance(b, Tensor):
            a = F.cast(a, _weak_type(b.dtype, kinds[0]))
        elif isinstance(b, Tensor) and kinds[1] is not None and isinstance(a, Tensor):
            b = F.cast(b, _weak_type(a.dtype, kinds[1]))
        return fn(a, b)
    return run


def _bool_logic(fn, logic):
    """``fn(a, b)``, but ``logic(a, b)`` when both are bool (Tensors or Python bools): the
    ``+`` and ``-`` of bool Tensors are their logical or and exclusive or in MindSpore's
    PyNative (``ops.add`` and ``ops.sub`` refuse bools there)."""
    def is_bool(x):
        return type(x) is bool or (isinstance(x, Tensor) and x.dtype is mstype.bool_)

    def run(a, b):
        return logic(a, b) if is_bool(a) and is_bool(b) else fn(a, b)
    return run


def _weak_type(t: mstype.Type, kind: type) -> mstype.Type:
    """The type a Python number of ``kind`` takes next to a ``t`` Tensor."""
    if kind is float:
        return t if t.is_float or t.is_complex else mstype.float32
    return mstype.int64 if t is mstype.bool_ else t


def install() -> None:
    """Attach the operators and methods to :class:`Tensor`."""
    def binop(fn):
        return lambda self, other: fn(self, other)

    def rbinop(fn):
        return lambda self, other: fn(other, self)

    def arith(fn):  # a sparse tensor operand: its own reflected operator (coo + dense...)
        def op(self, other):
            return NotImplemented if isinstance(other, SPARSE_TYPES) else fn(self, other)
        return op

    for name, fn in [("add", F.add), ("sub", F.sub), ("mul", F.mul), ("truediv", F.div),
                     ("floordiv", F.floor_div), ("mod", F.mod), ("pow", F.pow)]:
        fn = _number_arith(fn, name == "truediv")
        if name in ("add", "sub"):
            fn = _bool_logic(fn, F.logical_or if name == "add" else F.logical_xor)
        setattr(Tensor, f"__{name}__", arith(fn))
        setattr(Tensor, f"__r{name}__", rbinop(fn))
    Tensor.__matmul__, Tensor.__rmatmul__ = binop(F.matmul), rbinop(F.matmul)
    for name, fn in [("and", F.bitwise_and), ("or", F.bitwise_or),
                     ("xor", F.bitwise_xor)]:
        setattr(Tensor, f"__{name}__", binop(fn))
        setattr(Tensor, f"__r{name}__", rbinop(fn))
    for name, fn in [("lt", F.less), ("le", F.less_equal), ("gt", F.greater),
                     ("ge", F.greater_equal), ("eq", F.equal), ("ne", F.not_equal)]:
        setattr(Tensor, f"__{name}__", binop(fn))
    Tensor.__array_ufunc__ = _array_ufunc
    Tensor.__neg__ = lambda self: F.neg(self)
    Tensor.__pos__ = lambda self: self
    Tensor.__abs__ = lambda self: F.abs(self)
    Tensor.__round__ = lambda self, ndigits=None: F.round(self, decimals=ndigits or 0)
    Tensor.__invert__ = lambda self: F.logical_not(self)
    Tensor.__getitem__ = lambda self, index: F.getitem(self, index)

    def setitem(self, index, value):
        """``x[index] = value`` in place: a concrete Tensor gets the new data; a symbolic
        one (graph code that is not converted) now stands for the ``Setitem`` result; in a
        bytecode capture the graph writes the Tensor in place (``InplaceCopy``).
        Returns the Tensor, as MindSpore's does (``x.__setitem__(i, v)`` called as a
        function)."""
        new = F.setitem(self, index, value)
        if bytecode_capture() and tracing_state.current() is not None:
            InplaceCopy(self, new)  # PyNative writes this very object: aliases, the
            # caller's Tensor and a weight see the new value (MindSpore's PIJit too)
        elif new._node is not None:
            self._node, self._abs = new._node, new._abs
        else:
            if tape.ACTIVE:  # a PyNative gradient: recorded steps keep the old value
                tape.rebind(self, new, Tensor._from_array(self._data, self._dtype))
            self._data = new._data
        return self

    Tensor.__setitem__ = setitem

    def reshape(self, *shape):
        if not shape:  # in a graph (the overload check refuses it eagerly)
            raise _no_second_input("Reshape")
        if len(shape) == 1 and isinstance(shape[0], (tuple, list)):
            shape = tuple(shape[0])
        return F.reshape(self, shape)

    def transpose(self, *axes):
        if axes == (None,):  # np.transpose(x) calls x.transpose(None)
            axes = ()
        if len(axes) == 1 and isinstance(axes[0], (tuple, list)):
            axes = tuple(axes[0])
        if not axes:
            axes = tuple(range(self.ndim - 1, -1, -1))
        if len(axes) != self.ndim:
            raise ValueError(f"For Tensor.transpose, the number of axes must be equal to the "
                             f"dimension of Tensor, but got {len(axes)} in the number of axes.")
        return F.transpose(self, axes)

    def reduction(fn, widen_int: bool = False):
        """``x.sum(axis=None, keepdims=False)``; MindSpore also spells them ``dim``,
        ``keep_dims`` and ``keepdim``, and the older ``x.sum(axis, dtype, keepdims,
        initial)`` passes the dtype second. ``widen_int``: integers and bool accumulate in
        int64 (``sum``/``prod``), unless ``dtype`` is given."""
        def method(self, axis=None, keepdims=False, *rest, dim=None, keep_dims=None,
                   keepdim=None, dtype=None, initial=None):
            if isinstance(keepdims, mstype.Type) or (keepdims is None and rest):
                dtype, keepdims, initial = keepdims, *(rest + (False, None))[:2]
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
    Tensor.max = _extremum(F.reduce_max, F.max, "max")
    Tensor.min = _extremum(F.reduce_min, F.min, "min")
    Tensor.prod = reduction(F.reduce_prod, widen_int=True)
    Tensor.amax = reduction(F.reduce_max)
    Tensor.amin = reduction(F.reduce_min)
    Tensor.astype = lambda self, dtype: F.cast(self, mstype.to_type(dtype))
    Tensor.copy = lambda self: F.tensor_move(self)
    Tensor.expand_dims = lambda self, axis: F.expand_dims(self, axis)
    Tensor.squeeze = lambda self, axis=(): F.squeeze(self, axis)
    Tensor.flatten = _flatten
    Tensor.abs = lambda self: F.abs(self)
    Tensor.exp = lambda self: F.exp(self)
    Tensor.log = lambda self: F.log(self)
    Tensor.sqrt = lambda self: F.sqrt(self)
    Tensor.argmax = _arg_extremum(F.argmax)
    Tensor.argmin = _arg_extremum(F.argmin)
    Tensor.broadcast_to = lambda self, shape: F.broadcast_to(self, shape)
    Tensor.tile = _tile
    Tensor.repeat = _repeat
    _install_more_methods()


def _no_second_input(op: str) -> TypeError:
    """MindSpore's graph-mode error for ``x.reshape()``: the op misses its second input."""
    return TypeError(f"For Operator[{op}], the number of inputs (including default arguments) "
                     f"should be 2, but the actual number of inputs is not satisfied, which is "
                     f"1.")


def _permute(self, *axis) -> Tensor:
    """``x.permute(1, 0)`` or ``x.permute((1, 0))``; ``x.permute()`` reverses the axes."""
    if len(axis) == 1 and isinstance(axis[0], (tuple, list)):
        axis = tuple(axis[0])
    return F.transpose(self, axis or tuple(range(self.ndim - 1, -1, -1)))


def _tile(self, *dims, **kwargs) -> Tensor:
    """``x.tile((2, 3))``, ``x.tile(2, 3)``, ``x.tile(dims=...)`` or ``x.tile(reps=...)``."""
    if len(dims) == 1 and isinstance(dims[0], (tuple, list, Tensor)):
        dims = dims[0]
    return F.tile(self, kwargs.get("dims", kwargs.get("reps", dims)))


def _repeat(self, *repeats) -> Tensor:
    """``x.repeat(2, 3)`` or ``x.repeat((2, 3))``: the tensor tiled ``repeats[i]`` times along
    dimension ``i``, new leading dimensions for extra repeats (MindSpore's Ascend meaning;
    MindSpore 2.10 raises on CPU)."""
    if len(repeats) == 1 and isinstance(repeats[0], (tuple, list)):
        repeats = tuple(repeats[0])
    if not repeats:  # in a graph (the overload check refuses it eagerly)
        raise _no_second_input("Repeat")
    if not all(isinstance(r, int) and not isinstance(r, bool) for r in repeats):
        raise TypeError(f"For 'Tensor.repeat', 'repeats' must be ints or a tuple of ints, but "
                        f"got {repeats}.")
    if len(repeats) < self.ndim:
        raise ValueError(f"For 'Tensor.repeat', the number of repeats ({len(repeats)}) can not "
                         f"be smaller than the number of dimensions of the tensor "
                         f"({self.ndim}).")
    if any(r < 0 for r in repeats):
        raise ValueError(f"For 'Tensor.repeat', 'repeats' must be non-negative, but got "
                         f"{repeats}.")
    return F.tile(self, tuple(repeats))


_UNSET = object()


def _extremum(reduce, with_index, name: str):
    """``x.max()`` (all elements); ``x.max(dim=d, keepdim=k)``: ``(values, indices)``; the
    older ``x.max(axis, keepdims, *, initial, where, return_indices)``: the values (and the
    indices with ``return_indices``), ``where`` masking elements out in favour of
    ``initial``. As in MindSpore 2.10, a positional ``x.max(d, k)`` is the newer form
    (a tuple) when run eagerly and the older one (the values) inside a graph."""
    def method(self, *args, axis=None, keepdims=False, dim=None, keepdim=None,
               initial=_UNSET, where=_UNSET, return_indices=_UNSET, keep_dims=None):
        if len(args) > 2:
            raise TypeError(f"Tensor.{name}() takes at most 2 positional arguments but "
                            f"{len(args)} were given.")
        axis, keepdims = (*args, *(axis, keepdims)[len(args):])
        keep = bool(keepdims or keepdim or keep_dims)
        if dim is not None:
            return with_index(self, dim, keep)
        # a keyword only the older form has (even given as None) selects that form
        positional_dim = bool(args) and _UNSET is initial is where is return_indices
        initial, where = (None if v is _UNSET else v for v in (initial, where))
        return_indices = return_indices is not _UNSET and return_indices
        if return_indices or (positional_dim and tracing_state.current() is None):
            return with_index(self, axis, keep)
        x = self
        if where is not None and where is not True:
            if initial is None:
                raise ValueError(f"For 'Tensor.{name}', 'initial' must be given with "
                                 f"'where'.")
            x = F.select(where, x, F.cast(Tensor(initial), x.dtype))
        # over all elements the result is 0-d whatever ``keepdims`` says (as MindSpore 2.10)
        out = reduce(x, axis if axis is not None else (), keep and axis is not None)
        if initial is not None:
            out = (F.maximum if name == "max" else F.minimum)(out, initial)
        return out
    method.__name__ = name
    return method


def _arg_extremum(fn):
    """``x.argmax(axis=None, keepdims=False)`` (also spelled ``dim``/``keepdim``): the index
    along ``axis``, of the flattened Tensor when None run eagerly; inside a graph
    MindSpore 2.10 reads a missing axis as the last one."""
    def method(self, axis=None, keepdims=False, *, dim=None, keepdim=None):
        axis = dim if axis is None else axis
        if axis is None and tracing_state.current() is not None and self.ndim:
            axis = -1
        return fn(self, axis, bool(keepdims or keepdim))
    return method


def _flatten(self, order="C", *rest, start_dim=0, end_dim=-1):
    """``x.flatten()`` (one dimension), ``x.flatten(start_dim, end_dim)`` or the older
    ``x.flatten(order='C')``."""
    if isinstance(order, int) and not isinstance(order, bool):
        order, start_dim = "C", order
        end_dim = rest[0] if rest else end_dim
    if not isinstance(order, str):
        raise TypeError(f"For 'Tensor.flatten', the 'order' must be a str, but got "
                        f"{type(order).__name__}.")
    if order not in ("C", "F"):
        raise ValueError(f"For Tensor.flatten, the parameter 'order' must be 'C' or 'F', but "
                         f"got {order!r}")
    return F.flatten(self, order, start_dim=start_dim, end_dim=end_dim)


def _scaled_binary(fn):
    """``x.add(other, *, alpha=1)``: ``x + alpha * other``."""
    def method(self, other, *, alpha=1):
        return fn(self, other if alpha == 1 else F.mul(other, alpha))
    return method


def _clamp(self, min=None, max=None):
    """``self`` limited to ``[min, max]`` (at least one bound)."""
    if min is None and max is None:
        raise ValueError("For 'Tensor.clamp', at least one of 'min' or 'max' must not be "
                         "None.")
    if any(isinstance(v, bool) or (isinstance(v, Tensor) and v.dtype == mstype.bool_)
           for v in (self, min, max)):
        raise ValueError("For Clamp, the dtype of 'input', 'min' and 'max' must not be bool.")
    return clamp(self, min, max)


def _div(self, other, *, rounding_mode=None):
    return F.div(self, other, rounding_mode=rounding_mode)


def _remainder(self, other=None, *, divisor=None):
    return F.remainder(self, divisor if other is None else other)


def _variance(self, axis=None, ddof=None, keepdims=None, *, dim=None, correction=None,
              keepdim=None):
    """``x.var(axis=None, ddof=0, keepdims=False)`` or ``x.var(dim=None, *, correction=1,
    keepdim=False)``: the variance, ``ddof``/``correction`` subtracted from the count."""
    modern = dim is not None or correction is not None or keepdim is not None
    axis = dim if axis is None else axis
    if ddof is None:
        ddof = correction if correction is not None else (1 if modern else 0)
    return _moment(self, axis, int(ddof), bool(keepdims or keepdim))


def _moment(self, axis, ddof: int, keepdims: bool):
    axes = axis if axis is not None else ()
    mean = F.reduce_mean(self, axes, True)
    sq = F.square(F.sub(self, mean))
    if any(d < 0 for d in self.shape):  # run-time ints for the dynamic dimensions
        n = math.prod(shape_of(self)) // math.prod(shape_of(mean)) - ddof
    else:
        n = max(self.size // max(mean.size, 1) - ddof, 0)
    return F.div(F.reduce_sum(sq, axes, keepdims), n)


def _contiguous_strides(shape: tuple, itemsize: int) -> tuple:
    """Byte strides of a row-major tensor of ``shape`` (MindSpore's tensors are contiguous)."""
    strides, step = [], itemsize
    for d in reversed(shape):
        strides.append(step)
        step *= d
    return tuple(reversed(strides))


class _TensorHookHandle:
    """What ``Tensor.register_hook`` returns: ``remove()`` turns the hook off."""

    def __init__(self, hook_fn):
        self.hook_fn = hook_fn

    def remove(self) -> None:
        self.hook_fn = None
        tape.hooks_changed()

    def __call__(self, grads: tuple):
        if self.hook_fn is None:
            return None
        new = self.hook_fn(grads[0])
        return None if new is None else (new,)


def _item(self):
    """The Python number a one-element tensor holds; inside a graph, the number the graph
    computes (MindSpore's TensorToScalar, for a 0-d or shape-(1,) tensor). A bytecode
    capture breaks there instead, as MindSpore's does."""
    if self.is_symbolic and not bytecode_capture():
        return TensorToScalar(self)
    return self._host_item()


def _register_hook(self, hook_fn) -> _TensorHookHandle:
    """``hook_fn(grad)`` gets this Tensor's gradient when a gradient is computed; a
    result replaces it. In PyNative mode the hook stays on the Tensor (every later
    gradient with respect to it calls it); in a graph it applies to the traced Tensor."""
    if not callable(hook_fn):
        raise TypeError(f"For 'Tensor.register_hook(hook_fn)', the type of 'hook_fn' must "
                        f"be function, but got {type(hook_fn).__name__}.")
    if self._is_param and not self.requires_grad:
        raise RuntimeError("The tensor requires grad is false, which can not register tensor "
                           "hook")
    if self._is_param and tracing_state.current() is not None:  # (MindSpore's words)
        raise ValueError("Register hook for Parameter inside graph is not supported.")
    handle = _TensorHookHandle(hook_fn)
    if not self.is_symbolic:  # PyNative: a gradient's tape calls it (eager_autodiff.py)
        tape.add_tensor_hook(self, handle)
        return handle
    hooked = HookBackward(self, hook_fn=handle)
    self._node, self._abs = hooked._node, hooked._abs  # later uses see the hooked value
    return handle


def _set_const_arg(self, const_arg: bool = True):
    """MindSpore's mark of a Tensor argument as a compile-time constant; graphkiln compiles
    every Tensor argument as a variable (the results are the same), so it only checks it."""
    if not isinstance(const_arg, bool):
        raise TypeError(f"For 'set_const_arg', the type of 'const_arg' must be bool, but got "
                        f"{type(const_arg).__name__}.")
    return self


def _hooks(self) -> list:
    """The hook functions registered on this Tensor and not removed (PyNative)."""
    return [h.hook_fn for h in tape.tensor_hooks(self)
            if isinstance(h, _TensorHookHandle) and h.hook_fn is not None]


def _install_more_methods() -> None:
    """The rest of MindSpore's Tensor methods that user code calls most."""
    def unary(fn):
        return lambda self: fn(self)

    for name in ("neg", "square", "sin", "cos", "tanh", "sigmoid", "rsqrt", "reciprocal",
                 "sign", "floor", "ceil", "log1p", "expm1", "erf", "logical_not", "relu",
                 "lgamma", "digamma"):
        setattr(Tensor, name, unary(getattr(F, name)))
    Tensor.negative = Tensor.neg
    for name in ("mul", "pow", "matmul", "maximum", "minimum",
                 "logical_and", "logical_or", "logical_xor", "equal", "not_equal", "less",
                 "less_equal", "greater", "greater_equal", "floor_divide",
                 "igamma", "igammac", "bitwise_and", "bitwise_or", "bitwise_xor", "ger"):
        fn = getattr(F, name)
        setattr(Tensor, name, lambda self, other, _fn=fn: _fn(self, other))
    Tensor.add, Tensor.sub = _scaled_binary(F.add), _scaled_binary(F.sub)
    Tensor.div, Tensor.remainder = _div, _remainder
    Tensor.subtract, Tensor.multiply, Tensor.divide = Tensor.sub, Tensor.mul, Tensor.div
    Tensor.eq, Tensor.ne, Tensor.lt = Tensor.equal, Tensor.not_equal, Tensor.less
    Tensor.le, Tensor.gt, Tensor.ge = Tensor.less_equal, Tensor.greater, Tensor.greater_equal
    Tensor.round = lambda self, decimals=0: F.round(self, decimals=decimals)
    Tensor.sort = lambda self, axis=-1, descending=False, *, dim=None, stable=False: F.sort(
        self, axis if dim is None else dim, descending)
    Tensor.argsort = lambda self, axis=-1, descending=False: F.argsort(self, axis, descending)
    Tensor.swapaxes = lambda self, axis0, axis1: F.swapaxes(self, axis0, axis1)
    Tensor.value = lambda self: self
    Tensor.float = lambda self: F.cast(self, mstype.float32)
    Tensor.half = lambda self: F.cast(self, mstype.float16)
    Tensor.double = lambda self: F.cast(self, mstype.float64)
    Tensor.int = lambda self: F.cast(self, mstype.int32)
    Tensor.long = lambda self: F.cast(self, mstype.int64)
    Tensor.bool = lambda self: F.cast(self, mstype.bool_)
    Tensor.numpy = lambda self: self.asnumpy()
    # (only user code calls numel(): with unknown dimensions it is a run-time int)
    Tensor.numel = Tensor.nelement = lambda self: self._size_for_caller(None)
    Tensor.item = _item
    Tensor.itemsize = property(lambda self: self._dtype.np_dtype.itemsize)
    Tensor.nbytes = property(lambda self: self.size * self._dtype.np_dtype.itemsize)
    Tensor.register_hook, Tensor.hooks = _register_hook, _hooks
    Tensor.set_const_arg = _set_const_arg
    Tensor.__ms_origin_object__ = property(lambda self: self)  # what mutable(t) gives: t
    Tensor.strides = property(lambda self: _contiguous_strides(self.shape, self.itemsize))
    Tensor.unsqueeze = lambda self, dim: F.expand_dims(self, dim)
    Tensor.permute = _permute
    Tensor.view_as = Tensor.reshape_as = lambda self, other: F.reshape(self, other.shape)
    Tensor.expand_as = lambda self, other=None, *, x=None: F.broadcast_to(
        self, (x if other is None else other).shape)
    Tensor.clip = Tensor.clamp = _clamp
    Tensor.topk = lambda self, k, dim=None, largest=True, sorted=True: F.topk(
        self, k, dim, largest, sorted)
    Tensor.gather = lambda self, input_indices, axis, batch_dims=0: F.gather(
        self, input_indices, axis, batch_dims)
    Tensor.gather_nd = lambda self, indices: F.gather_nd(self, indices)
    Tensor.nonzero = lambda self, as_tuple=False: F.nonzero(self, as_tuple=as_tuple)
    Tensor.masked_select = lambda self, mask: F.masked_select(self, mask)
    Tensor.fill = lambda self, value: F.fill(self.dtype, self.shape, value)
    def logical_reduction(fn):
        def method(self, axis=None, keep_dims=False, *, dim=None, keepdim=False):
            return fn(self, dim if axis is None else axis, bool(keep_dims or keepdim))
        return method

    Tensor.any = logical_reduction(F.reduce_any)
    Tensor.all = logical_reduction(F.reduce_all)
    Tensor.var = _variance
    Tensor.std = lambda self, *args, **kwargs: F.sqrt(_variance(self, *args, **kwargs))



install()
