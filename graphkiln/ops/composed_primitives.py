"""MindSpore primitives that graphkiln computes as compositions of its own primitives:
``ReduceAny``, ``ReduceAll``, ``MaximumGrad``, ``MinimumGrad``, ``MaximumGradGrad``,
``IndexAdd``, ``ConvertToDynamic``, ``InsertGradientOf``, ``FillV2``,
``TupleToTensor``/``ListToTensor``, ``CopyWithSlice``, ``ResizeNearestNeighborV2`` (and its
backward), and ``BatchNorm``'s in-place update of its running statistics.
Each is a class whose instances call like a primitive (``ops.ReduceAny(True)(x, 0)``);
the call traces the composed ops, so gradients and vmap come from their rules."""
from __future__ import annotations

import numpy as np

import graphkiln.ops.functional as F

from ..common import dtype as mstype
from ..common.parameter import Parameter
from ..common.tensor import Tensor
from ..ir.primitive import REGISTRY, override_class, primitive_class
from .defs import scalar as SS
from .defs.image import source_indices
from .rules.bprop import extremum_cotangents

__all__ = ["ReduceAny", "ReduceAll", "MaximumGrad", "MinimumGrad", "MaximumGradGrad", "IndexAdd",
           "ConvertToDynamic", "InsertGradientOf", "BatchNorm", "batch_norm", "FillV2",
           "TupleToTensor",
           "ListToTensor", "TensorToTuple", "TensorToList", "CopyWithSlice",
           "ResizeNearestNeighborV2", "ResizeNearestNeighborV2Grad"]


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


class _ExtremumGrad(_Composed):
    """``(x1, x2, grads) -> (dx1, dx2)``: the backward of ``Maximum``/``Minimum`` (the winner
    takes ``grads``, a tie or a NaN gives each half; summed back to each input's shape).
    MindSpore returns both whatever ``grad_x`` and ``grad_y`` say."""

    wins = staticmethod(F.greater)

    def __init__(self, grad_x: bool = True, grad_y: bool = True):
        owner = type(self).__name__
        self.grad_x = _check_bool(owner, "grad_x", grad_x)
        self.grad_y = _check_bool(owner, "grad_y", grad_y)

    def __call__(self, x1: Tensor, x2: Tensor, grads: Tensor) -> tuple:
        return extremum_cotangents(x1, x2, grads, self.wins, nan_takes_all=False)


class MaximumGrad(_ExtremumGrad):
    """The backward of ``Maximum``."""


class MinimumGrad(_ExtremumGrad):
    """The backward of ``Minimum``."""

    wins = staticmethod(F.less)


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


class TensorToTuple(_Composed):
    """``TensorToTuple()(input_x)``: the elements of a 1-D Tensor as a tuple of Python
    numbers (run-time numbers inside a graph when the values are known only then)."""

    def __call__(self, input_x):
        if not isinstance(input_x, Tensor) or input_x.ndim != 1:
            raise TypeError(f"For '{type(self).__name__}', 'input_x' must be a 1-D Tensor, but "
                            f"got {input_x!r}.")
        if not input_x.is_symbolic:
            return tuple(input_x.asnumpy().tolist())
        if input_x.shape[0] < 0:
            raise ValueError(f"For '{type(self).__name__}', the length of 'input_x' must be "
                             f"known when the graph is built, but got shape "
                             f"{list(input_x.shape)}.")
        return tuple(SS.TensorToScalar(input_x[i]) for i in range(input_x.shape[0]))


class TensorToList(TensorToTuple):
    """``_sequence_ops.TensorToList()(input_x)``: as :class:`TensorToTuple`, a list."""

    def __call__(self, input_x):
        return list(super().__call__(input_x))


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


def batch_norm(input_x: Tensor, running_mean: Tensor, running_var: Tensor, weight: Tensor,
               bias: Tensor, training: bool = False, momentum: float = 0.1,
               eps: float = 1e-5) -> Tensor:
    """``ops.batch_norm``: :class:`BatchNorm`'s normalized output (by the batch's statistics
    in training, which then also move Parameter ``running_mean``/``running_var``)."""
    if not isinstance(training, bool):
        raise TypeError(f"For 'batch_norm', the type of 'training' should be 'bool', but got "
                        f"type '{type(training).__name__}'.")
    return BatchNorm(is_training=training, epsilon=eps, momentum=momentum)(
        input_x, weight, bias, running_mean, running_var)[0]


@override_class
class Unstack(primitive_class(REGISTRY["Unstack"])):
    """``ops.Unstack``: along an axis whose length is known only at run time (a dynamic
    shape), the slices are a dynamic length tuple (``SequenceUnstack``), as MindSpore's."""

    __slots__ = ()

    def __call__(self, *args):
        x = args[0] if len(args) == 1 else None
        if isinstance(x, Tensor) and x.is_symbolic and self.attrs.get("num") is None:
            shape, axis = tuple(x.shape), self.attrs.get("axis", 0)
            if isinstance(axis, int) and -len(shape) <= axis < len(shape) and shape[axis] < 0:
                return REGISTRY["SequenceUnstack"](x, axis=axis % len(shape))
        return super().__call__(*args)


_RESIZE_V2 = "ResizeNearestNeighborV2"
_RESIZE_V2_TYPES = ("Float16", "Float32", "Float64", "UInt8")


