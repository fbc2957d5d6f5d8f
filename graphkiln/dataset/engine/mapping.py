"""``OpChain``: the operations of one ``map``, applied in order to a row's input columns."""
from __future__ import annotations

from collections.abc import Sequence

from ..randomness import RowDraws, set_current
from .column_values import as_column
from .workers import OpFailed


def op_name(op) -> str:
    """The name MindSpore reports for an operation: its class, or ``PyFunc`` for callables."""
    return getattr(op, "op_name", None) or "PyFunc"


def as_operations(operations) -> list:
    ops = list(operations) if isinstance(operations, (list, tuple)) else [operations]
    if not ops:
        raise ValueError("Input operations should not be empty.")
    for op in ops:
        if not callable(op):
            raise TypeError(f"Argument operations with value {op!r} is not callable: pass "
                            "transforms or Python functions.")
    return ops


def _check_not_none(out) -> None:
    """MindSpore's errors for an operation that returned None, or None among its outputs."""
    if out is None:
        raise ValueError("Got None from Python object.")
    if isinstance(out, tuple) and any(a is None for a in out):
        raise ValueError("Expect pyfunc to return numpy array(s), but got None.")


class OpChain:
    """Applies ``ops`` in order; the outputs of one are the inputs of the next.

    Called with ``(key, args)``: when the chain holds a random operation, ``key`` seeds the
    row's random generator, so results do not depend on which worker runs the row; or
    ``apply(streams, args)`` with MindSpore's per-op streams (``randomness.MapStreams``).
    """

    def __init__(self, operations: Sequence):
        self.ops = as_operations(operations)
        self.random = any(getattr(op, "random", False) for op in self.ops)

    def __call__(self, item: tuple) -> tuple:
        key, args = item
        return self.apply(RowDraws(key) if self.random else None, args)

    def apply(self, streams, args: tuple) -> tuple:
        """The chain's outputs for ``args``, random ops drawing from ``streams``."""
        if streams is not None:
            set_current(streams)
        try:
            for op in self.ops:
                try:
                    out = op(*args)
                    _check_not_none(out)
                except Exception as exc:
                    raise OpFailed(f"map operation: [{op_name(op)}]") from exc
                args = out if isinstance(out, tuple) else (out,)
        finally:
            if streams is not None:
                set_current(None)
        return tuple(as_column(a) for a in args)
