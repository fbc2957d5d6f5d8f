"""Primitives of MindSpore's inner, sparse and random modules that graphkiln composes of its
own (``_inner_ops.ClipByNorm``, ``_inner_ops.TensorCopySlices``, ``ops.Dense``,
``ops.Cauchy``, ``sparse_ops.SparseDenseCwiseAdd/Mul/Div``, ``ops.SparseToDense``,
``math_ops.Median``, ``nn_ops.SparseSoftmaxCrossEntropyWithLogitsV2``): each
instance keeps its attributes and, called, traces the parts, so gradients and vmap come
from their rules."""
from __future__ import annotations

import math

import graphkiln.ops.functional as F
import graphkiln.ops.random_functions as R

from ..common import dtype as mstype
from ..common.tensor import Tensor
from .composed_primitives import _Composed
from .defs.array import strided_index

__all__ = ["ClipByNorm", "TensorCopySlices", "Dense", "Cauchy", "SparseDenseCwiseAdd",
           "SparseDenseCwiseMul", "SparseDenseCwiseDiv", "SparseToDense", "Median",
           "SparseSoftmaxCrossEntropyWithLogitsV2"]


class ClipByNorm(_Composed):
    """``(x, clip_norm) ->`` float32 ``x * clip_norm / l2`` where the L2 norm ``l2`` of ``x``
    over ``axis`` (every axis for None) exceeds ``clip_norm``, else ``x``."""

    def __init__(self, axis=None):
        self.axis = () if axis is None else axis
        axes = self.axis if isinstance(self.axis, (tuple, list)) else (self.axis,)
        if not isinstance(self.axis, (int, tuple, list)) or isinstance(self.axis, bool) or any(
                isinstance(a, bool) or not isinstance(a, int) for a in axes):
            raise TypeError(f"For 'ClipByNorm', the 'axis' must be an int, a tuple or list of "
                            f"ints, or None, but got {axis!r}.")

    def __call__(self, x: Tensor, clip_norm: Tensor) -> Tensor:
        for name, v in (("x", x), ("clip_norm", clip_norm)):
            if not isinstance(v, Tensor) or v.dtype not in (mstype.float16, mstype.float32):
                raise TypeError(f"For 'ClipByNorm', the '{name}' must be a float16 or float32 "
                                f"Tensor, but got {v!r}.")
        xf, c = F.cast(x, mstype.float32), F.cast(clip_norm, mstype.float32)
        axis = None if self.axis in ((), []) else tuple(self.axis) \
            if isinstance(self.axis, list) else self.axis
        norm = F.sqrt(F.reduce_sum(F.square(xf), axis, True))
        return F.select(F.greater(norm, c), F.div(F.mul(xf, c), F.maximum(norm, c)), xf)


class TensorCopySlices(_Composed):
    """``(x, value, begin, end, strides) ->`` a copy of ``x`` whose
    ``x[begin:end:strides]`` (per axis) holds ``value``."""

    def __call__(self, x: Tensor, value: Tensor, begin, end, strides) -> Tensor:
        index = strided_index(tuple(begin), tuple(end), tuple(strides))
        return F.setitem(x, index, value)


class Dense(_Composed):
    """``(x, w, b=None) -> x @ w^T + b`` (a 1-D ``w``: ``x @ w``)."""

    def __call__(self, x: Tensor, w: Tensor, b: Tensor | None = None) -> Tensor:
        k_x, k_w = x.shape[-1], w.shape[-1]
        if k_x >= 0 and k_w >= 0 and k_x != k_w:
            raise ValueError(f"For 'Dense', the last dimension of 'x' ({k_x}) and of 'w' "
                             f"({k_w}) must be equal, but got shapes {list(x.shape)} and "
                             f"{list(w.shape)}.")
        out = F.matmul(x, F.transpose(w, (1, 0)) if w.ndim == 2 else w)
        return out if b is None else F.add(out, b)


