"""More random functions, composed over the draws of :mod:`graphkiln.ops.random_functions`
(seeds as there: ``None`` draws fresh numbers every call, reproducible after
``graphkiln.set_seed``; an int fixes them): ``randint``, ``randint_like``, ``rand_like``,
``randn_like``, ``bernoulli``, ``gamma``, ``poisson``, ``laplace``, ``random_categorical``,
``multinomial_with_replacement``, and the in-place fills ``uniform_``, ``normal_``,
``random_``, ``exponential_``, ``bernoulli_`` (also Tensor methods, with ``x.uniform``,
``x.bernoulli`` and ``x.random_categorical``). A ``generator`` argument seeds the draw from
that Generator's state and advances it (in a graph: see ``generator_seed``).
``randint``, ``randint_like``, ``rand_like``, ``randn_like`` and ``laplace`` draw MindSpore's
numbers (seeded by their own counters of ``graph_seed``), ``bernoulli`` too (its ``seed`` keys the
draws itself); the rest draw NumPy's: shapes, dtypes,
ranges and distributions match, the values do not."""
from __future__ import annotations

import numpy as np

import graphkiln.ops.functional as F
import graphkiln.ops.random_functions as R

from ..common import dtype as mstype
from ..common.tensor import Tensor
from ..ir import tracing_state
from ..ir.primitive import primitive_class
from .defs import multinomial_draws as MD
from .defs import random as RD
from .defs import random_categorical as RC
from .inplace_methods import _write

__all__ = ["randint", "randint_like", "rand_like", "randn_like", "bernoulli", "gamma",
           "poisson", "laplace", "random_categorical", "multinomial_with_replacement",
           "uniform_", "normal_", "random_", "exponential_", "bernoulli_"]

_INT_TYPES = (mstype.int8, mstype.int16, mstype.int32, mstype.int64, mstype.uint8,
              mstype.uint16, mstype.uint32, mstype.uint64)
_FLOAT_TYPES = (mstype.float16, mstype.float32, mstype.float64, mstype.bfloat16)


def _check_tensor(name: str, arg: str, x) -> None:
    if not isinstance(x, Tensor):
        raise TypeError(f"For '{name}', the '{arg}' must be a Tensor, but got {type(x)}")


def _check_int(name: str, arg: str, v) -> int:
    if isinstance(v, bool) or not isinstance(v, (int, np.integer)):
        raise TypeError(f"For '{name}', '{arg}' must be an int, but got {type(v)}.")
    return int(v)


def _int_draws(name: str, shape, low, high, seed, dtype) -> Tensor:
    low, high = _check_int(name, "low", low), _check_int(name, "high", high)
    if low >= high:
        raise ValueError(f"For '{name}', the 'high' must be greater than 'low', but got "
                         f"low {low} and high {high}.")
    if dtype not in _INT_TYPES:
        raise ValueError(f"For '{name}', the 'dtype' must be an int type, but got {dtype}.")
    draws = R.int_draws(name, shape, Tensor(low, mstype.int32), Tensor(high, mstype.int32),
                        seed)
    return F.cast(draws, dtype)


def randint(low: int, high: int, size: tuple, seed=None, *, dtype=None) -> Tensor:
    """Integers drawn uniformly from ``[low, high)`` (int64 unless ``dtype`` says)."""
    if not isinstance(size, tuple):
        raise ValueError(f"For 'randint', the input 'size' must be a tuple, but got {size}.")
    return _int_draws("randint", size, low, high, seed, mstype.int64 if dtype is None
                      else dtype)


def randint_like(input: Tensor, low: int, high: int, seed=None, *, dtype=None) -> Tensor:
    """``randint`` with ``input``'s shape (and dtype unless ``dtype`` says)."""
    _check_tensor("randint_like", "input", input)
    return _int_draws("randint_like", tuple(input.shape), low, high, seed,
                      input.dtype if dtype is None else dtype)


