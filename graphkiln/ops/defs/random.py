"""Random-number primitives: ``StandardNormal``, ``UniformReal``, ``UniformInt``,
``StandardLaplace``, ``TruncatedNormal`` (a shape in, draws out), ``RandomShuffle``,
``RandomPoisson``, ``RandomGamma``, ``RandomChoiceWithMask``, ``Multinomial`` and
``ParameterizedTruncatedNormal``.

``Bernoulli`` draws MindSpore 2.10 CPU's numbers from a Philox stream keyed by its ``seed``
(``seed == -1`` with ``offset == 0``: a fresh seed every call). ``StandardNormal``,
``StandardLaplace``, ``UniformReal``, ``UniformInt``, ``Multinomial``, ``RandomShuffle``,
``RandomPoisson``, ``RandomChoiceWithMask``, ``TruncatedNormal`` and
``ParameterizedTruncatedNormal`` draw MindSpore 2.10 CPU's numbers too:
each primitive instance (and each graph node) keeps one engine per output shape, seeded
from ``(seed, seed2)`` when first used and advancing from call to call
(:mod:`graphkiln.common.std_random`); a functional call (no ``state``) starts afresh.
``RandomGamma`` keeps the position of its Philox stream the same way. With
``seed == seed2 == 0`` (MindSpore's unseeded draw, from ``std::random_device``) every call
takes the next seed of graphkiln's process-wide stream instead (reproducible after
``graphkiln.set_seed``). :func:`generator` is the NumPy generator of the kernels that
draw NumPy's numbers (shapes, dtypes, ranges and distributions match MindSpore's, the
values do not).

The kernels are never folded or merged (``pure_eval=False``), and nothing here is
differentiable.
"""
from __future__ import annotations

import contextlib
import math
from collections.abc import Iterator

import numpy as np

from ...common import dtype as mstype
from ...common.philox import philox_blocks, philox_uint32, unit_doubles, unit_floats
from ...common.seed import check_seed
from ...common.std_random import KernelStreams, MinstdRand0, Mt19937, engine_for, logf, size
from ...ir.abstract import UNKNOWN, AbstractScalar, AbstractTensor, AbstractTuple
from ...ir.primitive import OpDef
from ._infer import UNKNOWN_DIM, DynamicRankError, const_value, describe
from .nn import next_seed

_SEEDS = {"seed": 0, "seed2": 0}
_FLOAT_TYPES = (mstype.float16, mstype.float32, mstype.float64)


def generator(seed: int, seed2: int) -> np.random.Generator:
    """The generator of one kernel call (see the module docstring)."""
    if seed == 0 and seed2 == 0:
        return np.random.default_rng(next_seed())
    return np.random.default_rng([seed % (1 << 63), seed2 % (1 << 63)])


def _check_seeds(name: str, seed, seed2) -> None:
    check_seed(name, "seed", seed)
    check_seed(name, "seed2", seed2)


def _unknown_dims(name: str, shape: AbstractTensor) -> tuple:
    """The dims a ``shape`` Tensor computed at run time gives: all unknown, as many as its
    length (which must be known: graphkiln has no dynamic rank)."""
    length = shape.shape[0] if shape.shape else 1
    if length == UNKNOWN_DIM:  # (a set_inputs call compiles again per length)
        raise DynamicRankError(f"For '{name}', the length of 'shape' (the rank of the output) "
                               f"must be known when the graph is built, but 'shape' has shape "
                               f"{list(shape.shape)}.")
    return (UNKNOWN_DIM,) * length


def _positive_shape(name: str, dims) -> tuple:
    dims = tuple(int(d) for d in dims)
    if any(d < 0 for d in dims):
        shown = "".join(f"{d}, " for d in dims)
        raise ValueError(f"For primitive[{name}], the attribute[shape] should be a vector with "
                         f"all positive item. but got [{shown}].")
    return dims


def _shape_attr_input(name: str, shape) -> tuple:
    """A shape given as a tuple of ints, an int or a constant int Tensor."""
    if isinstance(shape, AbstractTensor):
        if not shape.dtype.is_int:
            raise TypeError(f"For '{name}', input must be a Int, a tuple, or a Tensor with all "
                            f"Int elements, but got: {describe(shape)}.")
        if shape.value is None:
            return _unknown_dims(name, shape)
    elif not isinstance(shape, (AbstractScalar, AbstractTuple)) or \
            isinstance(shape, AbstractTuple) and shape.is_list:
        raise TypeError(f"For '{name}', input must be a Int, a tuple, or a Tensor with all Int "
                        f"elements, but got: {describe(shape)}.")
    v = const_value(name, "shape", shape)
    dims = np.asarray(v).reshape(-1).tolist() if isinstance(v, np.ndarray) else \
        (list(v) if isinstance(v, tuple) else [v])
    if any(isinstance(d, bool) or not isinstance(d, int) for d in dims):
        raise TypeError(f"For '{name}', input must be a Int, a tuple, or a Tensor with all Int "
                        f"elements, but got: {v!r}.")
    return _positive_shape(name, dims)