class Cauchy(_Composed):
    """``() ->`` float32 draws of shape ``size`` from the Cauchy distribution of location
    ``median`` and scale ``sigma`` (``median + sigma * tan(pi (u - 1/2))``, ``u`` uniform)."""

    def __init__(self, size, median: float = 0.0, sigma: float = 1.0):
        for name, v in (("median", median), ("sigma", sigma)):
            if not isinstance(v, float):
                raise TypeError(f"For 'Cauchy', the '{name}' must be a float, but got "
                                f"{type(v).__name__}.")
        if not isinstance(size, list):
            raise TypeError(f"For 'Cauchy', the 'size' must be a list, but got "
                            f"{type(size).__name__}.")
        if not size:
            raise ValueError("For 'Cauchy', the 'size' must not be empty.")
        for i, d in enumerate(size):
            if isinstance(d, bool) or not isinstance(d, int) or d <= 0:
                raise ValueError(f"For 'Cauchy', the 'size[{i}]' must be a positive int, but "
                                 f"got {d!r}.")
        self.size, self.median, self.sigma = size, median, sigma

    def __call__(self) -> Tensor:
        u = R.rand(*self.size)
        return F.add(F.mul(F.tan(F.mul(F.sub(u, 0.5), math.pi)), self.sigma), self.median)


class _SparseDenseCwise(_Composed):
    """``(x1_indices, x1_values, x1_shape, x2) ->`` the values of the sparse ``x1`` combined
    with the elements of the dense ``x2`` (broadcast to ``x1_shape``) at ``x1_indices``."""

    combine = staticmethod(F.add)

    def __call__(self, x1_indices: Tensor, x1_values: Tensor, x1_shape: Tensor,
                 x2: Tensor) -> Tensor:
        rank, lead = x1_indices.shape[-1], x1_indices.shape[-1] - x2.ndim
        if rank >= 0 and lead < 0:
            raise ValueError(f"For '{type(self).__name__}', 'x2' of rank {x2.ndim} cannot be "
                             f"broadcast to the sparse shape of rank {rank}.")
        # an axis of size 1 in x2 broadcasts: its index is clamped to 0
        last = F.sub(F.cast(F.dyn_shape(x2), mstype.int64), 1)
        where = F.minimum(F.cast(x1_indices[:, lead:], mstype.int64), last)
        dense = F.gather_nd(x2, where)
        return self.combine(x1_values, F.cast(dense, x1_values.dtype))


class SparseDenseCwiseAdd(_SparseDenseCwise):
    __doc__ = _SparseDenseCwise.__doc__ + " Added."


class SparseDenseCwiseMul(_SparseDenseCwise):
    __doc__ = _SparseDenseCwise.__doc__ + " Multiplied."
    combine = staticmethod(F.mul)


class SparseDenseCwiseDiv(_SparseDenseCwise):
    __doc__ = _SparseDenseCwise.__doc__ + " Divided (``x1 / x2``)."
    combine = staticmethod(F.div)


_SPARSE_TO_DENSE_VALUES = (mstype.bool_, mstype.int8, mstype.int16, mstype.int32, mstype.int64,
                           mstype.uint8, mstype.uint16, mstype.uint32, mstype.uint64,
                           mstype.float16, mstype.float32, mstype.float64)


