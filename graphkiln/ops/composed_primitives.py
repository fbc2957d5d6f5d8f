"""MindSpore primitives that graphkiln computes as compositions of its own primitives:
``ReduceAny``, ``ReduceAll``, ``MaximumGradGrad``, ``IndexAdd``, ``ConvertToDynamic``,
``InsertGradientOf``, ``FillV2``, ``TupleToTensor``/``ListToTensor``, ``CopyWithSlice``,
and ``BatchNorm``'s in-place update of its running statistics.
Each is a class whose instances call like a primitive (``ops.ReduceAny(True)(x, 0)``);
the call traces the composed ops, so gradients and vmap come from their rules."""
from __future__ import annotations

import graphkiln.ops.functional as F

from ..common.parameter import Parameter
from ..common.tensor import Tensor
from ..ir.primitive import REGISTRY, override_class, primitive_class

__all__ = ["ReduceAny", "ReduceAll", "MaximumGradGrad", "IndexAdd", "ConvertToDynamic",
           "InsertGradientOf", "BatchNorm", "FillV2", "TupleToTensor", "ListToTensor",
           "CopyWithSlice"]


def _check_bool(owner: str, name: str, value) -> bool:
    if not isinstance(value, bool):
        raise TypeError(f"For '{owner}', the '{name}' must be a bool, but got "
                        f"{type(value).__name__}.")
    return value


class _Composed:
    """The primitive methods user code calls on an instance (attributes are kept)."""

    def add_prim_attr(self, name: str, value):
        self.__dict__.setdefault("attrs", {})[name] = value
        return self

    def set_device(self, device_target: str):
        return self


class _Reduce(_Composed):
    """``Reduce...(keep_dims)(x, axis=())``; the empty axis reduces every axis."""

    reduce = staticmethod(F.reduce_any)

    def __init__(self, keep_dims: bool = False):
        self.keep_dims = _check_bool(type(self).__name__, "keep_dims", keep_dims)

    def __call__(self, x, axis=()):
        return self.reduce(x, None if axis == () else axis, self.keep_dims)


class ReduceAny(_Reduce):
    """Logical or along ``axis``."""


class ReduceAll(_Reduce):
    """Logical and along ``axis``."""

    reduce = staticmethod(F.reduce_all)


class MaximumGradGrad(_Composed):
    """``(x1, x2, dx1, dx2) -> (0, 0, dx1 where x1 >= x2 else dx2)``: the second-order
    backward of ``Maximum`` (ties go to ``x1``)."""

    def __init__(self, grad_x: bool = True, grad_y: bool = True):
        owner = type(self).__name__
        self.grad_x = _check_bool(owner, "grad_x", grad_x)
        self.grad_y = _check_bool(owner, "grad_y", grad_y)

    def __call__(self, x1: Tensor, x2: Tensor, dx1: Tensor, dx2: Tensor) -> tuple:
        first_wins = F.greater_equal(x1, x2)
        return (F.zeros_like(x1), F.zeros_like(x2), F.select(first_wins, dx1, dx2))


def index_added(x: Tensor, indices: Tensor, y: Tensor, axis: int) -> Tensor:
    """A new Tensor: ``x`` with ``y`` added at ``indices`` along ``axis``."""
    perm = (axis,) + tuple(i for i in range(x.ndim) if i != axis)
    back = tuple(perm.index(i) for i in range(x.ndim))
    moved = F.tensor_scatter_add(F.transpose(x, perm), F.expand_dims(indices, 1),
                                 F.transpose(y, perm))
    return F.transpose(moved, back)


def index_add(x, indices, y, axis: int, use_lock: bool = True,
              check_index_bound: bool = True) -> Tensor:
    """``x`` with ``y[..., i, ...]`` added at ``x[..., indices[i], ...]`` along ``axis`` (a
    ``TensorScatterAdd`` on ``axis`` moved to the front); a Parameter ``x`` is also
    updated in place, as MindSpore's ``IndexAdd`` does."""
    for name, t in (("x", x), ("indices", indices), ("y", y)):
        if not isinstance(t, Tensor):
            raise TypeError(f"For 'IndexAdd', the '{name}' must be a Tensor, but got "
                            f"{type(t).__name__}.")
    if isinstance(axis, bool) or not isinstance(axis, int) or not -x.ndim <= axis < x.ndim:
        raise ValueError(f"For 'IndexAdd', the 'axis' must be an int in [{-x.ndim}, "
                         f"{x.ndim}), but got {axis!r}.")
    if indices.ndim != 1:
        raise ValueError(f"For 'IndexAdd', the 'indices' must be 1-D, but got shape "
                         f"{list(indices.shape)}.")
    out = index_added(x, indices, y, axis % x.ndim)
    if isinstance(x, Parameter):
        F.assign(x, out)
    return out


