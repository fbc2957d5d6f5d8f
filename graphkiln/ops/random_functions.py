"""Functional random ops (``ops.standard_normal``, ``ops.normal``, ``ops.randn``,
``ops.shuffle``, ``ops.random_poisson``...), over the primitives of
:mod:`graphkiln.ops.defs.random` (see there how seeds work).

Each call makes a new primitive seeded as MindSpore's functions seed theirs
(:func:`graphkiln.common.seed.graph_seed`: the global seed and a per-function counter that
every call advances), so after the same ``graphkiln.set_seed`` the draws of
``standard_normal``, ``normal``, ``uniform``, ``randn`` and ``rand`` are MindSpore's. Without
a global seed and with ``seed=None`` every call draws fresh numbers.
"""
from __future__ import annotations

import numpy as np

from ..common import dtype as mstype
from ..common.seed import graph_seed
from ..common.tensor import Tensor
from .defs import array as A
from .defs import candidate_sampler as CS
from .defs import math as M
from .defs import random as RD

_FLOAT_TYPES = (mstype.float16, mstype.float32, mstype.float64)


class GeneratorSeed(int):
    """A seed drawn from a ``Generator``'s state: it fixes the draws itself (the primitive's
    ``seed``), not through the per-function counters."""


def primitive_seeds(name: str, seed) -> dict:
    """The seeds of the primitive the function ``name`` makes for this call."""
    if isinstance(seed, GeneratorSeed):
        return {"seed": int(seed), "seed2": 0}
    seed1, seed2 = graph_seed(seed, name)
    return {"seed": seed1, "seed2": seed2}


def normal_draws(name: str, shape, seed) -> Tensor:
    """float32 draws of N(0, 1) for the function ``name`` (its seed counter)."""
    return RD.StandardNormal(shape, **primitive_seeds(name, seed))


def uniform_draws(name: str, shape, seed) -> Tensor:
    """float32 draws from [0, 1) for the function ``name`` (its seed counter)."""
    return RD.UniformReal(shape, **primitive_seeds(name, seed))


def int_draws(name: str, shape, low: Tensor, high: Tensor, seed) -> Tensor:
    """int32 draws from [low, high) for the function ``name`` (its seed counter)."""
    return RD.UniformInt(shape, low, high, **primitive_seeds(name, seed))


def standard_normal(shape, seed=None) -> Tensor:
    """float32 draws of N(0, 1) with the given shape (a tuple of ints or an int Tensor)."""
    return normal_draws("standard_normal", shape, seed)


def standard_laplace(shape, seed=None) -> Tensor:
    """float32 draws of the Laplace distribution of location 0 and scale 1."""
    return RD.StandardLaplace(shape, **primitive_seeds("standard_laplace", seed))


def _as_tensor(name: str, arg: str, v) -> Tensor:
    if isinstance(v, Tensor):
        return v
    if isinstance(v, (int, float)) and not isinstance(v, bool):
        return Tensor(v, mstype.float32)
    raise TypeError(f"For '{name}', the '{arg}' must be a Tensor or a number, but got "
                    f"{type(v).__name__}.")


def normal(shape, mean, stddev, seed=None) -> Tensor:
    """Draws of N(mean, stddev**2): ``shape`` draws, broadcast with ``mean`` and ``stddev``
    (as MindSpore's, values repeat along the dims only they have)."""
    mean, stddev = _as_tensor("normal", "mean", mean), _as_tensor("normal", "stddev", stddev)
    np.broadcast_shapes(tuple(shape), tuple(mean.shape), tuple(stddev.shape))
    return M.Add(M.Mul(normal_draws("normal", tuple(shape), seed), stddev), mean)


def uniform(shape, minval: Tensor, maxval: Tensor, seed=None, dtype=mstype.float32) -> Tensor:
    """Draws from [minval, maxval): float32 (``shape`` broadcast with the bounds' shapes)
    or int32 (0-D int32 bounds)."""
    if dtype is mstype.int32:
        return int_draws("uniform", shape, minval, maxval, seed)
    if dtype is not mstype.float32:
        raise TypeError(f"For 'uniform', the 'dtype' must be mindspore.float32 or "
                        f"mindspore.int32, but got {dtype}.")
    for arg, v in (("minval", minval), ("maxval", maxval)):
        if not isinstance(v, Tensor) or v.dtype is not mstype.float32:
            raise TypeError(f"For 'uniform', the '{arg}' must be a float32 Tensor when 'dtype' "
                            f"is float32, but got {v!r}.")
    np.broadcast_shapes(tuple(shape), tuple(minval.shape), tuple(maxval.shape))
    draws = uniform_draws("uniform", tuple(shape), seed)
    return M.Add(M.Mul(draws, M.Sub(maxval, minval)), minval)