class SparseToDense(_Composed):
    """``(indices, values, sparse_shape) ->`` the dense Tensor of ``sparse_shape`` holding
    ``values[k]`` at ``indices[k]`` and zeros elsewhere (of a repeated index, the last value,
    as MindSpore's kernel); ``values``' gradient reads the cotangent at ``indices``."""

    def __call__(self, indices: Tensor, values: Tensor, sparse_shape) -> Tensor:
        for name, a, types, rank in (("indices", indices, (mstype.int32, mstype.int64), 2),
                                     ("values", values, _SPARSE_TO_DENSE_VALUES, 1)):
            if not isinstance(a, Tensor) or a.dtype not in types:
                shown = a.dtype if isinstance(a, Tensor) else type(a).__name__
                raise TypeError(f"For 'SparseToDense', the '{name}' must be a Tensor of "
                                f"{[str(t) for t in types]}, but got {shown}.")
            if a.ndim != rank:
                raise ValueError(f"For 'SparseToDense', the dimension of '{name}' must be equal "
                                 f"to {rank}, but got {a.ndim}.")
        if isinstance(sparse_shape, Tensor):
            sparse_shape = sparse_shape.asnumpy()
        shape = tuple(int(d) for d in sparse_shape)
        if indices.shape[1] >= 0 and indices.shape[1] != len(shape):
            raise ValueError(f"For 'SparseToDense', the second dimension of 'indices' must be "
                             f"the rank of 'sparse_shape' {len(shape)}, but got "
                             f"{indices.shape[1]}.")
        if values.dtype in (mstype.uint16, mstype.uint32, mstype.uint64):
            # (TensorScatterUpdate has no such kernel: scattered as int64, the bits kept)
            wide = F.cast(values, mstype.int64)
            dense = F.tensor_scatter_update(F.zeros(shape, mstype.int64), indices, wide)
            return F.cast(dense, values.dtype)
        return F.tensor_scatter_update(F.zeros(shape, values.dtype), indices, values)


class SparseSoftmaxCrossEntropyWithLogitsV2(_Composed):
    """``(logits, labels) -> (loss, backprop)``: per example (row of the 2-D ``logits``) the
    cross entropy of the softmax at its class ``labels[i]``, and its gradient with respect
    to the logits (``softmax - one_hot(labels)``)."""

    def __call__(self, logits: Tensor, labels: Tensor) -> tuple:
        name = "SparseSoftmaxCrossEntropyWithLogitsV2"
        if not isinstance(logits, Tensor) or logits.dtype not in (mstype.float16,
                                                                  mstype.float32):
            raise TypeError(f"For '{name}', the 'logits' must be a Tensor of float16 or "
                            f"float32, but got {getattr(logits, 'dtype', type(logits))}.")
        if not isinstance(labels, Tensor) or labels.dtype not in (mstype.int32, mstype.int64):
            raise TypeError(f"For '{name}', the 'labels' must be a Tensor of int32 or int64, "
                            f"but got {getattr(labels, 'dtype', type(labels))}.")
        if logits.ndim != 2 or labels.ndim != 1 or (
                labels.shape[0] >= 0 and logits.shape[0] >= 0 and
                labels.shape[0] != logits.shape[0]):
            raise ValueError(f"For '{name}', the 'logits' must be 2-D and the 'labels' 1-D with "
                             f"one class per row, but got shapes {logits.shape} and "
                             f"{labels.shape}.")
        log_p = F.log_softmax(logits, -1)
        picked = F.gather_elements(log_p, 1, F.expand_dims(labels, 1))
        loss = F.neg(F.squeeze(picked, 1))
        depth = F.shape(logits)[1]
        hot = F.one_hot(labels, depth, Tensor(1, logits.dtype), Tensor(0, logits.dtype))
        return loss, F.sub(F.exp(log_p), hot)


