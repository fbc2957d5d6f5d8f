"""Signal windows: ``ops.blackman_window`` (the length as an int or a 0-D integer
Tensor known when it is called)."""
from __future__ import annotations

import numpy as np

from ..common import dtype as mstype
from ..common.tensor import Tensor

__all__ = ["blackman_window"]


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


def blackman_window(window_length, periodic: bool = True, *, dtype=None) -> Tensor:
    """``0.42 - 0.5 cos(2 pi n / M) + 0.08 cos(4 pi n / M)`` for ``n < window_length``,
    ``M = window_length`` when ``periodic`` else ``window_length - 1``."""
    n = _length("blackman_window", window_length)
    t = mstype.float32 if dtype is None else mstype.to_type(dtype)
    if not t.is_float:
        raise TypeError(f"For 'blackman_window', 'dtype' must be a float type, but got {t}.")
    if n <= 1:
        return Tensor(np.ones(n, t.np_dtype))
    m = n if periodic else n - 1
    k = np.arange(n, dtype=np.float64)
    w = 0.42 - 0.5 * np.cos(2 * np.pi * k / m) + 0.08 * np.cos(4 * np.pi * k / m)
    return Tensor(w.astype(t.np_dtype))
