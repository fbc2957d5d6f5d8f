"""``mindspore.scipy.fft``: the type-2 discrete cosine transform and its inverse, along one
axis (``dct``, ``idct``) or several (``dctn``, ``idctn``), orthonormal as MindSpore's
(``norm`` None or ``"ortho"``). Each is a matrix product with the orthonormal DCT-II matrix
(its transpose for the inverse), so it runs eagerly and in graphs and has gradients."""
from __future__ import annotations

import numpy as np

import graphkiln.ops as ops

from ..common import dtype as mstype
from ..common.tensor import Tensor

_INTS_HALF = (mstype.int16, mstype.int32, mstype.int64, mstype.float16, mstype.float32)


def _dct_matrix(n: int) -> np.ndarray:
    """``C[k, j] = s_k cos(pi k (2j + 1) / 2n)`` with ``s_0 = sqrt(1/n)``, else
    ``sqrt(2/n)``: orthonormal, so ``C^T`` inverts it."""
    k = np.arange(n)[:, None]
    j = np.arange(n)[None, :]
    c = np.cos(np.pi * k * (2 * j + 1) / (2 * n)) * np.sqrt(2.0 / n)
    c[0] /= np.sqrt(2.0)
    return c


def _check(name: str, x, type_: int, norm) -> Tensor:
    if not isinstance(x, Tensor):
        raise TypeError(f"For '{name}', 'x' must be a Tensor, but got {type(x).__name__}.")
    if type_ != 2:
        raise ValueError(f"For '{name}', only type 2 is supported, but got {type_}.")
    if norm not in (None, "ortho"):
        raise ValueError(f"For '{name}', only norm 'ortho' is supported, but got {norm!r}.")
    if x.dtype in _INTS_HALF:
        return ops.cast(x, mstype.float32)
    if x.dtype != mstype.float64:
        raise TypeError(f"For '{name}', the type of 'x' must be one of int16, int32, int64, "
                        f"float16, float32, float64, but got {x.dtype}.")
    return x


def _transform(x: Tensor, n, axis, inverse: bool, name: str) -> Tensor:
    if not isinstance(axis, int) or isinstance(axis, bool):
        raise TypeError(f"For '{name}', 'axis' must be an int, but got {type(axis).__name__}.")
    if not -x.ndim <= axis < x.ndim:
        raise ValueError(f"For '{name}', 'axis' must be in [{-x.ndim}, {x.ndim}), but got "
                         f"{axis}.")
    axis %= x.ndim
    size = x.shape[axis]
    n = size if n is None else n
    if not isinstance(n, int) or isinstance(n, bool):
        raise TypeError(f"For '{name}', 'n' must be an int, but got {type(n).__name__}.")
    if n < 1:
        raise ValueError(f"For '{name}', 'n' must be at least 1, but got {n}.")
    moved = ops.moveaxis(x, axis, -1)
    if n < size:
        moved = moved[..., :n]
    elif n > size:
        pad = ops.zeros(tuple(moved.shape[:-1]) + (n - size,), moved.dtype)
        moved = ops.concat((moved, pad), -1)
    c = _dct_matrix(n)
    out = ops.matmul(moved, Tensor((c if inverse else c.T).astype(x.dtype.np_dtype)))
    return ops.moveaxis(out, -1, axis)


def dct(x, type=2, n=None, axis=-1, norm=None) -> Tensor:  # noqa: A002
    """The orthonormal DCT-II of ``x`` along ``axis`` (``n`` truncates or zero-pads)."""
    return _transform(_check("dct", x, type, norm), n, axis, False, "dct")


def idct(x, type=2, n=None, axis=-1, norm=None) -> Tensor:  # noqa: A002
    """The inverse of ``dct`` along ``axis``."""
    return _transform(_check("idct", x, type, norm), n, axis, True, "idct")


def _axes_and_sizes(x: Tensor, s, axes) -> tuple:
    if axes is None:
        axes = tuple(range(x.ndim)) if s is None else tuple(range(x.ndim - len(s), x.ndim))
    axes = (axes,) if isinstance(axes, int) else tuple(axes)
    sizes = (None,) * len(axes) if s is None else ((s,) if isinstance(s, int) else tuple(s))
    if len(sizes) != len(axes):
        raise ValueError(f"'s' and 'axes' must have the same length, but got {len(sizes)} and "
                         f"{len(axes)}.")
    return axes, sizes


def dctn(x, type=2, s=None, axes=None, norm=None) -> Tensor:  # noqa: A002
    """The orthonormal DCT-II over each of ``axes`` (all by default)."""
    x = _check("dctn", x, type, norm)
    for axis, n in zip(*_axes_and_sizes(x, s, axes)):
        x = _transform(x, n, axis, False, "dctn")
    return x


def idctn(x, type=2, s=None, axes=None, norm=None) -> Tensor:  # noqa: A002
    """The inverse of ``dctn``."""
    x = _check("idctn", x, type, norm)
    for axis, n in zip(*_axes_and_sizes(x, s, axes)):
        x = _transform(x, n, axis, True, "idctn")
    return x