def _resize_size(size) -> tuple[int, int]:
    """``size`` (a tuple or a 1-D int Tensor with a known value) as two positive ints."""
    if isinstance(size, Tensor):
        if size.ndim > 1 or not size.dtype.is_int:
            raise TypeError(f"For {_RESIZE_V2}, the 1'th input is a Tensor whose shape is "
                            f"{list(size.shape)} and dtype is [{size.dtype}], which can not "
                            f"be converted to tuple of int.")
        try:
            size = tuple(int(v) for v in size.asnumpy().reshape(-1))
        except Exception:  # a value computed when the graph runs
            raise ValueError(f"For {_RESIZE_V2}, the 'size' must be a constant, but got a "
                             f"value computed at run time.") from None
    if not isinstance(size, (tuple, list)) or not all(
            isinstance(v, int) and not isinstance(v, bool) for v in size):
        raise TypeError(f"For {_RESIZE_V2}, the 'size' must be a tuple of ints, but got "
                        f"{size!r}.")
    if len(size) != 2:
        raise ValueError(f"For primitive[{_RESIZE_V2}], the number of size must be equal to "
                         f"2, but got {len(size)}.")
    for v in size:
        if v <= 0:
            raise ValueError(f"For primitive[{_RESIZE_V2}], the size value must be greater "
                             f"than 0, but got {v}.")
    return int(size[0]), int(size[1])


def _sources(n_in, n_out, corners: bool, centers: bool) -> Tensor:
    """The input index each of ``n_out`` output positions reads (see ``source_indices``):
    constants, or computed as the graph runs where a size (an int64 Tensor) is unknown."""
    if isinstance(n_in, int) and isinstance(n_out, int):
        return Tensor(source_indices(n_in, n_out, corners, centers).astype("int64"))
    wide_in = F.cast(n_in, mstype.float64) if isinstance(n_in, Tensor) else float(n_in)
    if isinstance(n_out, int):
        positions, wide_out = Tensor(np.arange(n_out, dtype=np.float64)), float(n_out)
    else:
        one = Tensor(1, mstype.int64)
        positions = F.cast(F.range(Tensor(0, mstype.int64), n_out, one), mstype.float64)
        wide_out = F.cast(n_out, mstype.float64)
    # (with align_corners one output position reads 0 whatever the scale)
    scale = F.div(F.sub(wide_in, 1.0), F.maximum(F.sub(wide_out, 1.0), 1.0)) if corners \
        else F.div(wide_in, wide_out)
    pos = F.mul(F.add(positions, 0.5 if centers else 0.0), scale)
    src = F.floor(F.add(pos, 0.5) if corners else pos)
    last = F.sub(F.cast(n_in, mstype.int64), 1) if isinstance(n_in, Tensor) else n_in - 1
    return F.minimum(F.cast(src, mstype.int64), last)


def _size_of(x: Tensor, axis: int):
    """``x.shape[axis]``: an int, or an int64 Tensor read as the graph runs."""
    n = x.shape[axis]
    return n if n >= 0 else F.gather(F.dyn_shape(x), Tensor(axis), 0)


class _ResizeV2(_Composed):
    def __init__(self, align_corners: bool = False, half_pixel_centers: bool = False):
        if align_corners and half_pixel_centers:
            raise ValueError(f"For {type(self).__name__}, the half_pixel_centers must be false "
                             f"when align_corners is true, but half_pixel_centers got True.")
        self.align_corners = bool(align_corners)
        self.half_pixel_centers = bool(half_pixel_centers)

    def _check(self, x, arg: str) -> None:
        name = type(self).__name__
        if not isinstance(x, Tensor):
            raise TypeError(f"For {name}, the '{arg}' must be a Tensor, but got "
                            f"{type(x).__name__}.")
        if x.ndim != 4:
            raise ValueError(f"For primitive[{name}], the image rank must be equal to 4, but "
                             f"got {x.ndim}.")
        if str(x.dtype) not in _RESIZE_V2_TYPES:
            raise TypeError(f"For {name}, the '{arg}' must be a Tensor of "
                            f"{', '.join(_RESIZE_V2_TYPES)}, but got {x.dtype}.")


class ResizeNearestNeighborV2(_ResizeV2):
    """``ResizeNearestNeighborV2(align_corners=False, half_pixel_centers=False)(x, size)``:
    an NCHW image resized to ``size`` (height, width), each output pixel the input pixel
    nearest to its sampling point; ``half_pixel_centers`` samples at pixel centres (unlike
    ``ResizeNearestNeighbor``'s). Two gathers."""

    def __call__(self, x: Tensor, size) -> Tensor:
        self._check(x, "x")
        height, width = _resize_size(size)
        for axis, n_out in ((2, height), (3, width)):
            src = _sources(_size_of(x, axis), n_out, self.align_corners,
                           self.half_pixel_centers)
            x = F.gather(x, src, axis)
        return x


class ResizeNearestNeighborV2Grad(_ResizeV2):
    """``ResizeNearestNeighborV2Grad(align_corners, half_pixel_centers)(grads, size)``: the
    backward of ``ResizeNearestNeighborV2`` to an image of ``size`` (height, width): each
    cotangent summed onto the pixel its output read (products with one-hot matrices)."""

    def __call__(self, grads: Tensor, size) -> Tensor:
        self._check(grads, "grads")
        height, width = _resize_size(size)
        on, off = Tensor(1, grads.dtype), Tensor(0, grads.dtype)
        dx = grads
        for axis, n_in in ((2, height), (3, width)):
            src = _sources(n_in, _size_of(dx, axis), self.align_corners,
                           self.half_pixel_centers)
            pick = F.one_hot(src, n_in, on, off)  # (output positions, n_in)
            if axis == 2:
                dx = F.transpose(F.matmul(F.transpose(dx, (0, 1, 3, 2)), pick), (0, 1, 3, 2))
            else:
                dx = F.matmul(dx, pick)
        return dx
