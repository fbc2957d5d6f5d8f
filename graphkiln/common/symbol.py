"""``mindspore.Symbol``: what is known of an unknown dimension of a ``set_inputs``
placeholder (``Tensor(shape=[Symbol(max=16, divisor=8), None], ...)``): its bounds, that
it is ``divisor * N + remainder``, and whether every dimension it marks has one value
(``unique``). A call whose shapes break these raises MindSpore's ValueError."""
from __future__ import annotations


class Symbol:
    """An unknown dimension in ``[min, max]`` (``max=0``: unbounded), equal to
    ``divisor * N + remainder``; ``unique``: all dimensions marked with this Symbol are
    equal."""

    def __init__(self, max: int = 0, min: int = 1, divisor: int = 1, remainder: int = 0,
                 unique: bool = False, **kwargs):
        for name, value, kind in (("max", max, int), ("min", min, int),
                                  ("divisor", divisor, int), ("remainder", remainder, int),
                                  ("unique", unique, bool)):
            if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
                raise TypeError(f"For 'Symbol', the argument '{name}' must be "
                                f"{kind.__name__}, but got {type(value)}")
        if min <= 0:
            raise ValueError(f"For 'Symbol', the 'min' value should be positive, but got {min}")
        if divisor <= 0:
            raise ValueError(f"For 'Symbol', the 'divisor' value should be positive, but got "
                             f"{divisor}")
        if remainder < 0 or remainder >= divisor:
            raise ValueError(f"For 'Symbol', the 'remainder' value should be in the range "
                             f"'[0, {divisor})', but got {remainder}")
        self.max = max
        self.min = min
        self.divisor = divisor
        self.remainder = remainder
        self.unique = unique
        self.id = id(self)

    def to_dict(self) -> dict:
        """The constraints that say more than the defaults."""
        out = {}
        if self.max > self.min:
            out["max"] = self.max
        if self.min > self.divisor + self.remainder:
            out["min"] = self.min
        if self.divisor != 1:
            out["divisor"] = self.divisor
        if self.remainder != 0:
            out["remainder"] = self.remainder
        if self.unique:
            out["id"] = self.id
        return out

    def __str__(self) -> str:
        return str(self.to_dict())

    def violation(self, value: int, seen: dict) -> str | None:
        """What is wrong with the actual dimension ``value`` (None when it fits);
        ``seen`` holds the values of the unique Symbols met so far in this call."""
        if self.max > 0 and value > self.max:
            return (f"must be less than or equal to the 'max' value '{self.max}' of "
                    f"`Symbol`, but got '{value}'.")
        if value < self.min:
            return (f"must be greater than or equal to the 'min' value '{self.min}' of "
                    f"`Symbol`, but got '{value}'.")
        if value % self.divisor != self.remainder or value < self.divisor + self.remainder:
            return (f"must match the 'divisor'(d) and 'remainder'(d) of `Symbol`. The value "
                    f"should be 'd * N + r' for 'N > 0', got d={self.divisor} and "
                    f"r={self.remainder}, but actual shape value is '{value}'.")
        if self.unique:
            previous = seen.setdefault(self.id, value)
            if previous != value:
                return (f"is a unique symbol, all values must be the same. The previous "
                        f"value is {previous}, but the current value is {value}.")
        return None


__all__ = ["Symbol"]
