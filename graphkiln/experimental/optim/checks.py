"""Argument checks of the experimental optimizers and schedulers, with MindSpore's error
types and messages."""
from __future__ import annotations


def check_not_less_than(value, name: str, owner: str, bound: float = 0.0) -> None:
    """MindSpore's ValueError when ``value < bound``."""
    if value < bound:
        raise ValueError(f"For {owner}, the {name} must be greater than or equal to {bound}, "
                         f"but got {value}.")


def check_greater_than(value, name: str, owner: str, bound: float = 0.0) -> None:
    """MindSpore's ValueError when ``value <= bound``."""
    if value <= bound:
        raise ValueError(f"For {owner}, the {name} must be greater than {bound}, but got "
                         f"{value}.")


def check_type(name: str, value, types: tuple, owner: str) -> None:
    """MindSpore's TypeError when ``value`` is not one of ``types`` (bool is not a number)."""
    if isinstance(value, bool) and bool not in types or not isinstance(value, types):
        names = [t.__name__ for t in types]
        wanted = f"'{names[0]}'" if len(names) == 1 else f"one of '{names}'"
        raise TypeError(f"For '{owner}', the type of '{name}' should be {wanted}, but got type "
                        f"'{type(value).__name__}'.")


def check_range(name: str, value, low: float, high: float, owner: str,
                brackets: str = "[)") -> None:
    """MindSpore's ValueError when ``value`` is outside the range from ``low`` to ``high``
    (``brackets``: which ends are included, '[)', '[]' or '()')."""
    above = low <= value if brackets[0] == "[" else low < value
    below = value <= high if brackets[1] == "]" else value < high
    if not (above and below):
        raise ValueError(f"For '{owner}', the '{name}' must be in range of {brackets[0]}"
                         f"{float(low)}, {float(high)}{brackets[1]}, but got {value} with type "
                         f"'{type(value).__name__}'.")


def check_adam_args(lr, betas, eps, weight_decay) -> None:
    """Adam and AdamW's checks (ValueErrors naming the value)."""
    if lr < 0.0:
        raise ValueError(f"Invalid learning rate: {lr}")
    if eps < 0.0:
        raise ValueError(f"Invalid epsilon value: {eps}")
    for i in (0, 1):
        if not 0.0 <= betas[i] < 1.0:
            raise ValueError(f"Invalid beta parameter at index {i}: {betas[i]}")
    if weight_decay < 0.0:
        raise ValueError(f"Invalid weight_decay value: {weight_decay}")


def check_betas(betas, owner: str) -> None:
    """``betas[0]`` and ``betas[1]`` in ``[0, 1)`` (MindSpore's range check)."""
    for i in (0, 1):
        check_range(f"betas[{i}]", betas[i], 0.0, 1.0, owner)