def _like(name: str, input, dtype, draw, default=None) -> Tensor:
    _check_tensor(name, "input", input)
    dtype = (default or input.dtype) if dtype is None else dtype
    if dtype not in _FLOAT_TYPES:
        raise ValueError(f"For '{name}', the 'dtype' must be a float type, but got {dtype}.")
    return F.cast(draw(tuple(input.shape)), dtype)


def rand_like(input: Tensor, seed=None, *, dtype=None) -> Tensor:
    """Draws from [0, 1) with ``input``'s shape (and float dtype unless ``dtype`` says)."""
    return _like("rand_like", input, dtype, lambda s: R.uniform_draws("rand_like", s, seed))


def randn_like(input: Tensor, seed=None, *, dtype=None) -> Tensor:
    """Draws of N(0, 1) with ``input``'s shape (float32 unless ``dtype`` says)."""
    return _like("randn_like", input, dtype,
                 lambda s: R.normal_draws("randn_like", s, seed), mstype.float32)


_BERNOULLI: dict = {}


def bernoulli(input: Tensor, p=0.5, seed=None) -> Tensor:
    """1 with probability ``p`` (a float or a Tensor of ``input``'s shape), else 0, in
    ``input``'s shape and dtype: MindSpore's ``Bernoulli`` kernel, its draws fixed by
    ``seed`` (None: fresh every call)."""
    _check_tensor("bernoulli", "input", input)
    if isinstance(p, Tensor):
        p = F.cast(p, mstype.float32)
    elif isinstance(p, bool) or not isinstance(p, (int, float)):
        raise TypeError(f"For 'bernoulli', the 'p' must be a float or a Tensor, but got "
                        f"{type(p).__name__}.")
    elif not 0.0 <= p <= 1.0:
        raise ValueError(f"For 'bernoulli', the 'p' must be in [0, 1], but got {p}.")
    else:
        p = Tensor(np.array([p], np.float32))
    if isinstance(seed, R.GeneratorSeed):  # a Generator's draw: fixed, nothing to keep
        return RD.Bernoulli(input, p, seed=int(seed))
    seed = -1 if seed is None else _check_int("bernoulli", "seed", seed)
    prim = _BERNOULLI.get(seed)
    if prim is None:  # one primitive per seed, kept as MindSpore's _get_cache_prim keeps it
        prim = _BERNOULLI[seed] = primitive_class(RD.Bernoulli)(seed)
    return prim(input, p)


def _float32_tensor(name: str, arg: str, v) -> Tensor:
    if not isinstance(v, Tensor) or v.dtype != mstype.float32:
        raise TypeError(f"For '{name}', the '{arg}' must be a float32 Tensor, but got "
                        f"{v!r}.")
    return v


def _check_shape(name: str, shape) -> tuple:
    if not isinstance(shape, tuple) or any(isinstance(d, bool) or not isinstance(d, int)
                                           for d in shape):
        raise TypeError(f"For '{name}', the 'shape' must be a tuple of ints, but got "
                        f"{shape!r}.")
    return shape


def gamma(shape: tuple, alpha: Tensor, beta: Tensor, seed=None) -> Tensor:
    """Gamma(alpha, rate beta) draws of shape ``broadcast(shape, alpha, beta)``."""
    _check_shape("gamma", shape)
    alpha, beta = _float32_tensor("gamma", "alpha", alpha), _float32_tensor("gamma", "beta",
                                                                            beta)
    out = np.broadcast_shapes(shape, tuple(alpha.shape), tuple(beta.shape))
    draws = R.random_gamma(Tensor(np.array((), np.int32)), F.broadcast_to(alpha, out), seed)
    return F.div(draws, beta)


def poisson(shape: tuple, mean: Tensor, seed=None) -> Tensor:
    """float32 Poisson counts of rate ``mean``, of shape ``broadcast(shape, mean)``."""
    _check_shape("poisson", shape)
    mean = _float32_tensor("poisson", "mean", mean)
    out = np.broadcast_shapes(shape, tuple(mean.shape))
    return R.random_poisson(Tensor(np.array((), np.int32)), F.broadcast_to(mean, out), seed,
                            mstype.float32)


