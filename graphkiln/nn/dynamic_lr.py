"""Learning-rate lists, one value per step (MindSpore's ``nn.*_lr`` functions): pass the list
as an optimizer's ``learning_rate`` and it is read at the global step."""
from __future__ import annotations

import math


def _check_positive_int(name: str, value) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value <= 0:
        raise ValueError(f"The '{name}' must be a positive int, but got {value!r}.")
    return value


def _check_positive_float(name: str, value, allow_zero: bool = False) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or \
            value < 0 or (value == 0 and not allow_zero):
        raise ValueError(f"The '{name}' must be a {'non-negative' if allow_zero else 'positive'}"
                         f" float, but got {value!r}.")
    return float(value)


def piecewise_constant_lr(milestone, learning_rates) -> list[float]:
    """``learning_rates[i]`` for the steps before ``milestone[i]``."""
    if not isinstance(milestone, (tuple, list)) or not isinstance(learning_rates,
                                                                  (tuple, list)):
        raise TypeError("For 'piecewise_constant_lr', the 'milestone' and 'learning_rates' "
                        "must be lists or tuples.")
    if len(milestone) != len(learning_rates):
        raise ValueError(f"For 'piecewise_constant_lr', the size of 'milestone' must be the "
                         f"same as the size of 'learning_rates', but got 'milestone' size: "
                         f"{len(milestone)}, 'learning_rates' size: {len(learning_rates)}.")
    last = 0
    for m in milestone:
        _check_positive_int("milestone", m)
        if m <= last:
            raise ValueError(f"For 'piecewise_constant_lr', the 'milestone' must be a "
                             f"strictly increasing list, but got {list(milestone)}.")
        last = m
    lr = []
    start = 0
    for m, rate in zip(milestone, learning_rates):
        lr += [float(rate)] * (m - start)
        start = m
    return lr


def _epoch_args(total_step, step_per_epoch, decay_epoch):
    _check_positive_int("total_step", total_step)
    _check_positive_int("step_per_epoch", step_per_epoch)
    _check_positive_int("decay_epoch", decay_epoch)


def _decay_lr(learning_rate, decay_rate, total_step, step_per_epoch, decay_epoch, is_stair,
              decay) -> list[float]:
    """``decay(learning_rate, decay_rate, epoch, decay_epoch)`` per step, ``epoch`` the
    step's epoch: each function gives MindSpore's expression in its order of operations
    (the float results are then the same to the last bit)."""
    _check_positive_float("learning_rate", learning_rate)
    _check_positive_float("decay_rate", decay_rate)
    _epoch_args(total_step, step_per_epoch, decay_epoch)
    if not isinstance(is_stair, bool):
        raise TypeError(f"The 'is_stair' must be bool, but got {type(is_stair).__name__}.")
    return [decay(learning_rate, decay_rate, math.floor(i / step_per_epoch), decay_epoch)
            for i in range(total_step)]


def exponential_decay_lr(learning_rate, decay_rate, total_step, step_per_epoch, decay_epoch,
                         is_stair=False) -> list[float]:
    """``lr * decay_rate ** (epoch / decay_epoch)`` per step (the exponent floored when
    ``is_stair``)."""
    return _decay_lr(learning_rate, decay_rate, total_step, step_per_epoch, decay_epoch,
                     is_stair, lambda lr, r, e, d: lr * r ** (math.floor(e / d) if is_stair
                                                              else e / d))


def natural_exp_decay_lr(learning_rate, decay_rate, total_step, step_per_epoch, decay_epoch,
                         is_stair=False) -> list[float]:
    """``lr * exp(-decay_rate * epoch)`` per step (the epoch rounded down to a multiple of
    ``decay_epoch`` when ``is_stair``)."""
    return _decay_lr(learning_rate, decay_rate, total_step, step_per_epoch, decay_epoch,
                     is_stair, lambda lr, r, e, d: lr * math.e ** (
                         -r * (math.floor(e / d) * d if is_stair else e)))


def inverse_decay_lr(learning_rate, decay_rate, total_step, step_per_epoch, decay_epoch,
                     is_stair=False) -> list[float]:
    """``lr / (1 + decay_rate * epoch / decay_epoch)`` per step (``epoch / decay_epoch``
    floored when ``is_stair``)."""
    return _decay_lr(learning_rate, decay_rate, total_step, step_per_epoch, decay_epoch,
                     is_stair, lambda lr, r, e, d: lr / (1 + r * math.floor(e / d))
                     if is_stair else lr / (1 + r * e / d))


def cosine_decay_lr(min_lr, max_lr, total_step, step_per_epoch, decay_epoch) -> list[float]:
    """``min_lr + 0.5 (max_lr - min_lr)(1 + cos(pi * min(epoch, decay_epoch) / decay_epoch))``."""
    _check_positive_float("min_lr", min_lr, allow_zero=True)
    _check_positive_float("max_lr", max_lr)
    if min_lr >= max_lr:
        raise ValueError(f"For 'cosine_decay_lr', the 'max_lr' should be greater than the "
                         f"'min_lr', but got 'max_lr' value: {max_lr}, 'min_lr' value: "
                         f"{min_lr}.")
    _epoch_args(total_step, step_per_epoch, decay_epoch)
    delta = 0.5 * (max_lr - min_lr)
    return [min_lr + delta * (1 + math.cos(math.pi * min(math.floor(i / step_per_epoch),
                                                         decay_epoch) / decay_epoch))
            for i in range(total_step)]


def polynomial_decay_lr(learning_rate, end_learning_rate, total_step, step_per_epoch,
                        decay_epoch, power, update_decay_epoch=False) -> list[float]:
    """``(lr - end_lr) (1 - epoch / decay_epoch) ** power + end_lr`` per step."""
    _check_positive_float("learning_rate", learning_rate)
    _check_positive_float("end_learning_rate", end_learning_rate, allow_zero=True)
    _check_positive_float("power", power)
    _epoch_args(total_step, step_per_epoch, decay_epoch)
    out = []
    for i in range(total_step):
        epoch = math.floor(i / step_per_epoch)
        if update_decay_epoch:
            span = decay_epoch * max(math.ceil(epoch / decay_epoch), 1)
        else:
            epoch, span = min(epoch, decay_epoch), decay_epoch
        out.append((learning_rate - end_learning_rate) * (1 - epoch / span) ** power
                   + end_learning_rate)
    return out


def warmup_lr(learning_rate, total_step, step_per_epoch, warmup_epoch) -> list[float]:
    """``lr * min(epoch, warmup_epoch) / warmup_epoch`` per step."""
    _check_positive_float("learning_rate", learning_rate)
    _check_positive_int("total_step", total_step)
    _check_positive_int("step_per_epoch", step_per_epoch)
    _check_positive_int("warmup_epoch", warmup_epoch)
    return [learning_rate * min(math.floor(i / step_per_epoch), warmup_epoch) / warmup_epoch
            for i in range(total_step)]