def _dims(shape) -> tuple:
    """A kernel's shape input (a tuple, an int or an int array) as a tuple of ints."""
    if isinstance(shape, tuple):
        return tuple(int(d) for d in shape)
    return tuple(np.asarray(shape).reshape(-1).tolist())


def _shape_infer(name: str, dtype: mstype.Type):
    def infer(shape, seed=0, seed2=0, state=None):
        _check_seeds(name, seed, seed2)
        return AbstractTensor(dtype, _shape_attr_input(name, shape))
    return infer


def _engine(kind: type, state, seed: int, seed2: int, key: tuple):
    return engine_for(state, kind, seed, seed2, key, next_seed)


def _standard_normal(shape, seed=0, seed2=0, state=None):
    dims = _dims(shape)
    draws = _engine(MinstdRand0, state, seed, seed2, dims).normal_floats(size(dims))
    return draws.reshape(dims)


def _uniform_real(shape, seed=0, seed2=0, state=None):
    dims = _dims(shape)
    draws = _engine(Mt19937, state, seed, seed2, dims).canonical_doubles(size(dims))
    return draws.astype(np.float32).reshape(dims)


StandardNormal = OpDef("StandardNormal", _shape_infer("StandardNormal", mstype.float32),
                       _standard_normal, differentiable=False, pure_eval=False, attrs=_SEEDS,
                       state=KernelStreams)
UniformReal = OpDef("UniformReal", _shape_infer("UniformReal", mstype.float32), _uniform_real,
                    differentiable=False, pure_eval=False, attrs=_SEEDS, state=KernelStreams)


def _standard_laplace(shape, seed=0, seed2=0, state=None):
    dims = _dims(shape)
    draws = _engine(MinstdRand0, state, seed, seed2, dims).laplace_floats(size(dims))
    return draws.reshape(dims)


StandardLaplace = OpDef("StandardLaplace", _shape_infer("StandardLaplace", mstype.float32),
                        _standard_laplace, differentiable=False, pure_eval=False, attrs=_SEEDS,
                        state=KernelStreams)


def _uniform_int_infer(shape, minval, maxval, seed=0, seed2=0, state=None):
    _check_seeds("UniformInt", seed, seed2)
    for arg, a in (("minval", minval), ("maxval", maxval)):
        if not isinstance(a, AbstractTensor) or a.dtype is not mstype.int32:
            raise TypeError(f"For 'UniformInt', the '{arg}' must be a Tensor of int32, but got "
                            f"{describe(a)}.")
        if a.shape not in ((), (1,)):
            raise ValueError(f"For 'UniformInt', the '{arg}' must be a 0-D Tensor, but got "
                             f"shape {list(a.shape)}.")
    return AbstractTensor(mstype.int32, _shape_attr_input("UniformInt", shape))


def _uniform_int(shape, minval, maxval, seed=0, seed2=0, state=None):
    lo, hi = int(np.asarray(minval).reshape(-1)[0]), int(np.asarray(maxval).reshape(-1)[0])
    if lo >= hi:
        raise RuntimeError(f"For 'UniformInt', invalid min/max values: ({lo}/{hi}); 'minval' "
                           f"must be less than 'maxval'.")
    dims = _dims(shape)
    draws = _engine(Mt19937, state, seed, seed2, dims).uniform_ints(size(dims), lo, hi - 1)
    return draws.reshape(dims)


# integers drawn uniformly from [minval, maxval)
UniformInt = OpDef("UniformInt", _uniform_int_infer, _uniform_int, differentiable=False,
                   pure_eval=False, attrs=_SEEDS, state=KernelStreams)


def _shuffle_infer(x, seed=0, seed2=0, state=None):
    if not isinstance(x, AbstractTensor):
        raise TypeError(f"For 'RandomShuffle', the 'x' must be a Tensor, but got "
                        f"{describe(x)}.")
    _check_seeds("RandomShuffle", seed, seed2)
    return AbstractTensor(x.dtype, x.shape)


def _shuffle(x, seed=0, seed2=0, state=None):
    x = np.asarray(x)
    if x.ndim == 0 or x.shape[0] <= 1:  # nothing to permute: no draw
        return x.copy()
    return x[_engine(MinstdRand0, state, seed, seed2, x.shape).permutation(x.shape[0])]


# the rows of ``x`` (its first axis) in a random order (MindSpore's ``std::shuffle``)
RandomShuffle = OpDef("RandomShuffle", _shuffle_infer, _shuffle, differentiable=False,
                      pure_eval=False, attrs=_SEEDS, state=KernelStreams)


def _type_set(types) -> str:
    return ", ".join(str(t) for t in types)


