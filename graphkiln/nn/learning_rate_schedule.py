"""Learning-rate schedule cells, evaluated on the global step inside the graph:
``ExponentialDecayLR``, ``NaturalExpDecayLR``, ``InverseDecayLR``, ``CosineDecayLR``,
``PolynomialDecayLR``, ``WarmUpLR`` (MindSpore's arguments and formulas)."""
from __future__ import annotations

import math

import graphkiln.ops as ops

from ..common import dtype as mstype
from .cell import Cell


def _check_positive(owner: str, name: str, value, integer: bool = False):
    kinds = (int,) if integer else (int, float)
    if isinstance(value, bool) or not isinstance(value, kinds) or value <= 0:
        kind = "int" if integer else "float"
        raise ValueError(f"For '{owner}', the '{name}' must be a positive {kind}, but got "
                         f"{value!r}.")
    return value


def _check_non_negative(owner: str, name: str, value):
    if isinstance(value, bool) or not isinstance(value, (int, float)) or value < 0:
        raise ValueError(f"For '{owner}', the '{name}' must be a float >= 0, but got "
                         f"{value!r}.")
    return float(value)


class LearningRateSchedule(Cell):
    """Base of the schedules: ``construct(global_step)`` gives the learning rate."""

    def construct(self, global_step):
        raise NotImplementedError(f"{type(self).__name__} must define construct(global_step), "
                                  f"the learning rate at that step")


class _DecayLR(LearningRateSchedule):
    """``learning_rate * decay(p)`` with ``p = step / decay_steps`` (floored if stair)."""

    def __init__(self, learning_rate, decay_rate, decay_steps, is_stair=False):
        super().__init__()
        owner = type(self).__name__
        self.learning_rate = _check_positive(owner, "learning_rate", learning_rate)
        self.decay_rate = _check_positive(owner, "decay_rate", decay_rate)
        self.decay_steps = _check_positive(owner, "decay_steps", decay_steps, integer=True)
        if not isinstance(is_stair, bool):
            raise TypeError(f"For '{owner}', the 'is_stair' must be bool, but got "
                            f"{type(is_stair).__name__}.")
        self.is_stair = is_stair

    def construct(self, global_step):
        p = ops.div(ops.cast(global_step, mstype.float32), float(self.decay_steps))
        if self.is_stair:
            p = ops.floor_divide(p, 1.0)
        return ops.mul(self.learning_rate, self.decay(p))


class ExponentialDecayLR(_DecayLR):
    """``lr * decay_rate ** p``."""

    def decay(self, p):
        return ops.pow(float(self.decay_rate), p)


class NaturalExpDecayLR(_DecayLR):
    """``lr * exp(-decay_rate * step)`` (the step rounded down to a multiple of
    ``decay_steps`` when ``is_stair``)."""

    def construct(self, global_step):
        p = ops.cast(global_step, mstype.float32)
        if self.is_stair:
            steps = float(self.decay_steps)
            p = ops.mul(ops.floor_divide(p, steps), steps)
        return ops.mul(self.learning_rate, ops.exp(ops.mul(p, -float(self.decay_rate))))


class InverseDecayLR(_DecayLR):
    """``lr / (1 + decay_rate * p)``."""

    def decay(self, p):
        return ops.div(1.0, ops.add(ops.mul(p, float(self.decay_rate)), 1.0))


class CosineDecayLR(LearningRateSchedule):
    """``min_lr + 0.5 (max_lr - min_lr)(1 + cos(pi * min(step, decay_steps) / decay_steps))``."""

    def __init__(self, min_lr, max_lr, decay_steps):
        super().__init__()
        self.min_lr = _check_non_negative("CosineDecayLR", "min_lr", min_lr)
        self.max_lr = _check_positive("CosineDecayLR", "max_lr", max_lr)
        if self.min_lr >= self.max_lr:
            raise ValueError(f"For 'CosineDecayLR', the 'max_lr' should be greater than the "
                             f"'min_lr', but got 'max_lr' value: {max_lr}, 'min_lr' value: "
                             f"{min_lr}.")
        self.decay_steps = _check_positive("CosineDecayLR", "decay_steps", decay_steps,
                                           integer=True)

    def construct(self, global_step):
        p = ops.div(ops.minimum(ops.cast(global_step, mstype.float32),
                                float(self.decay_steps)), float(self.decay_steps))
        cos = ops.add(ops.cos(ops.mul(p, math.pi)), 1.0)
        return ops.add(self.min_lr, ops.mul(cos, 0.5 * (self.max_lr - self.min_lr)))


class PolynomialDecayLR(LearningRateSchedule):
    """``(lr - end_lr) (1 - step / decay_steps) ** power + end_lr``, the step capped at
    ``decay_steps`` (or the decay steps stretched to the next multiple when
    ``update_decay_steps``)."""

    def __init__(self, learning_rate, end_learning_rate, decay_steps, power,
                 update_decay_steps=False):
        super().__init__()
        owner = "PolynomialDecayLR"
        self.learning_rate = _check_positive(owner, "learning_rate", learning_rate)
        self.end_learning_rate = _check_non_negative(owner, "end_learning_rate",
                                                     end_learning_rate)
        self.decay_steps = _check_positive(owner, "decay_steps", decay_steps, integer=True)
        self.power = _check_positive(owner, "power", power)
        self.update_decay_steps = bool(update_decay_steps)

    def construct(self, global_step):
        step = ops.cast(global_step, mstype.float32)
        steps = float(self.decay_steps)
        if self.update_decay_steps:
            cycles = ops.maximum(ops.neg(ops.floor_divide(ops.neg(step), steps)), 1.0)
            p = ops.div(step, ops.mul(cycles, steps))
        else:
            p = ops.div(ops.minimum(step, steps), steps)
        decayed = ops.pow(ops.sub(1.0, p), float(self.power))
        return ops.add(ops.mul(decayed, self.learning_rate - self.end_learning_rate),
                       self.end_learning_rate)


class WarmUpLR(LearningRateSchedule):
    """``lr * min(step, warmup_steps) / warmup_steps``."""

    def __init__(self, learning_rate, warmup_steps):
        super().__init__()
        self.learning_rate = _check_positive("WarmUpLR", "learning_rate", learning_rate)
        self.warmup_steps = _check_positive("WarmUpLR", "warmup_steps", warmup_steps,
                                            integer=True)

    def construct(self, global_step):
        step = ops.minimum(ops.cast(global_step, mstype.float32), float(self.warmup_steps))
        return ops.mul(ops.div(step, float(self.warmup_steps)), self.learning_rate)
