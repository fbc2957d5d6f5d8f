"""``mint``'s PyTorch-style random functions: ``rand``, ``randn``, ``randint`` (``(high,
size)`` or ``(low, high, size)``), their ``*_like`` forms, ``normal``, ``bernoulli`` and
``multinomial``, over the draws of ``graphkiln.ops`` (``generator`` seeds a draw from that
Generator's state, as the in-place fills do; without one the process-wide stream)."""
from __future__ import annotations

import numpy as np

import graphkiln.ops as ops

from ..common import dtype as mstype
from ..common.tensor import Tensor
from ..ops.random_draws import generator_seed

__all__ = ["rand", "randn", "randint", "rand_like", "randn_like", "randint_like", "normal",
           "bernoulli", "multinomial"]


def _float(name: str, dtype):
    dtype = mstype.float32 if dtype is None else dtype
    if dtype not in (mstype.float16, mstype.float32, mstype.float64, mstype.bfloat16):
        raise ValueError(f"For '{name}', the 'dtype' must be a float type, but got {dtype}.")
    return dtype


def rand(*size, generator=None, dtype=None, device=None) -> Tensor:
    """Draws from [0, 1) of shape ``size`` (float32 unless ``dtype`` says)."""
    return ops.rand(*size, dtype=_float("rand", dtype), seed=generator_seed(generator))


def randn(*size, generator=None, dtype=None, device=None) -> Tensor:
    """Draws of N(0, 1) of shape ``size`` (float32 unless ``dtype`` says)."""
    return ops.randn(*size, dtype=_float("randn", dtype), seed=generator_seed(generator))


def rand_like(input: Tensor, *, dtype=None, device=None) -> Tensor:
    """``rand`` with ``input``'s shape (and dtype unless ``dtype`` says)."""
    return ops.rand_like(input, dtype=dtype)


def randn_like(input: Tensor, *, dtype=None, device=None) -> Tensor:
    """``randn`` with ``input``'s shape (and dtype unless ``dtype`` says)."""
    return ops.randn_like(input, dtype=dtype)


def _bounds(name: str, args: tuple, with_size: bool) -> tuple:
    """``(low, high, rest)`` from ``(high, ...)`` or ``(low, high, ...)``."""
    count = len(args) - (1 if with_size else 0)
    if count == 1:
        return 0, args[0], args[1:]
    if count == 2:
        return args[0], args[1], args[2:]
    raise TypeError(f"For '{name}', expected (high{', size' if with_size else ''}) or "
                    f"(low, high{', size' if with_size else ''}), but got {len(args)} "
                    f"arguments.")


def randint(*args, generator=None, dtype=None, device=None) -> Tensor:
    """Integers uniform in ``[low, high)``: ``randint(high, size)`` or ``randint(low,
    high, size)`` (int64 unless ``dtype`` says)."""
    low, high, rest = _bounds("randint", args, True)
    return ops.randint(low, high, tuple(rest[0]), generator_seed(generator),
                       dtype=mstype.int64 if dtype is None else dtype)


def randint_like(*args, dtype=None, device=None) -> Tensor:
    """``randint`` with the shape of ``args[0]``: ``(input, high)`` or ``(input, low,
    high)`` (``input``'s dtype unless ``dtype`` says)."""
    if not args or not isinstance(args[0], Tensor):
        raise TypeError("For 'randint_like', the first argument must be a Tensor.")
    low, high, _ = _bounds("randint_like", args[1:], False)
    return ops.randint_like(args[0], low, high, dtype=dtype)


def normal(mean=0.0, std=1.0, size=None, generator=None) -> Tensor:
    """Draws of N(mean, std**2): the broadcast shape of Tensor ``mean``/``std``, or ``size``
    for float ones."""
    seed = generator_seed(generator)
    tensors = [v for v in (mean, std) if isinstance(v, Tensor)]
    if not tensors:
        if size is None:
            raise ValueError("For 'normal', the 'size' must be given when 'mean' and 'std' "
                             "are numbers.")
        z = ops.standard_normal(tuple(size), seed)
        return ops.add(ops.mul(z, float(std)), float(mean))
    shape = np.broadcast_shapes(*(tuple(t.shape) for t in tensors))
    z = ops.standard_normal(shape, seed)
    dtype = tensors[0].dtype
    return ops.cast(ops.add(ops.mul(z, std), mean), dtype)


def bernoulli(input: Tensor, *, generator=None) -> Tensor:
    """1 with probability ``input`` (elementwise), else 0, in ``input``'s dtype."""
    return input.bernoulli(generator=generator)


def multinomial(input: Tensor, num_samples: int, replacement: bool = False, *,
                generator=None) -> Tensor:
    """int64 category indices drawn from the weights of each row of ``input``."""
    return ops.cast(ops.multinomial(input, num_samples, replacement, generator_seed(generator)),
                    mstype.int64)
