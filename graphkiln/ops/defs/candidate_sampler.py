"""Candidate samplers: ``UniformCandidateSampler`` and ``LogUniformCandidateSampler`` draw
``num_sampled`` classes from ``[0, range_max)`` (all different when ``unique``) and give the
expected count of each true and each sampled class under the sampling.

Both draw MindSpore 2.10 CPU's numbers. ``UniformCandidateSampler`` keeps a
``std::default_random_engine`` (libstdc++'s ``minstd_rand0``) seeded with
``mix_seeds(seed, 0)`` (seed 0: graphkiln's process-wide stream, as for the other unseeded
kernels) and draws ``uniform_int_distribution(0, range_max - 1)``; with ``batch_rank``
leading batch dimensions (vmap) the batches draw one after another from the same engine.
``remove_accidental_hits`` also rejects the true classes of the batch, unless they leave too
few classes to draw from: then, as MindSpore's kernel, it is switched off for good.
``LogUniformCandidateSampler`` draws from Philox4x32-10 keyed by 87654321 with its ``seed``
as the counter's high half, one double per draw (``exp(u log(range_max + 1)) - 1``,
truncated, modulo ``range_max``), and reserves ``2048 num_sampled`` outputs per launch, so a
primitive called again continues past them. The expected counts are computed in float32 as
MindSpore's kernels do: ``p num_sampled`` when every draw was kept, else
``1 - (1 - p)**tries``. Nothing here is differentiable.
"""
from __future__ import annotations

import numpy as np

from ...common import dtype as mstype
from ...common.philox import philox_uint32, unit_doubles
from ...common.std_random import KernelStreams, MinstdRand0, engine_for
from ...ir.abstract import AbstractTensor, AbstractTuple
from ...ir.primitive import OpDef
from ._infer import UNKNOWN_DIM, describe, quiet, require_constructor_args
from .nn import next_seed

_UNIFORM = "UniformCandidateSampler"
_LOG_UNIFORM = "LogUniformCandidateSampler"
_INT32_MAX = 2**31 - 1


def _check_type(name: str, arg: str, value, kind: type) -> None:
    if isinstance(value, bool) is not (kind is bool) or not isinstance(value, kind):
        raise TypeError(f"For '{name}', the type of '{arg}' should be '{kind.__name__}', but "
                        f"got type '{type(value).__name__}'.")


def _check_uniform_attrs(attrs: dict) -> None:
    require_constructor_args(attrs, ("num_true", "num_sampled", "unique", "range_max"))
    for arg, kind in (("num_true", int), ("num_sampled", int), ("unique", bool),
                      ("range_max", int), ("seed", int), ("remove_accidental_hits", bool)):
        _check_type(_UNIFORM, arg, attrs[arg], kind)
    for arg in ("num_true", "num_sampled", "range_max"):
        if attrs[arg] <= 0:
            raise ValueError(f"For '{_UNIFORM}', the value of {arg} should be > : 0, but got "
                             f"{attrs[arg]}.")
    if attrs["unique"] and attrs["num_sampled"] > attrs["range_max"]:
        raise ValueError(f"For '{_UNIFORM}', the value of num_sampled should be <= value of "
                         f"range_max: {attrs['range_max']}, but got {attrs['num_sampled']}.")
    if attrs["seed"] < 0:
        raise ValueError(f"For '{_UNIFORM}', the value of seed should be >= : 0, but got "
                         f"{attrs['seed']}.")


def _check_log_uniform_attrs(attrs: dict) -> None:
    for arg, kind in (("num_true", int), ("num_sampled", int), ("unique", bool),
                      ("range_max", int), ("seed", int)):
        _check_type(_LOG_UNIFORM, arg, attrs[arg], kind)
    for arg in ("num_true", "num_sampled", "range_max"):
        if attrs[arg] < 1:
            raise ValueError(f"For '{_LOG_UNIFORM}', the argument '{arg}' must >= 1, but got "
                             f"{attrs[arg]}.")
    if attrs["unique"] and attrs["range_max"] < attrs["num_sampled"]:
        raise ValueError(f"For '{_LOG_UNIFORM}', the 'range_max' should be >= num_sampled: "
                         f"{attrs['num_sampled']}, but got {attrs['range_max']}.")
    if attrs["seed"] < 0:
        raise ValueError(f"For '{_LOG_UNIFORM}', the argument 'seed' must >= 0, but got "
                         f"{attrs['seed']}.")