class IndexAdd(_Composed):
    """``IndexAdd(axis, use_lock=True, check_index_bound=True)(x, indices, y)``."""

    def __init__(self, axis: int, use_lock: bool = True, check_index_bound: bool = True):
        if isinstance(axis, bool) or not isinstance(axis, int):
            raise TypeError(f"For 'IndexAdd', the 'axis' must be an int, but got "
                            f"{type(axis).__name__}.")
        self.axis = axis
        self.use_lock = _check_bool("IndexAdd", "use_lock", use_lock)
        self.check_index_bound = _check_bool("IndexAdd", "check_index_bound",
                                             check_index_bound)

    def __call__(self, x, indices, y):
        return index_add(x, indices, y, self.axis)


class ConvertToDynamic(_Composed):
    """``ConvertToDynamic(is_dynamic_rank=False)(x)``: MindSpore's marker that makes a
    shape unknown to its compiler; graphkiln specialises every call on its shapes, so it
    passes ``x`` through."""

    def __init__(self, is_dynamic_rank: bool = False):
        self.is_dynamic_rank = _check_bool("ConvertToDynamic", "is_dynamic_rank",
                                           is_dynamic_rank)

    def __call__(self, x):
        return x



class FillV2(_Composed):
    """``FillV2()(shape, value)``: a Tensor of ``shape`` (a tuple, or a 1-D int Tensor)
    filled with the 0-d Tensor ``value``, of its dtype."""

    def __call__(self, shape, value):
        if not isinstance(value, Tensor):
            raise TypeError(f"For 'FillV2', 'value' must be a Tensor, but got "
                            f"{type(value).__name__}.")
        if isinstance(shape, Tensor):
            shape = tuple(int(d) for d in shape.asnumpy().reshape(-1))
        return F.broadcast_to(F.reshape(value, ()), tuple(shape))


class TupleToTensor(_Composed):
    """``TupleToTensor()(input_x, dtype)``: a tuple (or list) of numbers as a 1-D Tensor
    of ``dtype``."""

    def __call__(self, input_x, dtype):
        if not isinstance(input_x, (tuple, list)):
            raise TypeError(f"For '{type(self).__name__}', 'input_x' must be a tuple or "
                            f"list, but got {type(input_x).__name__}.")
        if not input_x:
            return F.zeros((0,), dtype)
        return F.cast(F.tuple_to_array(tuple(input_x)), dtype)


class ListToTensor(TupleToTensor):
    """``ListToTensor()(input_x, dtype)``: as :class:`TupleToTensor`."""


class CopyWithSlice(_Composed):
    """``CopyWithSlice()(x, y)``: write ``y``'s values into ``x`` in place (``x`` may be a
    view); returns ``x``."""

    def __call__(self, x, y):
        return x.copy_(y)


class _GradientOf:
    """The backward hook of :class:`InsertGradientOf`: ``f`` of the one gradient."""

    def __init__(self, f):
        self.f = f

    def __call__(self, grads: tuple):
        new = self.f(grads[0])
        return None if new is None else (new,)


class InsertGradientOf(_Composed):
    """``InsertGradientOf(f)(x)`` is ``x``; in a gradient, the gradient that reaches ``x``
    becomes ``f(gradient)`` (``f`` runs as Python on the run-time gradient)."""

    def __init__(self, f):
        if not callable(f):
            raise TypeError(f"For 'InsertGradientOf', 'f' must be a function, but got "
                            f"{type(f).__name__}.")
        self.f = f

    def __call__(self, x):
        return REGISTRY["HookBackward"](x, hook_fn=_GradientOf(self.f))


@override_class
class BatchNorm(primitive_class(REGISTRY["BatchNorm"])):
    """``ops.BatchNorm``: in training, MindSpore's kernel also moves the ``mean`` and
    ``variance`` it is given toward the batch's statistics,
    ``running = (1 - momentum) * running + momentum * batch`` (the unbiased variance), when
    they are Parameters. The primitive itself stays pure (``nn.BatchNorm2d`` writes its own
    moving statistics); this call adds the two ``Assign`` ops and orders them before ``y``."""

    __slots__ = ()

    def __call__(self, *args):
        out = super().__call__(*args)
        if len(args) != 5 or not self.attrs.get("is_training", False):
            return out
        mean, variance = args[3], args[4]
        if not (isinstance(mean, Parameter) and isinstance(variance, Parameter)):
            return out
        keep, new = 1.0 - float(self.attrs["momentum"]), float(self.attrs["momentum"])
        moved_mean = F.assign(mean, F.add(F.mul(mean, keep), F.mul(out[1], new)))
        moved_var = F.assign(variance, F.add(F.mul(variance, keep), F.mul(out[2], new)))
        return (F.depend(out[0], F.depend(moved_mean, moved_var)),) + tuple(out[1:])