class Median(_Composed):
    """``x -> (y, indices)``: the lower median of ``x`` along ``axis`` and its int64 index,
    or with ``global_median`` the median of all elements (0-d, ``indices`` 0; its gradient
    is shared by the elements equal to it). A line holding NaN gives NaN (at a NaN's index)
    unless ``ignore_nan``, which takes the median of the other values. Of equal values the
    first in sorted order is taken (MindSpore's kernel may give another's index)."""

    _DTYPES = (mstype.float32, mstype.float64, mstype.int16, mstype.int32, mstype.int64)

    def __init__(self, global_median: bool = False, axis: int = 0, keep_dims: bool = False,
                 ignore_nan: bool = False):
        for name, v, kind in (("global_median", global_median, "bool"), ("axis", axis, "int"),
                              ("keep_dims", keep_dims, "bool"),
                              ("ignore_nan", ignore_nan, "bool")):
            if type(v).__name__ != kind and not (kind == "int" and isinstance(v, int)
                                                 and not isinstance(v, bool)):
                raise TypeError(f"For 'Median', the type of '{name}' should be '{kind}', but "
                                f"got type '{type(v).__name__}'.")
        self.global_median, self.axis = global_median, axis
        self.keep_dims, self.ignore_nan = keep_dims, ignore_nan

    def __call__(self, x: Tensor) -> tuple:
        if not isinstance(x, Tensor) or x.dtype not in self._DTYPES:
            allowed = ", ".join(f"Tensor[{t}]" for t in self._DTYPES)
            got = f"Tensor[{x.dtype}]" if isinstance(x, Tensor) else type(x).__name__
            raise TypeError(f"For primitive[Median], the input argument[x] must be a type of "
                            f"{{{allowed}}}, but got {got}.")
        if self.global_median:
            if self.axis != 0:
                raise ValueError(f"For 'Median', when 'global_median' is True, the 'axis' "
                                 f"must be 0, but got {self.axis}.")
            return self._global(F.reshape(x, (-1,))), F.zeros((), mstype.int64)
        rank = max(x.ndim, 1)
        if not -rank <= self.axis < rank:
            raise ValueError(f"For primitive[Median], the axis must be in [{-rank},{rank}), "
                             f"but got {self.axis}.")
        if x.ndim == 0:
            return x, F.zeros((), mstype.int64)
        value, index = self._line_median(x, self.axis % x.ndim)
        if not self.keep_dims:
            value, index = F.squeeze(value, self.axis % x.ndim), F.squeeze(index,
                                                                            self.axis % x.ndim)
        return value, index

    def _line_median(self, x: Tensor, ax: int) -> tuple:
        """The median of each line along ``ax`` and its index, ``ax`` kept (size 1)."""
        values, order = F.sort(x, ax)
        n = x.shape[ax]
        if x.dtype in (mstype.float32, mstype.float64):  # the sort puts NaNs last
            nans = F.reduce_sum(F.cast(F.isnan(x), mstype.int32), ax, True)
            if self.ignore_nan:
                middle = F.maximum(F.floor_div(F.sub(F.sub(n, nans), 1), 2),
                                   F.zeros((), mstype.int32))
            else:
                middle = F.select(F.greater(nans, 0), F.sub(n, nans),
                                  F.fill(mstype.int32, nans.shape, (n - 1) // 2))
        else:
            shape = list(x.shape)
            shape[ax] = 1
            middle = F.fill(mstype.int32, tuple(shape), (n - 1) // 2)
        return (F.gather_elements(values, ax, middle),
                F.cast(F.gather_elements(order, ax, middle), mstype.int64))

    def _global(self, flat: Tensor) -> Tensor:
        """The median of ``flat``; a float one passes its gradient in equal shares to the
        elements equal to it; of no elements NaN (0 for integers), as MindSpore's kernel."""
        floats = flat.dtype in (mstype.float32, mstype.float64)
        if flat.shape[0] == 0:
            return F.fill(flat.dtype, (), math.nan if floats else 0)
        value = F.reshape(self._line_median(flat, 0)[0], ())
        if not floats:
            return value
        value = F.stop_gradient(value)
        tied = F.equal(F.stop_gradient(flat), value)
        ties = F.cast(tied, flat.dtype)
        share = F.div(ties, F.maximum(F.reduce_sum(ties), 1))
        # (only the tied elements: a NaN elsewhere, ignored, must not reach the value)
        delta = F.select(tied, F.sub(flat, F.stop_gradient(flat)), F.zeros_like(flat))
        return F.add(value, F.reduce_sum(F.mul(delta, share)))