def _true_classes(name: str, x, types: tuple) -> None:
    if not isinstance(x, AbstractTensor):
        raise TypeError(f"For Primitive[{name}], the type of input argument[true_classes] must "
                        f"be Tensor but got {describe(x)}.")
    if x.dtype not in types:
        shown = ", ".join(f"Tensor[{t}]" for t in types)
        raise TypeError(f"For primitive[{name}], the input argument[true_classes] must be a "
                        f"type of {{{shown}}}, but got Tensor[{x.dtype}].")


def _outputs(x: AbstractTensor, lead: tuple, num_sampled: int) -> AbstractTuple:
    sampled = lead + (num_sampled,)
    return AbstractTuple([AbstractTensor(x.dtype, sampled),
                          AbstractTensor(mstype.float32, tuple(x.shape)),
                          AbstractTensor(mstype.float32, sampled)])


def _uniform_infer(true_classes, num_true=None, num_sampled=None, unique=None, range_max=None,
                   seed=0, remove_accidental_hits=False, batch_rank=0, state=None):
    _check_uniform_attrs(dict(num_true=num_true, num_sampled=num_sampled, unique=unique,
                              range_max=range_max, seed=seed,
                              remove_accidental_hits=remove_accidental_hits))
    _true_classes(_UNIFORM, true_classes, (mstype.int32, mstype.int64))
    shape = tuple(true_classes.shape)
    if len(shape) != batch_rank + 2:
        raise ValueError(f"For primitive[{_UNIFORM}], the dimension of input must be equal to "
                         f"{batch_rank + 2}, but got {len(shape)}.")
    if shape[-1] not in (num_true, UNKNOWN_DIM):
        raise ValueError(f"For primitive[{_UNIFORM}], the num_true must be equal to "
                         f"{shape[-1]}, but got {num_true}.")
    if true_classes.dtype == mstype.int32 and range_max > _INT32_MAX:
        raise ValueError(f"For '{_UNIFORM}', 'range_max' can not exceed the range of int32, "
                         f"but got {range_max}. The input data type should be changed to "
                         f"int64.")
    return _outputs(true_classes, shape[:batch_rank], num_sampled)


def _expected_count(p: np.ndarray, num_sampled: int, tries: int) -> np.ndarray:
    """The float32 expected count of a class of probability ``p`` (float32) after ``tries``
    draws that kept ``num_sampled`` classes."""
    if tries == num_sampled:
        return p * np.float32(num_sampled)
    return -np.expm1(np.float32(tries) * np.log1p(-p))


def _first_new(values: np.ndarray, taken: set, need: int) -> tuple[list, int]:
    """The first ``need`` values of ``values`` that are not in ``taken`` and not repeated
    before them, and how many of ``values`` were read to find them (all of them when fewer
    were found)."""
    order, first = np.unique(values, return_index=True)
    fresh = [(i, int(v)) for v, i in zip(order.tolist(), first.tolist()) if int(v) not in taken]
    fresh.sort()
    if len(fresh) >= need:
        fresh = fresh[:need]
        return [v for _, v in fresh], fresh[-1][0] + 1
    return [v for _, v in fresh], len(values)


def _uniform_draws(engine: MinstdRand0, num_sampled: int, range_max: int, unique: bool,
                   banned: set) -> tuple[list, int]:
    """One batch's candidates and the number of draws they took."""
    if not unique:
        return engine.uniform_ints(num_sampled, range_max - 1).tolist(), num_sampled
    picked: list = []
    taken = set(banned)
    tries = 0
    while len(picked) < num_sampled:
        # each draw keeps at most one class, so these are never more than the C++ loop reads
        need = num_sampled - len(picked)
        new, _ = _first_new(engine.uniform_ints(need, range_max - 1), taken, need)
        picked += new
        taken.update(new)
        tries += need
    return picked, tries


@quiet
def _uniform_sampler(true_classes, num_true=None, num_sampled=None, unique=None,
                     range_max=None, seed=0, remove_accidental_hits=False, batch_rank=0,
                     state=None):
    x = np.asarray(true_classes)
    lead = x.shape[:batch_rank]
    sampled = np.zeros(lead + (num_sampled,), x.dtype)
    true_count = np.zeros(x.shape, np.float32)
    sampled_count = np.zeros(lead + (num_sampled,), np.float32)
    if x.size == 0:  # MindSpore's kernel leaves the outputs unwritten
        return sampled, true_count, sampled_count
    engine = engine_for(state, MinstdRand0, seed, 0, x.shape, next_seed)
    # MindSpore's kernel turns accidental-hit removal off for good once a batch has too
    # many distinct true classes for it
    removing = [remove_accidental_hits] if state is None else state.slot(
        ("remove_accidental_hits", seed, x.shape), lambda: [remove_accidental_hits])
    p = np.float32(1.0) / np.float32(range_max)
    for k in np.ndindex(*lead):
        banned: set = set()
        if removing[0]:
            banned = set(np.unique(x[k]).tolist())
            if num_sampled + len(banned) > range_max:
                removing[0] = False
                banned = set()
        picked, tries = _uniform_draws(engine, num_sampled, range_max, unique, banned)
        sampled[k] = picked
        value = _expected_count(p, num_sampled, tries)
        true_count[k] = value
        sampled_count[k] = value
    return sampled, true_count, sampled_count


