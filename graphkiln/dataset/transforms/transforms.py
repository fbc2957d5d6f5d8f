"""General data transforms (``mindspore.dataset.transforms``) and their base class."""
from __future__ import annotations

import random

import numpy as np

from ...common import dtype as mstype
from ...common.tensor import Tensor
from ..randomness import draws

__all__ = [
    "TensorOperation",
    "Compose",
    "RandomApply",
    "RandomChoice",
    "RandomOrder",
    "TypeCast",
    "OneHot",
    "Fill",
    "Duplicate",
    "Concatenate",
    "PadEnd",
]


def _as_array(x):
    return x.asnumpy() if isinstance(x, Tensor) else x


class TensorOperation:
    """A transform: called on NumPy arrays (or Tensors, or PIL images for vision ops) in
    a ``map`` or eagerly. ``random`` marks transforms that draw random numbers."""

    random = False

    @property
    def op_name(self) -> str:
        return type(self).__name__

    def __call__(self, *args):
        return self._apply(*(_as_array(a) for a in args))

    def _apply(self, *args):
        raise NotImplementedError(f"{self.op_name} does not implement _apply")


def check_prob(prob) -> float:
    if isinstance(prob, bool) or not isinstance(prob, (int, float)) or not 0 <= prob <= 1:
        raise ValueError(f"Input prob is not within the required interval of [0.0, 1.0], "
                         f"got {prob!r}.")
    return float(prob)


def _as_ops(transforms, name: str) -> list:
    ops = list(transforms) if isinstance(transforms, (list, tuple)) else None
    if not ops or not all(callable(t) for t in ops):
        raise TypeError(f"{name}: transforms should be a non-empty list of callables.")
    return ops


def _run(ops: list, args: tuple):
    for op in ops:
        out = op(*args)
        args = out if isinstance(out, tuple) else (out,)
    return args[0] if len(args) == 1 else args


class Compose(TensorOperation):
    """Apply ``transforms`` in order."""

    def __init__(self, transforms):
        self.transforms = _as_ops(transforms, "Compose")
        self.random = any(getattr(t, "random", False) for t in self.transforms)

    def __call__(self, *args):
        return _run(self.transforms, args)


class RandomApply(TensorOperation):
    """Apply ``transforms`` in order with probability ``prob``."""

    random = True

    def __init__(self, transforms, prob: float = 0.5):
        self.transforms = _as_ops(transforms, "RandomApply")
        self.prob = check_prob(prob)

    def __call__(self, *args):
        if draws(self).uniform_double(0.0, 1.0) > self.prob:  # MindSpore applies at <= prob
            return args[0] if len(args) == 1 else args
        return _run(self.transforms, args)


class RandomOrder(TensorOperation):
    """Apply all of ``transforms`` in a random order: as MindSpore's (a Python operation),
    each call reshuffles the previous order with Python's ``random``."""

    random = True

    def __init__(self, transforms):
        self.transforms = _as_ops(transforms, "RandomOrder")

    def __call__(self, *args):
        random.shuffle(self.transforms)
        return _run(self.transforms, args)


class RandomChoice(TensorOperation):
    """Apply one of ``transforms``, chosen uniformly."""

    random = True

    def __init__(self, transforms):
        self.transforms = _as_ops(transforms, "RandomChoice")

    def __call__(self, *args):
        op = self.transforms[draws(self).uniform_int(0, len(self.transforms) - 1)]
        return _run([op], args)


class TypeCast(TensorOperation):
    """Cast to ``data_type`` (a MindSpore or NumPy type)."""

    def __init__(self, data_type):
        try:
            self.np_dtype = mstype.to_type(data_type).np_dtype
        except TypeError:
            raise TypeError(f"Argument data_type with value {data_type!r} is not of type "
                            f"[<class 'mindspore._c_expression.typing.Type'>, "
                            f"<class 'numpy.dtype'>].") from None

    def _apply(self, x):
        return np.asarray(x).astype(self.np_dtype)


