"""``custom_vjp``: a function whose backward pass is the user's.

``@custom_vjp def fn(x, y): ...`` then ``fn.defbwd(bprop)`` with ``bprop(x, y, out, dout)``
returning one gradient per input: any gradient taken through a call of ``fn`` (``grad``,
``vjp``, ``GradOperation``, in either mode) uses ``bprop`` instead of differentiating the
body, as a Cell's ``bprop`` method does (the same machinery: ``frontend.reusable``).
"""
from __future__ import annotations

from ...compile.eager_calls import record_custom_bprop
from ...context import GRAPH_MODE, get_context
from ...frontend.control import call_user
from ...frontend.reusable import call_custom_bprop_cell
from ...ir import tape
from ...ir import tracing_state as state


class CustomVjp:
    """``fwd`` with the backward rule set by :meth:`defbwd`."""

    def __init__(self, fwd):
        self.fwd = fwd
        self.bwd = None
        self.__name__ = getattr(fwd, "__name__", type(fwd).__name__)
        self.__doc__ = getattr(fwd, "__doc__", None)

    def defbwd(self, bwd) -> None:
        """Use ``bwd(*inputs, out, dout)`` (a tuple of gradients, one per input) as the
        backward pass."""
        if not callable(bwd):
            raise TypeError(f"For 'custom_vjp', 'defbwd' takes a function, but got "
                            f"{type(bwd).__name__}.")
        self.bwd = bwd

    def parameters_and_names(self):
        """No weights of its own (a custom rule covers only the inputs)."""
        return iter(())

    def construct(self, *args):
        return self.fwd(*args)

    def bprop(self, *args):
        return self.bwd(*args)

    def __call__(self, *args):
        if state.current() is None:  # eager: the forward (on a PyNative gradient's
            if tape.ACTIVE and self.bwd is not None:  # tape, one step with ``bwd``)
                return record_custom_bprop(self, args, {})
            return self.fwd(*args)
        if self.bwd is None:
            return call_user(self.fwd, args, {})
        return call_custom_bprop_cell(self, CustomVjp.construct, CustomVjp.bprop, args, {},
                                      get_context("mode") != GRAPH_MODE)


def custom_vjp(fn=None):
    """Decorate ``fn`` to take a custom backward pass (set with ``fn.defbwd(bprop)``)."""
    if fn is None:
        return CustomVjp
    return CustomVjp(fn)


__all__ = ["custom_vjp", "CustomVjp"]