def laplace(shape: tuple, mean: Tensor, lambda_param: Tensor, seed=None) -> Tensor:
    """Laplace draws ``L * lambda_param + mean`` of shape ``broadcast(shape, mean,
    lambda_param)``, ``L`` MindSpore's ``StandardLaplace`` draws of ``shape`` (seeded by
    ``laplace``'s counter)."""
    _check_shape("laplace", shape)
    mean = _float32_tensor("laplace", "mean", mean)
    lambda_param = _float32_tensor("laplace", "lambda_param", lambda_param)
    np.broadcast_shapes(shape, tuple(mean.shape), tuple(lambda_param.shape))
    draws = RD.StandardLaplace(shape, **R.primitive_seeds("laplace", seed))
    return F.add(F.mul(draws, lambda_param), mean)


def random_categorical(logits: Tensor, num_sample: int, seed: int = 0,
                       dtype=mstype.int64) -> Tensor:
    """``(batch, num_sample)`` class indices drawn from ``softmax(logits)`` row by row
    (``RandomCategorical``: MindSpore CPU's numbers for a nonzero ``seed``)."""
    _check_tensor("random_categorical", "logits", logits)
    if dtype not in (mstype.int16, mstype.int32, mstype.int64):
        raise TypeError(f"For 'random_categorical', the 'dtype' must be int16, int32 or "
                        f"int64, but got {dtype}.")
    num_sample = _check_int("random_categorical", "num_sample", num_sample)
    seed = _check_int("random_categorical", "seed", seed)
    if logits.ndim != 2:
        raise ValueError(f"For 'random_categorical', the 'logits' must be 2-D, but got rank "
                         f"{logits.ndim}.")
    return RC.RandomCategorical(logits, num_sample, seed, dtype=dtype)


def multinomial_with_replacement(x: Tensor, seed, offset, numsamples: int,
                                 replacement: bool = False) -> Tensor:
    """int64 category indices drawn from the weights of each row of ``x``; ``(seed,
    offset)`` (ints or int Tensors) fix the draws (``(-1, 0)`` draws fresh ones)."""
    for arg, v in (("seed", seed), ("offset", offset)):
        if not isinstance(v, Tensor):
            _check_int("multinomial_with_replacement", arg, v)
    return MD.MultinomialWithReplacement(x, seed, offset, numsamples=numsamples,
                                         replacement=replacement)


def generator_seed(generator):
    """A seed drawn from ``generator``'s state, which then advances; None without one.
    While a graph is traced the state is only known when the graph runs, so the draw
    takes the next seed of the process-wide stream (fresh numbers every call, reproducible
    after ``graphkiln.set_seed``) and the graph advances the generator's offset."""
    if generator is None:
        return None
    if tracing_state.current() is not None:
        generator._step(1)
        return None
    seed_, offset = (int(v) for v in generator.get_state().asnumpy())
    generator.set_state(Tensor(np.array([seed_, offset + 1], np.int64)))
    return R.GeneratorSeed((seed_ * 1_000_003 + offset) % (1 << 62) + 1)


def _number(name: str, arg: str, v) -> float:
    if isinstance(v, bool) or not isinstance(v, (int, float)):
        raise TypeError(f"For '{name}', the '{arg}' must be a number, but got "
                        f"{type(v).__name__}.")
    return v


def uniform_(input: Tensor, from_=0, to=1, *, generator=None) -> Tensor:
    """Fill ``input`` in place with draws from ``[from_, to)``."""
    _check_tensor("uniform_", "input", input)
    low, high = _number("uniform_", "from_", from_), _number("uniform_", "to", to)
    if low > high:
        raise ValueError(f"For 'uniform_', the 'from_' must be <= 'to', but got {low} and "
                         f"{high}.")
    u = R.rand(tuple(input.shape), seed=generator_seed(generator))
    return _write(input, F.add(F.mul(u, float(high - low)), float(low)))