def _shape_tensor(name: str, shape) -> tuple:
    """The output dims a 1-D int32/int64 ``shape`` Tensor gives (unknown when computed at
    run time)."""
    ints = (mstype.int32, mstype.int64)
    if not isinstance(shape, AbstractTensor):
        raise TypeError(f"For primitive[{name}], the input argument[shape] must be a type of "
                        f"{{{_type_set(ints)}}}, but got {describe(shape)}.")
    if shape.dtype not in ints:
        raise TypeError(f"For primitive[{name}], the input argument[shape] must be a type of "
                        f"{{Tensor[Int32], Tensor[Int64]}}, but got Tensor[{shape.dtype}].")
    if len(shape.shape) != 1:
        raise ValueError(f"For primitive[{name}], the rank of 'shape' must be 1, but got "
                         f"{len(shape.shape)}.")
    if shape.value is None:
        return _unknown_dims(name, shape)
    return _positive_shape(name, np.asarray(shape.value).tolist())


def _tensor_of(name: str, arg: str, a, types) -> mstype.Type:
    if not isinstance(a, AbstractTensor):
        raise TypeError(f"For primitive[{name}], the input argument[{arg}] must be a type of "
                        f"{{{_type_set(types)}}}, but got {describe(a)}.")
    if a.dtype not in types:
        names = ", ".join(f"Tensor[{t}]" for t in types)
        raise TypeError(f"For primitive[{name}], the input argument[{arg}] must be a type of "
                        f"{{{names}}}, but got Tensor[{a.dtype}].")
    return a.dtype


_POISSON_OUT = (mstype.int64, mstype.int32, mstype.float16, mstype.float32, mstype.float64)
_POISSON_RATE = (mstype.float16, mstype.float32, mstype.float64, mstype.int32, mstype.int64)


def _poisson_infer(shape, rate, seed=0, seed2=0, dtype=mstype.int64, state=None):
    _check_seeds("RandomPoisson", seed, seed2)
    if dtype not in _POISSON_OUT:
        shown = ", ".join(repr(t) for t in _POISSON_OUT)
        raise TypeError(f"For 'RandomPoisson', the 'dtype' should be one of [{shown}], but got "
                        f"'{dtype!r}'.")
    dims = _shape_tensor("RandomPoisson", shape)
    _tensor_of("RandomPoisson", "rate", rate, _POISSON_RATE)
    return AbstractTensor(dtype, dims + tuple(rate.shape))


def _poisson_count(rate: float, uniform: Iterator[float]) -> float:
    """One count of MindSpore's RandomPoisson kernel from its uniform doubles: Knuth's
    product of uniforms below rate 10, else Hörmann's transformed rejection (PTRS)."""
    if rate < 10.0:
        limit, prod, x = math.exp(-rate), 1.0, 0.0
        while True:
            prod *= next(uniform)
            if prod <= limit:
                return x
            x += 1.0
    if math.isinf(rate):
        return math.inf
    log_rate = math.log(rate)
    b = 0.931 + 2.53 * math.sqrt(rate)
    a = -0.059 + 0.02483 * b
    inv_alpha = 1.1239 + 1.1328 / (b - 3.4)
    v_r = 0.9277 - 3.6224 / (b - 2.0)
    while True:
        u = next(uniform) - 0.5
        v = next(uniform)
        u_s = 0.5 - abs(u)
        if u_s == 0.0:  # k would be -inf: rejected
            continue
        k = float(math.floor((2.0 * a / u_s + b) * u + rate + 0.43))
        if u_s >= 0.07 and v <= v_r:
            return k
        if k < 0 or (u_s < 0.013 and v > u_s):
            continue
        if math.log(v * inv_alpha / (a / (u_s * u_s) + b)) <= \
                -rate + k * log_rate - math.lgamma(k + 1.0):
            return k


