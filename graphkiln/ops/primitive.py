"""``graphkiln.ops.primitive``: the primitive registry, re-exported from the IR layer, and
``constexpr`` (``mindspore.ops.primitive`` holds both).

``OpDef``, ``Primitive`` and ``REGISTRY`` are defined in :mod:`graphkiln.ir.primitive`
(the IR applies primitives, so they sit below the ops); this path stays for users and for
modules that define ops. ``PrimitiveWithInfer``, ``PrimitiveWithCheck`` and
``prim_attr_register`` are MindSpore's bases for primitive classes written in Python: a
user's class named after a registered primitive (``class Shift(PrimitiveWithInfer)``, as
MindSpore's tests declare primitives that have a CPU kernel but no Python class) runs that
primitive.
"""
import functools
import inspect
from collections.abc import Callable

from ..ir import tracing_state as state
from ..ir.primitive import (
    GRAPH_ATTRS,
    IO_EFFECT,
    MEM_EFFECT,
    NO_EFFECT,
    REGISTRY,
    OpDef,
    Primitive,
    apply,
    primitive_class,
)


def constexpr(fn=None, *, get_instance: bool = True, reuse_result: bool = True,
              check: bool = True):
    """``@ops.constexpr``: a Python function evaluated while the graph is built.

    graphkiln runs Python code at trace time with the constant arguments it is given, so the
    function's result becomes a constant of the graph; decorated functions are called as
    they are (``get_instance=False`` returns the function's class-like wrapper instead).
    Inside a graph, as in MindSpore, an argument that is a function is no constant value:
    the function receives None for it."""
    def wrap(f):
        @functools.wraps(f)
        def call(*args, **kwargs):
            if state.current() is not None:
                args = tuple(None if _is_function(a) else a for a in args)
                kwargs = {k: None if _is_function(v) else v for k, v in kwargs.items()}
            return f(*args, **kwargs)
        if get_instance:
            return call
        return lambda: call
    return wrap(fn) if fn is not None else wrap


def _is_function(x) -> bool:
    return inspect.isfunction(x) or inspect.ismethod(x)


class PrimitiveWithInfer(Primitive):
    """A primitive class written in Python, named after a registered primitive whose
    inference and kernel its calls run (MindSpore's CPU kernel lookup by name).

    The class's ``infer_shape``/``infer_dtype``/``__infer__`` hooks are MindSpore's Python
    inference; graphkiln checks the inputs with the registered primitive's inference. A
    name with no registered primitive raises MindSpore's RuntimeError when called.
    """

    def __init__(self, name: str):
        self._prim_name = name
        opdef = REGISTRY.get(name)
        if opdef is not None:
            Primitive.__init__(self, opdef, dict(opdef.attrs))
        else:
            self.opdef, self.attrs, self._key = None, {}, None

    @property
    def name(self) -> str:
        return self._prim_name

    def init_prim_io_names(self, inputs: list, outputs: list) -> None:
        """Name the inputs and outputs (MindSpore's attributes ``input_names`` and
        ``output_names``)."""
        self.input_names, self.output_names = list(inputs), list(outputs)

    def add_prim_attr(self, name: str, value) -> Primitive:
        """Set an attribute: an attribute of the registered primitive changes its
        computation; every attribute is also readable as ``self.<name>``."""
        self.__dict__[name] = value
        return super().add_prim_attr(name, value) if self.opdef is not None else self

    def __call__(self, *args):
        if self.opdef is None:
            raise RuntimeError(f"Unsupported op [{self._prim_name}] on CPU, Please confirm "
                               f"whether the device target setting is correct, or refer to "
                               f"'mindspore.ops' at https://www.mindspore.cn to query the "
                               f"operator support list.")
        return super().__call__(*args)

    def __repr__(self) -> str:
        attrs = ", ".join(f"{k}={v}" for k, v in self.attrs.items() if k != "state")
        return f"Prim[{self._prim_name}]" + (f"<{attrs}>" if attrs else "")


class PrimitiveWithCheck(PrimitiveWithInfer):
    """A Python primitive class with MindSpore's ``check_shape``/``check_dtype`` hooks; it
    runs the registered primitive of its name, as :class:`PrimitiveWithInfer`."""


def prim_attr_register(fn: Callable) -> Callable:
    """Decorate a Python primitive class's ``__init__``: the primitive is the registered
    one named as the class, and every constructor argument (defaults filled in) becomes
    one of its attributes before the body runs."""
    sig = inspect.signature(fn)

    @functools.wraps(fn)
    def init(self, *args, **kwargs):
        PrimitiveWithInfer.__init__(self, type(self).__name__)
        bound = sig.bind(self, *args, **kwargs)
        bound.apply_defaults()
        self.init_attrs = {k: v for k, v in bound.arguments.items() if k != "self"}
        for k, v in self.init_attrs.items():
            self.add_prim_attr(k, v)
        fn(self, *args, **kwargs)

    return init


__all__ = ["OpDef", "Primitive", "REGISTRY", "primitive_class", "apply", "NO_EFFECT",
           "MEM_EFFECT", "IO_EFFECT", "GRAPH_ATTRS", "constexpr", "PrimitiveWithInfer",
           "PrimitiveWithCheck", "prim_attr_register"]
