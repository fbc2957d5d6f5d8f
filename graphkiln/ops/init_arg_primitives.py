"""Primitive classes whose MindSpore constructor takes what the call then passes on as
trailing inputs of the primitive: ``ops.Cummin(axis)(x)`` runs ``Cummin(x, axis)``.

graphkiln's primitive takes those values as inputs (the functional ``ops.cummin(x, axis)``
calls it so); the class keeps them as attributes, so instances with different values compile
apart, and a 0-D int Tensor given to the constructor is read as its int, as MindSpore does."""
from __future__ import annotations

from ..common.tensor import Tensor
from ..ir.primitive import REGISTRY, Primitive, apply, override_class, primitive_class

__all__ = ["Cummin", "Cummax"]


def _scalar_tensor_to_int(value):
    """A 0-D int Tensor as its int (what MindSpore's constructor handler does)."""
    if isinstance(value, Tensor) and value.ndim == 0 and value.dtype.is_int:
        return int(value.asnumpy())
    return value


def _init_input_class(name: str, params: tuple[str, ...]) -> type:
    """The user-facing class of primitive ``name`` whose constructor takes ``params`` (all
    required) and whose call appends their values to the inputs."""
    opdef = REGISTRY[name]

    def __init__(self, *args, **kwargs):
        if len(args) > len(params):
            raise TypeError(f"For '{name}', the constructor takes at most {len(params)} "
                            f"arguments, but got {len(args)}.")
        given = dict(zip(params, args))
        for key, value in kwargs.items():
            if key not in params or key in given:
                raise TypeError(f"For '{name}', got an unexpected or repeated argument "
                                f"'{key}'.")
            given[key] = value
        missing = [p for p in params if p not in given]
        if missing:
            raise TypeError(f"For '{name}', the constructor is missing the required argument "
                            f"'{missing[0]}'.")
        bound = {p: _scalar_tensor_to_int(given[p]) for p in params}
        Primitive.__init__(self, opdef, {**opdef.attrs, **bound})

    def __call__(self, *inputs):
        attrs = dict(self.attrs)
        trailing = tuple(attrs.pop(p) for p in params)
        return apply(self.opdef, inputs + trailing, attrs)

    cls = type(name, (primitive_class(opdef),), {
        "__init__": __init__, "__call__": __call__, "__slots__": (),
        "__doc__": f"``ops.{name}({', '.join(params)})(...)``."})
    cls.__module__ = "graphkiln.ops"
    return override_class(cls)


Cummin = _init_input_class("Cummin", ("axis",))
Cummax = _init_input_class("Cummax", ("axis",))
