"""``ops.fractional_max_pool2d`` / ``ops.fractional_max_pool3d`` over the primitives of
:mod:`.defs.fractional_pool`: the output size is ``output_size`` or ``output_ratio`` times
the input's, the windows' offsets come from ``_random_samples`` (uniform draws in
``[0, 1)`` per example and channel when it is None)."""
from __future__ import annotations

import graphkiln.ops.functional as F
import graphkiln.ops.random_functions as R

from ..common import dtype as mstype
from ..common.tensor import Tensor
from .defs import fractional_pool as FP

__all__ = ["fractional_max_pool2d", "fractional_max_pool3d"]


def _output_size(name: str, k: int, spatial: tuple, output_size, output_ratio) -> tuple:
    if output_size is None and output_ratio is None:
        raise ValueError(f"For {name}, 'output_size' and 'output_ratio' can not be None at "
                         f"the same time.")
    if output_size is not None:
        return (output_size,) * k if isinstance(output_size, int) else tuple(output_size)
    ratio = (output_ratio,) * k if isinstance(output_ratio, (int, float)) else \
        tuple(output_ratio)
    if len(ratio) != k or any(not 0.0 < r < 1.0 for r in ratio):
        raise ValueError(f"For {name}, each 'output_ratio' must be in (0, 1), but got "
                         f"{output_ratio}.")
    return tuple(int(s * r) for s, r in zip(spatial, ratio))


def _samples(x: Tensor, n: int, c: int, k: int) -> Tensor:
    return R.rand(n, c, k, dtype=x.dtype if x.dtype.is_float else mstype.float32)


def _check_indices(name: str, return_indices) -> None:
    if not isinstance(return_indices, bool):
        raise TypeError(f"For '{name}', the 'return_indices' must be a bool, but got "
                        f"{type(return_indices).__name__}.")


def fractional_max_pool2d(input: Tensor, kernel_size, output_size=None, output_ratio=None,
                          return_indices: bool = False, _random_samples=None):
    """2-D fractional max pooling of ``(N, C, H, W)`` or ``(C, H, W)`` ``input``."""
    name = "fractional_max_pool2d"
    _check_indices(name, return_indices)
    unbatched = input.ndim == 3
    x = F.expand_dims(input, 0) if unbatched else input
    samples = _samples(x, x.shape[0], x.shape[1], 2) if _random_samples is None \
        else _random_samples
    size = _output_size(name, 2, x.shape[-2:], output_size, output_ratio)
    y, argmax = FP.FractionalMaxPoolWithFixedKsize(x, samples, ksize=kernel_size,
                                                   output_shape=size)
    if unbatched:
        y, argmax = F.squeeze(y, 0), F.squeeze(argmax, 0)
    return (y, argmax) if return_indices else y


def fractional_max_pool3d(input: Tensor, kernel_size, output_size=None, output_ratio=None,
                          return_indices: bool = False, _random_samples=None):
    """3-D fractional max pooling of ``(N, C, D, H, W)`` or ``(C, D, H, W)`` ``input``;
    ``_random_samples`` is ``(N, C, 3)`` (``(1, C, 3)`` for an unbatched input)."""
    name = "fractional_max_pool3d"
    _check_indices(name, return_indices)
    n = 1 if input.ndim == 4 else input.shape[0]
    samples = _samples(input, n, input.shape[-4], 3) if _random_samples is None \
        else _random_samples
    if input.ndim == 4:
        samples = F.transpose(samples, (1, 0, 2))
    if samples.dtype != input.dtype:
        raise TypeError(f"For '{name}', 'input' and '_random_samples' must be same dtype, but "
                        f"got Tensor[{input.dtype}] and Tensor[{samples.dtype}].")
    size = _output_size(name, 3, input.shape[-3:], output_size, output_ratio)
    y, argmax = FP.FractionalMaxPool3DWithFixedKsize(input, samples, ksize=kernel_size,
                                                     output_shape=size)
    return (y, argmax) if return_indices else y
