"""``ops.WhileLoop``, ``ops.ForiLoop`` and ``ops.Scan``: loops as functions.

They run the loop through the frontend's loop helpers, so inside a graph a tensor
condition or tensor bounds trace one ``While`` node, and Python bounds unroll (as
``unroll=True`` asks; with ``unroll=False`` graphkiln still unrolls Python bounds, which
gives the same results). Eagerly they are plain Python loops.
"""
from __future__ import annotations

from ...common.tensor import Tensor
from ...frontend import control


def _call(fn, *args):
    return control.call(fn, *args)


class WhileLoop:
    """``WhileLoop()(cond_func, loop_func, init_val)``: ``val = loop_func(val)`` while
    ``cond_func(val)``; returns the last ``val``."""

    def __call__(self, cond_func, loop_func, init_val):
        (val,) = control.while_stmt(lambda v: _call(cond_func, v),
                                    lambda v: (_call(loop_func, v),),
                                    (init_val,), ("init_val",))
        return val


class ForiLoop:
    """``ForiLoop()(lower, upper, loop_func, init_val, unroll=True)``: ``val =
    loop_func(i, val)`` for ``i`` in ``[lower, upper)``; returns the last ``val``."""

    def __call__(self, lower, upper, loop_func, init_val, unroll: bool = True):
        for name, bound in (("lower", lower), ("upper", upper)):
            if not isinstance(bound, (int, Tensor)) or isinstance(bound, bool):
                raise TypeError(f"For 'ForiLoop', the '{name}' must be an int or a Tensor, "
                                f"but got {type(bound).__name__}.")
        _, val = control.while_stmt(lambda i, v: i < upper,
                                    lambda i, v: (i + 1, _call(loop_func, i, v)),
                                    (lower, init_val), ("i", "init_val"))
        return val


class Scan:
    """``Scan()(loop_func, init, xs, length=None, unroll=True)``: ``carry, y =
    loop_func(carry, x)`` for each ``x`` of ``xs`` (``length`` times with ``x=None`` when
    ``xs`` is None); returns ``(carry, [y...])``."""

    def __call__(self, loop_func, init, xs, length: int | None = None, unroll: bool = True):
        if xs is None:
            if not isinstance(length, int) or isinstance(length, bool) or length < 0:
                raise ValueError(f"For 'Scan', when 'xs' is None the 'length' must be a "
                                 f"non-negative int, but got {length!r}.")
            items = [None] * length
        else:
            items = [xs[i] for i in range(len(xs))]
            if length is not None and length != len(items):
                raise ValueError(f"For 'Scan', the 'length' ({length}) must equal the length "
                                 f"of 'xs' ({len(items)}).")
        carry, ys = init, []
        for x in items:
            out = _call(loop_func, carry, x)
            if not isinstance(out, (tuple, list)) or len(out) != 2:
                raise TypeError("For 'Scan', the 'loop_func' must return a pair (carry, y).")
            carry, y = out
            ys.append(y)
        return carry, ys


__all__ = ["WhileLoop", "ForiLoop", "Scan"]