def _size(name: str, size) -> tuple:
    """``randn(2, 3)`` or ``randn((2, 3))``: the shape."""
    if len(size) == 1 and isinstance(size[0], (tuple, list)):
        size = tuple(size[0])
    for d in size:
        if isinstance(d, bool) or not isinstance(d, (int, np.integer)):
            raise TypeError(f"For '{name}', the 'size' must be ints or a tuple of ints, but got "
                            f"{size!r}.")
    return tuple(int(d) for d in size)


def _float_dtype(name: str, dtype) -> mstype.Type:
    dtype = mstype.float32 if dtype is None else dtype
    if dtype not in _FLOAT_TYPES:
        raise ValueError(f"For '{name}', the 'dtype' must be a float type, but got {dtype}.")
    return dtype


def randn(*size, dtype=None, seed=None) -> Tensor:
    """Draws of N(0, 1) of shape ``size`` (float32 unless ``dtype`` says otherwise)."""
    dtype = _float_dtype("randn", dtype)
    draws = normal_draws("randn", _size("randn", size), seed)
    return draws if dtype is mstype.float32 else A.Cast(draws, dtype)


def rand(*size, dtype=None, seed=None) -> Tensor:
    """Draws from [0, 1) of shape ``size`` (float32 unless ``dtype`` says otherwise)."""
    dtype = _float_dtype("rand", dtype)
    draws = uniform_draws("rand", _size("rand", size), seed)
    return draws if dtype is mstype.float32 else A.Cast(draws, dtype)


def shuffle(x: Tensor, seed=None) -> Tensor:
    """``x`` with its first axis in a random order."""
    if not isinstance(x, Tensor):
        raise TypeError(f"For 'shuffle', the 'x' must be a Tensor, but got "
                        f"{type(x).__name__}.")
    return RD.RandomShuffle(x, **primitive_seeds("shuffle", seed))


def random_poisson(shape: Tensor, rate: Tensor, seed=None, dtype=mstype.float32) -> Tensor:
    """Poisson counts of rate ``rate``, of shape ``shape + rate.shape``, as ``dtype``."""
    return RD.RandomPoisson(shape, rate, dtype=dtype, **primitive_seeds("random_poisson", seed))


def random_gamma(shape: Tensor, alpha: Tensor, seed=None) -> Tensor:
    """Gamma(alpha, 1) draws of shape ``shape + alpha.shape``, in ``alpha``'s dtype."""
    return RD.RandomGamma(shape, alpha, **primitive_seeds("random_gamma", seed))


def choice_with_mask(input_x: Tensor, count: int = 256, seed=None) -> tuple:
    """Up to ``count`` random positions of the True elements of ``input_x`` (int32, one row
    per pick, zero-padded) and the mask of the real picks."""
    return RD.RandomChoiceWithMask(input_x, count=count,
                                   **primitive_seeds("choice_with_mask", seed))


def uniform_candidate_sampler(true_classes: Tensor, num_true: int, num_sampled: int,
                              unique: bool, range_max: int, seed: int = 0,
                              remove_accidental_hits: bool = False) -> tuple:
    """``num_sampled`` classes drawn uniformly from ``[0, range_max)`` and the expected
    counts of ``true_classes`` and of the sampled classes (a fresh kernel each call)."""
    return CS.UniformCandidateSampler(true_classes, num_true=num_true, num_sampled=num_sampled,
                                      unique=unique, range_max=range_max, seed=seed,
                                      remove_accidental_hits=remove_accidental_hits)


def log_uniform_candidate_sampler(true_classes: Tensor, num_true: int = 1,
                                  num_sampled: int = 5, unique: bool = True,
                                  range_max: int = 5, seed: int = 0) -> tuple:
    """``num_sampled`` classes drawn from ``[0, range_max)`` by a log-uniform (Zipfian) law
    and the expected counts of ``true_classes`` and of the sampled classes."""
    return CS.LogUniformCandidateSampler(true_classes, num_true=num_true,
                                         num_sampled=num_sampled, unique=unique,
                                         range_max=range_max, seed=seed)
