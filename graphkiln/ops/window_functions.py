"""Signal windows: ``ops.blackman_window``, ``bartlett_window``, ``hamming_window``,
``hann_window`` and ``kaiser_window`` (the length as an int or a 0-D integer Tensor known
when it is called)."""
from __future__ import annotations

import numpy as np

from ..common import dtype as mstype
from ..common.tensor import Tensor

__all__ = ["blackman_window", "bartlett_window", "hamming_window", "hann_window",
           "kaiser_window"]


def _length(name: str, window_length) -> int:
    if isinstance(window_length, Tensor):
        if window_length.ndim != 0 or not window_length.dtype.is_int:
            raise TypeError(f"For '{name}', 'window_length' must be a 0-D integer Tensor, "
                            f"but got {window_length.dtype} of shape "
                            f"{list(window_length.shape)}.")
        window_length = int(window_length.asnumpy())
    if isinstance(window_length, bool) or not isinstance(window_length, int):
        raise TypeError(f"For '{name}', 'window_length' must be an int, but got "
                        f"{type(window_length).__name__}.")
    if window_length < 0:
        raise ValueError(f"For '{name}', 'window_length' must be non-negative, but got "
                         f"{window_length}.")
    return window_length


def _window(name: str, window_length, periodic: bool, dtype, shape,
            default=mstype.float32) -> Tensor:
    """``shape(k, m)`` (``k = 0..n-1``, ``m = n`` when ``periodic`` else ``n - 1``) in
    ``dtype`` (``default`` when None); ones for ``n <= 1``."""
    n = _length(name, window_length)
    t = default if dtype is None else mstype.to_type(dtype)
    if not t.is_float:
        raise TypeError(f"For '{name}', 'dtype' must be a float type, but got {t}.")
    if n <= 1:
        return Tensor(np.ones(n, t.np_dtype))
    m = n if periodic else n - 1
    return Tensor(shape(np.arange(n, dtype=np.float64), m).astype(t.np_dtype))


def blackman_window(window_length, periodic: bool = True, *, dtype=None) -> Tensor:
    """``0.42 - 0.5 cos(2 pi n / M) + 0.08 cos(4 pi n / M)``."""
    return _window("blackman_window", window_length, periodic, dtype, lambda k, m: (
        0.42 - 0.5 * np.cos(2 * np.pi * k / m) + 0.08 * np.cos(4 * np.pi * k / m)))


def bartlett_window(window_length, periodic: bool = True, *, dtype=None) -> Tensor:
    """The triangle ``1 - |2 n / M - 1|``."""
    return _window("bartlett_window", window_length, periodic, dtype,
                   lambda k, m: 1 - np.abs(2 * k / m - 1))


def hamming_window(window_length, periodic: bool = True, alpha: float = 0.54,
                   beta: float = 0.46, *, dtype=None) -> Tensor:
    """``alpha - beta cos(2 pi n / M)``."""
    return _window("hamming_window", window_length, periodic, dtype,
                   lambda k, m: alpha - beta * np.cos(2 * np.pi * k / m))


def hann_window(window_length, periodic: bool = True, *, dtype=None) -> Tensor:
    """``0.5 - 0.5 cos(2 pi n / M)`` (float64 by default, as MindSpore's)."""
    return _window("hann_window", window_length, periodic, dtype,
                   lambda k, m: 0.5 - 0.5 * np.cos(2 * np.pi * k / m), mstype.float64)


def kaiser_window(window_length, periodic: bool = True, beta: float = 12.0, *,
                  dtype=None) -> Tensor:
    """``I0(beta sqrt(1 - (2 n / M - 1)^2)) / I0(beta)`` (float64 by default, as
    MindSpore's)."""
    return _window("kaiser_window", window_length, periodic, dtype,
                   lambda k, m: np.i0(beta * np.sqrt(np.clip(1 - (2 * k / m - 1) ** 2, 0, 1)))
                   / np.i0(beta), mstype.float64)