def _poisson(shape, rate, seed=0, seed2=0, dtype=mstype.int64, state=None):
    """MindSpore's RandomPoisson kernel: a ``std::mt19937`` seeded with the 64-bit
    ``mix_seeds(seed, seed2) * 6364136223846793005 + 0xda3e39cb94b95bdb`` (its low 32
    bits), one count per output from ``uniform_real_distribution<double>``, all the draws
    of each rate (the last axes) before those of the next."""
    rates = np.asarray(rate).astype(np.float64)
    if np.isnan(rates).any():  # MindSpore's kernel loops forever on a NaN rate
        raise ValueError("For 'RandomPoisson', the 'rate' must not contain NaN.")
    dims = _dims(shape) + rates.shape
    out = np.empty((size(dims) // max(rates.size, 1), rates.size), np.float64)
    if out.size:
        engine = _engine(_PoissonMt19937, state, seed, seed2, dims)
        with contextlib.closing(engine.double_stream()) as uniform:
            for i, r in enumerate(rates.reshape(-1).tolist()):
                out[:, i] = [_poisson_count(r, uniform) for _ in range(len(out))]
    if not dtype.is_float:  # Eigen's integer "infinity" is 0
        out[np.isinf(out)] = 0
    return out.reshape(dims).astype(dtype.np_dtype)


class _PoissonMt19937(Mt19937):
    """The ``std::mt19937`` of MindSpore's RandomPoisson kernel: its seed goes through one
    step of Eigen's PCG state (``PCG_XSH_RS_state``) first."""

    def __init__(self, seed: int):
        super().__init__((seed * 6364136223846793005 + 0xDA3E39CB94B95BDB) & ((1 << 64) - 1))


# Poisson counts of rate ``rate`` (its shape appended to ``shape``)
RandomPoisson = OpDef("RandomPoisson", _poisson_infer, _poisson, differentiable=False,
                      pure_eval=False, attrs={**_SEEDS, "dtype": mstype.int64},
                      state=KernelStreams)


def _gamma_infer(shape, alpha, seed=0, seed2=0, state=None):
    _check_seeds("RandomGamma", seed, seed2)
    dims = _shape_tensor("RandomGamma", shape)
    t = _tensor_of("RandomGamma", "alpha", alpha, _FLOAT_TYPES)
    return AbstractTensor(t, dims + tuple(alpha.shape))


_GAMMA_BLOCKS = 256  # the Philox blocks the kernel sets aside for each output
_FIRST_BLOCKS = 4  # those computed up front (an output rarely needs more)


def _gamma_sample(alpha: float, block) -> float:
    """One Gamma(alpha, 1) draw of MindSpore's RandomGamma kernel (Marsaglia and Tsang's
    method, exponential at alpha 1), from the doubles ``block(i)`` of its i-th Philox
    block; each block gives two uniforms or two Box-Muller normals, the second first."""
    if abs(alpha - 1.0) <= 1e-14:
        return -math.log(1.0 - block(0)[1])
    less = alpha < 1
    su = alpha + (2.0 / 3 if less else -1.0 / 3)
    cut = 1.0 / 3 / math.sqrt(su)
    used, normals, uniforms = 0, [], []

    def uniform() -> float:
        nonlocal used, uniforms
        if not uniforms:
            uniforms = list(block(used))
            used += 1
        return uniforms.pop()

    while True:
        if not normals:
            d0, d1 = block(used)
            used += 1
            r = math.sqrt(-2.0 * math.log(max(d0, 1e-7)))
            normals = [math.sin(2 * math.pi * d1) * r, math.cos(2 * math.pi * d1) * r]
        x = normals.pop()
        v = 1 + cut * x
        if v <= 0:
            continue
        v = v * v * v
        u = uniform()
        if u < 1 - 0.0331 * (x * x) * (x * x) or \
                (math.log(u) if u > 0 else -math.inf) < 0.5 * x * x + su * (1 - v + math.log(v)):
            res = su * v
            if less:
                res *= math.pow(uniform(), 1 / alpha if alpha else math.inf)
            return res


def _gamma(shape, alpha, seed=0, seed2=0, state=None):
    """MindSpore's RandomGamma kernel: Philox keyed by ``seed`` (the counter's high half
    ``seed2``); each launch sets aside 256 blocks per output, from where the last launch
    of the primitive (or graph node) stopped, and output ``i`` (the draws of each alpha in
    turn) starts at its ``256 i``-th block."""
    alpha = np.asarray(alpha)
    values = alpha.astype(np.float64).reshape(-1)
    if not (values >= 0).all():  # MindSpore's kernel loops forever on NaN or alpha < -2/3
        raise ValueError("For 'RandomGamma', the 'alpha' must be non-negative numbers.")
    dims = _dims(shape) + alpha.shape
    n = size(dims)
    per_alpha = n // max(values.size, 1)
    if seed == 0 and seed2 == 0:
        seed, seed2, position = next_seed(), next_seed(), [0]
    else:
        position = [0] if state is None else state.slot(("RandomGamma", seed, seed2, dims),
                                                        lambda: [0])
    base = position[0]
    position[0] += n * _GAMMA_BLOCKS
    starts = base + _GAMMA_BLOCKS * np.arange(n, dtype=np.uint64)
    doubles = _block_doubles(seed, seed2, (starts[:, None] + np.arange(
        _FIRST_BLOCKS, dtype=np.uint64)).reshape(-1)).reshape(n, _FIRST_BLOCKS, 2)
    a = values[np.arange(n) // max(per_alpha, 1)]
    out, rest = _gamma_first_tries(a, doubles)
    for i, first in zip(rest.tolist(), doubles[rest].tolist()):
        def block(k: int, i=i, first=first) -> list:
            if k < _FIRST_BLOCKS:
                return first[k]
            return _block_doubles(seed, seed2, [int(starts[i]) + k])[0].tolist()
        out[i] = _gamma_sample(float(a[i]), block)
    return out.reshape(values.size, per_alpha).T.reshape(dims).astype(alpha.dtype)


def _gamma_first_tries(a: np.ndarray, doubles: np.ndarray) -> tuple:
    """The draws of :func:`_gamma_sample` that its first try accepts by the squeeze test
    (most of them) and the exponential ones, all at once: the first normal (block 0) and
    uniforms (block 1); the C library's log, cos and pow through :mod:`math`, the rest
    IEEE arithmetic. Returns the draws and the indices left for :func:`_gamma_sample`."""
    out = np.empty(len(a), np.float64)
    less = a < 1
    gamma = np.abs(a - 1.0) > 1e-14
    su = a + np.where(less, 2.0 / 3, -1.0 / 3)
    cut = 1.0 / 3 / np.sqrt(su)
    d0, d1 = doubles[:, 0, 0].tolist(), doubles[:, 0, 1].tolist()
    x = np.array([math.cos(2 * math.pi * q) * math.sqrt(-2.0 * math.log(max(p, 1e-7)))
                  for p, q in zip(d0, d1)])
    v = 1 + cut * x
    v = v * v * v
    u = doubles[:, 1, 1]
    done = gamma & (1 + cut * x > 0) & (u < 1 - 0.0331 * (x * x) * (x * x))
    out[done] = su[done] * v[done]
    small = np.flatnonzero(done & less)
    out[small] *= [math.pow(b, 1 / c if c else math.inf)
                   for b, c in zip(doubles[small, 1, 0].tolist(), a[small].tolist())]
    exponential = np.flatnonzero(~gamma)
    out[exponential] = [-math.log(1.0 - q) for q in doubles[exponential, 0, 1].tolist()]
    return out, np.flatnonzero(~done & gamma)


def _block_doubles(key: int, counter_hi: int, index) -> np.ndarray:
    """The two doubles in [0, 1) of each Philox block numbered ``index``: ``(n, 2)``."""
    w = philox_blocks(key, counter_hi, index)
    return np.stack([unit_doubles(w[:, 0], w[:, 1]), unit_doubles(w[:, 2], w[:, 3])], 1)


# Gamma(alpha, 1) draws (alpha's shape appended to ``shape``)
RandomGamma = OpDef("RandomGamma", _gamma_infer, _gamma, differentiable=False,
                    pure_eval=False, attrs=_SEEDS, state=KernelStreams)


def _choice_infer(input_x, count=256, seed=0, seed2=0, state=None):
    if isinstance(count, bool) or not isinstance(count, (int, np.integer)):
        raise TypeError(f"For 'RandomChoiceWithMask', the 'count' must be int, but got "
                        f"'{type(count).__name__}'")
    if count <= 0:
        raise ValueError(f"For 'RandomChoiceWithMask', the 'count' must be int and must > 0, "
                         f"but got '{count}' with type 'int'.")
    for arg, v in (("seed", seed), ("seed2", seed2)):  # MindSpore takes negative seeds here
        if isinstance(v, bool) or not isinstance(v, (int, np.integer)):
            raise TypeError(f"For 'RandomChoiceWithMask', the '{arg}' must be int, but got "
                            f"'{type(v).__name__}'")
    _tensor_of("RandomChoiceWithMask", "input_x", input_x, (mstype.bool_,))
    rank = len(input_x.shape)
    if not 1 <= rank <= 5:
        raise ValueError(f"For 'RandomChoiceWithMask', input[0] rank should be between 1 and "
                         f"5, but got:{rank}")
    return AbstractTuple([AbstractTensor(mstype.int32, (int(count), rank)),
                          AbstractTensor(mstype.bool_, (int(count),))])


_INT32_MAX = 2**31 - 1


def _choice(input_x, count=256, seed=0, seed2=0, state=None):
    """``count`` coordinates of True elements in a random order (MindSpore's ``std::shuffle``
    of them), padded with zeros; the mask tells the real ones. (MindSpore 2.10's CPU kernel
    gives wrong coordinates for inputs of rank 3 and more; these are the right ones.)"""
    x = np.asarray(input_x)
    if count >= _INT32_MAX // x.ndim:  # MindSpore's CPU kernel indexes the output in int32
        raise RuntimeError(f"For 'RandomChoiceWithMask', output size exceed INT_MAX: 'count' "
                           f"{count} times the input rank {x.ndim} must be below {_INT32_MAX}.")
    coords = np.argwhere(x)
    order = _engine(MinstdRand0, state, seed, seed2, x.shape).permutation(len(coords))
    picked = coords[order][:count]
    index = np.zeros((count, x.ndim), np.int32)
    index[:len(picked)] = picked
    mask = np.zeros(count, np.bool_)
    mask[:len(picked)] = True
    return index, mask


# up to ``count`` random positions of the True elements of a bool Tensor, with a validity mask
RandomChoiceWithMask = OpDef("RandomChoiceWithMask", _choice_infer, _choice,
                             differentiable=False, pure_eval=False,
                             attrs={"count": 256, **_SEEDS}, state=KernelStreams)


_INDEX_OUT = (mstype.int64, mstype.int32)


def _check_multinomial_attrs(attrs: dict) -> None:
    _check_seeds("Multinomial", attrs["seed"], attrs["seed2"])
    if attrs["dtype"] not in _INDEX_OUT:
        shown = ", ".join(repr(t) for t in _INDEX_OUT)
        raise TypeError(f"For 'Multinomial', the 'dtype' should be one of [{shown}], but got "
                        f"'{attrs['dtype']!r}'.")


def _multinomial_infer(x, num_samples, seed=0, seed2=0, dtype=mstype.int32, state=None):
    _tensor_of("Multinomial", "x", x, _FLOAT_TYPES + (mstype.int32, mstype.int64))
    if len(x.shape) not in (1, 2):
        raise ValueError(f"For 'Multinomial', input[x] dimension must be 1 or 2, but got rank "
                         f"{len(x.shape)}.")
    n = num_samples.value if isinstance(num_samples, AbstractScalar) else \
        const_value("Multinomial", "num_samples", num_samples)
    if n is None or n is UNKNOWN:
        n = UNKNOWN_DIM
    elif isinstance(n, bool) or not isinstance(n, (int, np.integer)):
        raise TypeError(f"For 'Multinomial', the 'num_samples' must be int, but got "
                        f"{describe(num_samples)}.")
    elif n < 0:
        raise ValueError(f"For 'Multinomial', num_samples should be a nonnegative number, but "
                         f"got {n}.")
    return AbstractTensor(dtype, tuple(x.shape[:-1]) + (int(n),))


def _multinomial(x, num_samples, seed=0, seed2=0, dtype=mstype.int32, state=None):
    """Each row's weights (unnormalised) drawn ``num_samples`` times with replacement, as
    MindSpore's CPU kernel: the running sums in ``x``'s dtype divided by the total (unless
    0), and for each draw ``u`` (one float of the kernel's ``minstd_rand0``, rows in turn)
    the first category whose sum exceeds ``u`` (the last one at most)."""
    x = np.asarray(x)
    rows = x.reshape(-1, x.shape[-1])
    cdf = np.cumsum(rows, axis=-1, dtype=rows.dtype)
    total = cdf[:, -1:]
    cdf = np.where(total != 0, cdf / np.where(total != 0, total, 1), cdf).astype(rows.dtype)
    n = int(num_samples)
    u = _engine(MinstdRand0, state, seed, seed2, x.shape).canonical_floats(len(rows) * n)
    u = u.reshape(len(rows), n).astype(rows.dtype)
    picks = np.stack([np.searchsorted(c, v, side="right") for c, v in zip(cdf, u)]) \
        if len(rows) else np.zeros((0, n), np.int64)
    picks = np.minimum(picks, x.shape[-1] - 1)
    return picks.reshape(x.shape[:-1] + (n,)).astype(dtype.np_dtype)


# ``num_samples`` category indices drawn from each row of weights, with replacement
Multinomial = OpDef("Multinomial", _multinomial_infer, _multinomial, differentiable=False,
                    pure_eval=False, attrs={**_SEEDS, "dtype": mstype.int32},
                    check_attrs=_check_multinomial_attrs, state=KernelStreams)


_BERNOULLI_X = (mstype.bool_, mstype.float32, mstype.float64, mstype.int16, mstype.int32,
                mstype.int64, mstype.int8, mstype.uint8)


def _bernoulli_infer(x, p, seed=-1, offset=0, state=None):
    t = _tensor_of("Bernoulli", "x", x, _BERNOULLI_X)
    for arg, v in (("seed", seed), ("offset", offset)):
        if isinstance(v, bool) or not isinstance(v, (int, np.integer)):
            raise TypeError(f"For 'Bernoulli', the '{arg}' must be int, but got "
                            f"'{type(v).__name__}'")
    if isinstance(p, AbstractTensor):
        _tensor_of("Bernoulli", "p", p, (mstype.float32, mstype.float64))
        same = len(p.shape) == len(x.shape) and all(
            UNKNOWN_DIM in (a, b) or a == b for a, b in zip(p.shape, x.shape))
        if not same and tuple(p.shape) not in ((), (1,), (UNKNOWN_DIM,)):
            raise ValueError("For 'Bernoulli', 'x' and 'p' should have same shape or 'p' have "
                             "a size of 1.")
    elif not isinstance(p, AbstractScalar):
        raise TypeError(f"For 'Bernoulli', the 'p' must be a float or a Tensor, but got "
                        f"{describe(p)}.")
    return AbstractTensor(t, x.shape)


def _bernoulli(x, p, seed=-1, offset=0, state=None):
    """1 where the kernel's float draw is at most ``p``, else 0: Philox keyed by ``seed``,
    counters from ``(0, 0, offset)``, restarted on every call; as MindSpore's CPU kernel,
    the outputs left over from the last block of the previous call come first."""
    x = np.asarray(x)
    p = np.asarray(p)
    if p.size == 1:
        p = p.reshape(())
    elif p.shape != x.shape:
        raise ValueError("For 'Bernoulli', 'x' and 'p' should have same shape or 'p' have a "
                         "size of 1.")
    if ((p > 1) | (p < 0)).any():
        shown = f", but got {p.item()}" if p.ndim == 0 else ""
        raise ValueError(f"For bernoulli, p should be in [0, 1]{shown}.")
    if seed == -1 and offset == 0:
        seed, offset = next_seed(), next_seed()
    carry = [np.empty(0, np.uint32)] if state is None else \
        state.slot(("Bernoulli", x.shape, x.dtype.str), lambda: [np.empty(0, np.uint32)])
    old = carry[0][:x.size]
    fresh = x.size - len(old)
    blocks = philox_uint32(seed, (fresh + 3) // 4 * 4, offset)
    carry[0] = np.concatenate([carry[0][len(old):], blocks[fresh:]])
    u = unit_floats(np.concatenate([old, blocks[:fresh]])).reshape(x.shape)
    return (u <= p).astype(x.dtype)


# 1 with probability ``p`` (a scalar or one per element of ``x``), in ``x``'s shape and dtype
Bernoulli = OpDef("Bernoulli", _bernoulli_infer, _bernoulli, differentiable=False,
                  pure_eval=False, attrs={"seed": -1, "offset": 0}, state=KernelStreams)


# ------------------------------------------------------------------ truncated normals

def _check_int_seeds(name: str, attrs: dict) -> None:
    for arg in ("seed", "seed2"):
        v = attrs[arg]
        if isinstance(v, bool) or not isinstance(v, int):
            raise TypeError(f"For '{name}', the type of '{arg}' should be 'int', but got type "
                            f"'{type(v).__name__}'.")


def _check_truncated_normal_attrs(attrs: dict) -> None:
    _check_int_seeds("TruncatedNormal", attrs)
    if attrs["dtype"] not in _FLOAT_TYPES:
        shown = ", ".join(repr(t) for t in _FLOAT_TYPES)
        raise TypeError(f"For 'TruncatedNormal', the 'dtype' should be one of [{shown}], but "
                        f"got '{attrs['dtype']!r}'.")


def _output_dims(name: str, shape) -> tuple:
    """The dims of a 1-D int32/int64 ``shape`` Tensor of at least two elements, each
    positive (unknown when computed at run time)."""
    if not isinstance(shape, AbstractTensor):
        raise TypeError(f"For '{name}', the input 'shape' only supports a Tensor, but got "
                        f"{describe(shape)}.")
    if shape.dtype not in (mstype.int32, mstype.int64):
        raise TypeError(f"For primitive[{name}], the input argument[shape] must be a type of "
                        f"{{Tensor[Int32], Tensor[Int64]}}, but got Tensor[{shape.dtype}].")
    if len(shape.shape) != 1:
        raise ValueError(f"For '{name}', the input tensor must be a 1-D tensor, but got "
                         f"rank {len(shape.shape)}.")
    if 0 <= shape.shape[0] < 2:
        raise ValueError(f"For '{name}', the input tensor shape must >= 2, but got "
                         f"{shape.shape[0]}")
    if shape.value is None:
        return _unknown_dims(name, shape)
    return _positive_dims(name, _dims(shape.value))


def _positive_dims(name: str, dims: tuple) -> tuple:
    if any(d <= 0 for d in dims):
        raise ValueError(f"For '{name}', each dimension must be greater than zero, but got "
                         f"{list(dims)}.")
    return dims


def _to_dtype(values: np.ndarray, dtype) -> np.ndarray:
    """Doubles stored in ``dtype`` (half through float, as MindSpore's float16)."""
    if dtype is mstype.float16:
        return values.astype(np.float32).astype(np.float16)
    return values.astype(dtype.np_dtype)


def _truncated_normal_infer(shape, dtype=mstype.float32, seed=0, seed2=0, state=None):
    _check_truncated_normal_attrs({"dtype": dtype, "seed": seed, "seed2": seed2})
    return AbstractTensor(dtype, _output_dims("TruncatedNormal", shape))


def _truncated_normal(shape, dtype=mstype.float32, seed=0, seed2=0, state=None):
    """MindSpore's CPU kernel: ``std::normal_distribution<double>`` draws on its
    ``std::minstd_rand0``, those outside ``[-2, 2]`` skipped."""
    dims = _positive_dims("TruncatedNormal", _dims(shape))
    engine = _engine(MinstdRand0, state, seed, seed2, dims)
    draws = engine.truncated_normal_doubles(size(dims), lambda v: np.abs(v) <= 2.0)
    return _to_dtype(draws, dtype).reshape(dims)


# a standard normal truncated to [-2, 2], of the shape a 1-D Tensor gives
TruncatedNormal = OpDef("TruncatedNormal", _truncated_normal_infer, _truncated_normal,
                        differentiable=False, pure_eval=False,
                        attrs={"dtype": mstype.float32, **_SEEDS},
                        check_attrs=_check_truncated_normal_attrs, state=KernelStreams)

_PTN = "ParameterizedTruncatedNormal"
_PTN_PARAMETERS = ("mean", "stdevs", "min", "max")


def _parameterized_infer(shape, mean, stdevs, min, max, seed=0, seed2=0,  # noqa: A002
                         state=None):
    _check_int_seeds(_PTN, {"seed": seed, "seed2": seed2})
    dims = _output_dims(_PTN, shape)
    params = (mean, stdevs, min, max)
    types = {_tensor_of(_PTN, arg, p, _FLOAT_TYPES) for arg, p in zip(_PTN_PARAMETERS, params)}
    if len(types) > 1:
        raise TypeError(f"For '{_PTN}', 'mean', 'stdevs', 'min' and 'max' must have one dtype, "
                        f"but got {', '.join(str(p.dtype) for p in params)}.")
    for arg, p in zip(_PTN_PARAMETERS, params):
        if len(p.shape) > 1:
            raise ValueError(f"For {_PTN}, {arg} should be at most rank 1, but got rank "
                             f"{len(p.shape)}.")
        if p.shape and dims[0] >= 0 and p.shape[0] not in (1, dims[0], UNKNOWN_DIM):
            raise ValueError(f"For {_PTN}, {arg} must be 0d, or {arg}.shape = ({dims[0]}, ), "
                             f"but got ({p.shape[0]}, ).")
    return AbstractTensor(types.pop(), dims)


def _parameterized_batch(engine: MinstdRand0, n: int, mean, stddev, low, high, t):
    """One batch of MindSpore's kernel (TensorFlow's samplers, in the data's type ``t``):
    normal draws kept inside the normalised bounds when those hold enough of the normal,
    else uniform (a narrow interval) or exponential (far in a tail) proposals with
    rejection. Bounds below the mean are handled on the mirrored side."""
    if (np.isinf(low) and low < 0) or high < mean:
        low, high, stddev = high, low, -stddev
    norm_min, norm_max = (low - mean) / stddev, (high - mean) / stddev
    root = np.sqrt(norm_min * norm_min + t(4))
    cutoff = t(2) * np.exp(t(0.5) + norm_min * (norm_min - root) / t(4)) / (norm_min + root)
    if (norm_min < t(-1.3) and norm_max >= 0) or (norm_max > t(1.3) and norm_min <= 0):
        z = engine.truncated_normal_doubles(
            n, lambda v: (v.astype(t) >= norm_min) & (v.astype(t) <= norm_max)).astype(t)
    elif norm_max - norm_min < cutoff:
        plus = t(0) if norm_min < 0 else norm_min * norm_min

        def uniform(u, v):
            z = u.astype(t) * (norm_max - norm_min) + norm_min
            return v.astype(t) <= np.exp((plus - z * z) / t(2))
        u = engine.accepted_double_pairs(n, uniform)[:, 0]
        z = u.astype(t) * (norm_max - norm_min) + norm_min
    else:
        alpha = (norm_min + root) / t(2)

        log = logf if t is np.float32 else np.log  # (glibc's logf, as the kernel's)

        def exponential(u, v):
            z = -log(u.astype(t)) / alpha + norm_min
            x = alpha - z if norm_min < alpha else np.full_like(z, norm_min - alpha)
            return (v.astype(t) <= np.exp(-x * x / t(2))) & (z < norm_max)
        u = engine.accepted_double_pairs(n, exponential)[:, 0]
        z = -log(u.astype(t)) / alpha + norm_min
    return z * stddev + mean


def _parameterized(shape, mean, stdevs, min, max, seed=0, seed2=0,  # noqa: A002
                   state=None):
    """Batch ``b`` (the first output axis) draws from the normal of mean ``mean[b]`` and
    deviation ``stdevs[b]`` truncated to ``[min[b], max[b]]`` (0-d or one-element
    parameters serve every batch)."""
    dims = _positive_dims(_PTN, _dims(shape))
    t = np.asarray(mean).dtype.type  # (half ops round each result, as MindSpore's float16)
    batch, n = dims[0], size(dims[1:])
    params = [np.broadcast_to(np.asarray(p, t).reshape(-1), (batch,))
              for p in (mean, stdevs, min, max)]
    # one engine per kernel: MindSpore makes a new one for another dtype or parameter rank
    kernel = dims + (np.dtype(t).itemsize,) + tuple(np.ndim(p) for p in (mean, stdevs, min, max))
    engine = _engine(MinstdRand0, state, seed, seed2, kernel)
    out = np.empty((batch, n), t)
    with np.errstate(all="ignore"):
        for b in range(batch):
            m, sd, low, high = (p[b] for p in params)
            if not sd > 0:
                raise RuntimeError(f"For {_PTN}, stdevs value must be greater than 0 in each "
                                 f"batch.")
            if high < low:
                raise RuntimeError(f"For {_PTN}, max value must be greater than min value in "
                                 f"each batch.")
            out[b] = _parameterized_batch(engine, n, m, sd, low, high, t)
    return out.reshape(dims)


# draws of normals truncated to [min, max], one (mean, stdevs, min, max) per batch (axis 0)
ParameterizedTruncatedNormal = OpDef(
    _PTN, _parameterized_infer, _parameterized, differentiable=False, pure_eval=False,
    attrs=dict(_SEEDS), check_attrs=lambda attrs: _check_int_seeds(_PTN, attrs),
    state=KernelStreams)