class OneHot(TensorOperation):
    """Integer labels to one-hot rows of ``num_classes`` (``smoothing_rate`` smooths)."""

    def __init__(self, num_classes: int, smoothing_rate: float = 0.0):
        if isinstance(num_classes, bool) or not isinstance(num_classes, int) or \
                num_classes <= 0:
            raise ValueError("Input num_classes is not within the required interval of "
                             "[1, 2147483647].")
        if not 0.0 <= smoothing_rate <= 1.0:
            raise ValueError("Input smoothing_rate is not within the required interval of "
                             "[0.0, 1.0].")
        self.num_classes = num_classes
        self.smoothing_rate = smoothing_rate

    def _apply(self, x):
        x = np.asarray(x)
        if x.dtype.kind not in "iu":
            raise RuntimeError(f"OneHot: the input should be integers, got {x.dtype}.")
        if ((x < 0) | (x >= self.num_classes)).any():
            raise RuntimeError(f"OneHot: a label is outside [0, {self.num_classes}).")
        out = np.eye(self.num_classes, dtype=x.dtype)[x]
        if self.smoothing_rate:
            out = out.astype(np.float64) * (1 - self.smoothing_rate) + \
                self.smoothing_rate / self.num_classes
        return out


class Fill(TensorOperation):
    """Every element set to ``fill_value`` (cast to the input's type)."""

    def __init__(self, fill_value):
        if not isinstance(fill_value, (int, float, str, bytes, bool)):
            raise TypeError("fill_value should be a number, str or bytes.")
        self.fill_value = fill_value

    def _apply(self, x):
        x = np.asarray(x)
        return np.full_like(x, self.fill_value)


class Duplicate(TensorOperation):
    """The input and a copy of it (two columns)."""

    def _apply(self, x):
        x = np.asarray(x)
        return x, x.copy()


class Concatenate(TensorOperation):
    """Concatenate 1-D input with ``prepend`` and ``append`` along ``axis`` (0 or -1)."""

    def __init__(self, axis: int = 0, prepend=None, append=None):
        if axis not in (0, -1):
            raise ValueError("Concatenate only supports axis 0 or -1 (1-D tensors).")
        self.prepend = None if prepend is None else np.asarray(prepend)
        self.append = None if append is None else np.asarray(append)

    def _apply(self, x):
        x = np.asarray(x)
        if x.ndim != 1:
            raise RuntimeError(f"Concatenate: only 1-D input is supported, got shape "
                               f"{list(x.shape)}.")
        parts = [p for p in (self.prepend, x, self.append) if p is not None]
        return np.concatenate(parts)


class PadEnd(TensorOperation):
    """Pad (or cut) each dimension at its end to ``pad_shape`` with ``pad_value`` (``None``: 0,
    or "" for strings). A ``None`` dimension fails when the op runs, as in MindSpore 2.10."""

    def __init__(self, pad_shape: list, pad_value=None):
        if not isinstance(pad_shape, list):
            raise TypeError(f"Argument pad_shape with value {pad_shape!r} is not of type "
                            "[<class 'list'>].")
        for d in pad_shape:
            if d is not None and (isinstance(d, bool) or not isinstance(d, int)):
                raise TypeError(f"pad_shape should be a list of int, got {pad_shape!r}.")
            if d is not None and d <= 0:
                raise ValueError(f"pad_shape should be positive, got {pad_shape!r}.")
        if pad_value is not None and not isinstance(pad_value, (str, bytes, int, float, bool)):
            raise TypeError(f"Argument pad_value with value {pad_value!r} is not of type "
                            "[str, bytes, int, float, bool].")
        self.pad_shape = pad_shape
        self.pad_value = pad_value

    def _apply(self, x):
        x = np.asarray(x)
        if x.ndim != len(self.pad_shape):
            raise RuntimeError(f"PadEnd: pad_shape {self.pad_shape} and the input shape "
                               f"{list(x.shape)} differ in rank.")
        if None in self.pad_shape:
            raise RuntimeError(f"PadEnd: pad_shape {self.pad_shape} has an unknown dimension.")
        shape = self.pad_shape
        value = self.pad_value
        if value is None:
            value = "" if x.dtype.kind in "US" else 0
        dtype = np.result_type(x.dtype, np.asarray(value).dtype) if x.dtype.kind in "US" \
            else x.dtype
        out = np.full(shape, value, dtype=dtype)
        keep = tuple(slice(0, min(n, d)) for n, d in zip(x.shape, shape))
        out[keep] = x[keep]
        return np.array(out.tolist(), dtype=str) if x.dtype.kind == "U" else out