def normal_(input: Tensor, mean=0, std=1, *, generator=None) -> Tensor:
    """Fill ``input`` in place with draws of N(mean, std**2)."""
    _check_tensor("normal_", "input", input)
    mean, std = _number("normal_", "mean", mean), _number("normal_", "std", std)
    if std < 0:
        raise ValueError(f"For 'normal_', the 'std' must be >= 0, but got {std}.")
    z = R.standard_normal(tuple(input.shape), generator_seed(generator))
    return _write(input, F.add(F.mul(z, float(std)), float(mean)))


def _random_top(dtype) -> int:
    """The largest integer ``random_`` draws for ``to=None``: the dtype's maximum, or the
    largest integer a float dtype represents exactly (its mantissa)."""
    np_type = mstype.dtype_to_nptype(dtype)
    if np.issubdtype(np_type, np.integer):
        return int(np.iinfo(np_type).max)
    if dtype == mstype.bfloat16:
        return 2 ** 8
    return 2 ** (np.finfo(np_type).nmant + 1)


def random_(input: Tensor, from_=0, to=None, *, generator=None) -> Tensor:
    """Fill ``input`` in place with integers drawn uniformly from ``[from_, to - 1]``
    (``to=None``: up to the dtype's largest exactly representable integer)."""
    _check_tensor("random_", "input", input)
    low = _check_int("random_", "from_", from_)
    high = _random_top(input.dtype) + 1 if to is None else _check_int("random_", "to", to)
    if low >= high:
        raise ValueError(f"For 'random_', the 'to' must be greater than 'from_', but got "
                         f"from_ {low} and to {high}.")
    seed = generator_seed(generator)
    shape = tuple(input.shape)
    # two 24-bit draws make one 48-bit fraction, so wide ranges (int32/int64) are covered
    coarse = F.floor(F.mul(R.rand(shape, dtype=mstype.float64, seed=seed), float(1 << 24)))
    fine = R.rand(shape, dtype=mstype.float64,
                  seed=None if seed is None else R.GeneratorSeed(seed + 1))
    u = F.div(F.add(coarse, fine), float(1 << 24))
    draws = F.add(F.floor(F.mul(u, float(high - low))), float(low))
    return _write(input, F.minimum(draws, float(high - 1)))


def exponential_(input: Tensor, lambd=1, *, generator=None) -> Tensor:
    """Fill ``input`` in place with draws of the exponential distribution of rate
    ``lambd``."""
    _check_tensor("exponential_", "input", input)
    lambd = _number("exponential_", "lambd", lambd)
    if lambd <= 0:
        raise ValueError(f"For 'exponential_', the 'lambd' must be > 0, but got {lambd}.")
    u = R.rand(tuple(input.shape), seed=generator_seed(generator))
    return _write(input, F.div(F.neg(F.log1p(F.neg(u))), float(lambd)))


def bernoulli_(input: Tensor, p=0.5, *, generator=None) -> Tensor:
    """Fill ``input`` in place with 1 (probability ``p``) or 0."""
    return _write(input, bernoulli(input, p, generator_seed(generator)))


def _uniform_method(self, from_=0.0, to=1.0, generator=None) -> Tensor:
    """A new Tensor like ``self`` of draws from ``[from_, to)``."""
    if from_ > to:
        raise TypeError(f"For 'uniform', the 'from_' must be <= 'to', but got {from_} and "
                        f"{to}.")
    u = R.rand(tuple(self.shape), seed=generator_seed(generator))
    out = F.add(F.mul(u, float(to) - float(from_)), float(from_))
    return F.cast(out, self.dtype)


def _bernoulli_method(self, *, generator=None) -> Tensor:
    """1 with probability ``self`` (elementwise), else 0."""
    u = R.rand(tuple(self.shape), seed=generator_seed(generator))
    return F.cast(F.less(u, F.cast(self, mstype.float32)), self.dtype)


def _attach() -> None:
    for fn in (uniform_, normal_, random_, exponential_, bernoulli_):
        setattr(Tensor, fn.__name__, fn)
    Tensor.uniform = _uniform_method
    Tensor.bernoulli = _bernoulli_method
    Tensor.random_categorical = random_categorical


_attach()
