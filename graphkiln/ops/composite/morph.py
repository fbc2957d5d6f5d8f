"""``ops.Morph(fn, infer_shape, infer_dtype, bprop_fn=None)``: a primitive whose body is the
user's function ``fn``, expanded into the graph before autodiff (so gradients come from
``fn``'s ops, or from ``bprop_fn(*inputs, out, dout)`` when given). GRAPH_MODE only, as in
MindSpore: called eagerly it raises RuntimeError."""
from __future__ import annotations

import inspect

from ...frontend.control import call_user
from ...ir import tracing_state as state
from .custom_vjp import CustomVjp


def _check_fn_supported(fn) -> None:
    """With a ``bprop_fn``, ``fn`` takes plain positional parameters only (MindSpore)."""
    for p in inspect.signature(fn).parameters.values():
        if p.kind is not inspect.Parameter.POSITIONAL_OR_KEYWORD \
                or p.default is not inspect.Parameter.empty:
            raise ValueError(f"When use `bprop` in Morph, Morph `fn` only support positional "
                             f"or keyword parameters with default value is empty, but got "
                             f"param '{p.name}' of kind '{p.kind.name}' with default value "
                             f"'{p.default}'.")


class Morph:
    """Call ``fn`` as one primitive of the graph being traced."""

    def __init__(self, fn, infer_shape, infer_dtype, bprop_fn=None):
        for name, f in (("fn", fn), ("infer_shape", infer_shape),
                        ("infer_dtype", infer_dtype)):
            if not callable(f):
                raise TypeError(f"For 'Morph', '{name}' must be a function, but got "
                                f"{type(f).__name__}.")
        self.fn = fn
        self._infer_shape, self._infer_dtype = infer_shape, infer_dtype
        self._custom = None
        if bprop_fn is not None:
            _check_fn_supported(fn)
            self._custom = CustomVjp(fn)
            self._custom.defbwd(bprop_fn)

    def infer_shape(self, *args):
        return self._infer_shape(*args)

    def infer_dtype(self, *args):
        return self._infer_dtype(*args)

    def __call__(self, *args, **kwargs):
        if state.current() is None:
            raise RuntimeError("Morph is only supported in GRAPH_MODE.")
        if self._custom is None:
            return call_user(self.fn, args, kwargs)
        bound = inspect.signature(self.fn).bind(*args, **kwargs)
        return self._custom(*bound.args)


__all__ = ["Morph"]
