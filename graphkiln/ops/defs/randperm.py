"""``RandpermV2(n)``: a random permutation of ``0 .. n-1`` (``ops.randperm``).

The numbers are MindSpore 2.10 CPU's: its kernel shuffles ``0 .. n-1`` with C++'s
``std::shuffle`` driven by ``std::mt19937`` seeded with ``offset`` when it is not 0, else
``seed`` (``seed == -1``: a fresh seed per call). :func:`shuffled_range` replays
libstdc++'s shuffle (two swap positions from one draw while ``n * n`` fits the
generator's range) and its uniform integers (division with rejection) on
NumPy's ``MT19937`` with the same legacy seeding, so the same ``seed``/``offset`` give
MindSpore's permutation. ``n`` is an int or a one-element int Tensor; when its value is
known only at run time the length is unknown (``-1``). Nothing here is differentiable.
"""
from __future__ import annotations

import numpy as np

from ...common import dtype as mstype
from ...ir.abstract import UNKNOWN, AbstractScalar, AbstractTensor
from ...ir.primitive import OpDef
from ._infer import UNKNOWN_DIM, describe
from .nn import next_seed

_NAME = "RandpermV2"
_DTYPES = (mstype.float16, mstype.float32, mstype.float64, mstype.int16, mstype.int32,
           mstype.int64, mstype.int8, mstype.uint8)
_U32 = (1 << 32) - 1


class _Mt19937:
    """32-bit outputs of ``std::mt19937(seed)`` (NumPy's MT19937, legacy seeding)."""

    def __init__(self, seed: int):
        self._bits = np.random.MT19937()
        self._bits._legacy_seeding(seed & _U32)

    def __call__(self) -> int:
        return int(self._bits.random_raw())


def _uniform(gen: _Mt19937, high: int) -> int:
    """libstdc++'s ``uniform_int_distribution(0, high)(gen)`` for a 32-bit generator (the
    division method MindSpore's build uses: a draw below the largest multiple of the span,
    divided by the scale)."""
    if high >= _U32:
        return gen()
    span = high + 1
    scaling = _U32 // span
    past = span * scaling
    draw = gen()
    while draw >= past:
        draw = gen()
    return draw // scaling


def shuffled_range(n: int, seed: int) -> np.ndarray:
    """``0 .. n-1`` shuffled as ``std::shuffle(v.begin(), v.end(), std::mt19937(seed))``."""
    v = np.arange(n, dtype=np.int64)
    if n < 2:
        return v
    gen = _Mt19937(seed)
    if _U32 // n >= n:  # two swap positions per draw
        i = 1
        if n % 2 == 0:
            j = _uniform(gen, 1)
            v[i], v[j] = v[j], v[i]
            i += 1
        while i < n:
            b0 = i + 1
            x = _uniform(gen, b0 * (b0 + 1) - 1)
            for j in (x // (b0 + 1), x % (b0 + 1)):
                v[i], v[j] = v[j], v[i]
                i += 1
        return v
    for i in range(1, n):
        j = _uniform(gen, i)
        v[i], v[j] = v[j], v[i]
    return v


def _length(n) -> int:
    """The permutation's length from the abstract ``n`` (``-1`` when known at run time)."""
    if isinstance(n, AbstractScalar) and isinstance(n.value, bool) or \
            isinstance(n, AbstractScalar) and n.kind is not int or \
            isinstance(n, AbstractTensor) and not n.dtype.is_int:
        raise TypeError(f"For '{_NAME}', the input 'n' must be an int or an int Tensor, but "
                        f"got {describe(n)}.")
    if isinstance(n, AbstractTensor):
        if -1 not in n.shape and int(np.prod(n.shape)) != 1:
            raise TypeError(f"For {_NAME}, the 0'th input is a Tensor whose shape is "
                            f"{list(n.shape)} and dtype is [{n.dtype}], which can not be "
                            f"converted to int.")
        return UNKNOWN_DIM if n.value is None else int(np.asarray(n.value).reshape(-1)[0])
    if not isinstance(n, AbstractScalar):
        raise TypeError(f"For '{_NAME}', the input 'n' must be an int or an int Tensor, but "
                        f"got {describe(n)}.")
    return UNKNOWN_DIM if n.value is UNKNOWN else int(n.value)


def _check_n(n: int, dtype: mstype.Type) -> None:
    if n <= 0:
        raise ValueError(f"For '{_NAME}', the input 'n' must be greater than 0, but got data: "
                         f"{n}.")
    top = np.finfo(dtype.np_dtype).max if dtype.is_float else np.iinfo(dtype.np_dtype).max
    if n - 1 > top:
        raise ValueError(f"For '{_NAME}', the value of 'n' is {n}, it's too large for input "
                         f"'dtype'.")


def _infer(n, seed=0, offset=0, dtype=mstype.int64):
    if dtype not in _DTYPES:
        names = ", ".join(str(t) for t in sorted(_DTYPES, key=str))
        raise TypeError(f"For primitive[{_NAME}], the input argument[dtype] must be a type of "
                        f"{{{names}}}, but got {dtype}.")
    for arg, v in (("seed", seed), ("offset", offset)):
        if isinstance(v, bool) or not isinstance(v, (int, np.integer)):
            raise TypeError(f"For '{_NAME}', the '{arg}' must be an int, but got {v!r}.")
    if seed < -1 or offset < 0:
        raise ValueError(f"For '{_NAME}', the 'seed' must be >= -1 and the 'offset' >= 0, but "
                         f"got seed {seed} and offset {offset}.")
    length = _length(n)
    if length != UNKNOWN_DIM:
        _check_n(length, dtype)
    return AbstractTensor(dtype, (length,))


def _kernel(n, seed=0, offset=0, dtype=mstype.int64):
    length = int(np.asarray(n).reshape(-1)[0])
    _check_n(length, dtype)
    final_seed = offset if offset != 0 else (seed if seed != -1 else next_seed())
    return shuffled_range(length, int(final_seed)).astype(dtype.np_dtype)


# a permutation of 0 .. n-1 drawn with MindSpore's CPU generator
RandpermV2 = OpDef(_NAME, _infer, _kernel, differentiable=False, pure_eval=False,
                   attrs={"seed": 0, "offset": 0, "dtype": mstype.int64})