# num_sampled classes drawn uniformly from [0, range_max), with their expected counts
UniformCandidateSampler = OpDef(
    _UNIFORM, _uniform_infer, _uniform_sampler, differentiable=False, pure_eval=False,
    attrs={"num_true": None, "num_sampled": None, "unique": None, "range_max": None,
           "seed": 0, "remove_accidental_hits": False, "batch_rank": 0},
    check_attrs=_check_uniform_attrs, state=KernelStreams)


def _log_uniform_infer(true_classes, num_true=1, num_sampled=5, unique=True, range_max=5,
                       seed=0, state=None):
    _check_log_uniform_attrs(dict(num_true=num_true, num_sampled=num_sampled, unique=unique,
                                  range_max=range_max, seed=seed))
    _true_classes(_LOG_UNIFORM, true_classes, (mstype.int64,))
    shape = tuple(true_classes.shape)
    if len(shape) != 2:
        raise ValueError(f"{_LOG_UNIFORM} input true_classes dims should be 2.")
    if shape[1] not in (num_true, UNKNOWN_DIM):
        raise ValueError(f"{_LOG_UNIFORM} input true_classes dim[1] should equal to num_true, "
                         f"true_classes.dim[1] = {shape[1]}, num_true = {num_true}")
    return _outputs(true_classes, (), num_sampled)


_LOG_UNIFORM_KEY = 87654321
_BLOCKS_PER_CHUNK = 256


class _Launches:
    """How many launches a log-uniform kernel made (each reserves its own Philox blocks)."""

    __slots__ = ("count",)

    def __init__(self):
        self.count = 0


def _log_uniform_values(bits: np.ndarray, range_max: int) -> np.ndarray:
    """Classes from Philox outputs, a double from each pair (MindSpore's ``Uint64ToDouble``)."""
    u = unit_doubles(bits[0::2], bits[1::2])
    log_range = np.log1p(float(range_max))
    return (np.exp(u * log_range).astype(np.int64) - 1) % range_max


@quiet
def _log_uniform_sampler(true_classes, num_true=1, num_sampled=5, unique=True, range_max=5,
                         seed=0, state=None):
    x = np.asarray(true_classes)
    launches = _Launches() if state is None else state.slot(
        ("launches", seed, x.shape), _Launches)
    block = launches.count * ((2048 * num_sampled + 3) // 4)
    launches.count += 1
    if unique:
        picked: list = []
        taken: set = set()
        tries = 0
        while len(picked) < num_sampled:
            bits = philox_uint32(_LOG_UNIFORM_KEY, 4 * _BLOCKS_PER_CHUNK, seed, block)
            block += _BLOCKS_PER_CHUNK
            need = num_sampled - len(picked)
            new, read = _first_new(_log_uniform_values(bits, range_max), taken, need)
            picked += new
            taken.update(new)
            tries += read
        sampled = np.array(picked, np.int64)
    else:
        bits = philox_uint32(_LOG_UNIFORM_KEY, 2 * num_sampled, seed, block)
        sampled = _log_uniform_values(bits, range_max)
        tries = num_sampled
    log_range = np.log1p(float(range_max))

    def count(classes):
        c = classes.astype(np.float64)
        p = (np.log((c + 2.0) / (c + 1.0)) / log_range).astype(np.float32)
        return _expected_count(p, num_sampled, tries).astype(np.float32)
    return sampled.astype(x.dtype), count(x), count(sampled)


# num_sampled classes drawn from [0, range_max) by a log-uniform (Zipfian) law
LogUniformCandidateSampler = OpDef(
    _LOG_UNIFORM, _log_uniform_infer, _log_uniform_sampler, differentiable=False,
    pure_eval=False, attrs={"num_true": 1, "num_sampled": 5, "unique": True, "range_max": 5,
                            "seed": 0},
    check_attrs=_check_log_uniform_attrs, state=KernelStreams)
